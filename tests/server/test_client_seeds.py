"""A shuffle nobody can choose (issue 13 item 9): each hand is dealt from the table's seed,
committed before the hand, mixed with a seed from every person sent after that commitment."""

from __future__ import annotations

import json
import random

import pytest
from msgspec import to_builtins

from euchre.server.wire.common import BadRequest as MessageError
from euchre.server.wire.socket import Seed, parse_client_message
from euchre.shuffle import commitment, deck_from_seed, mixed_seed
from euchre.storage import MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps, TableError, restore
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.records import public_record
from euchre.table.kinds.practice import PracticeOptions, practice_table
from euchre.verify import parse_commitments, verify_record
from table_helpers import Recorder, fixed_bots, seeds


def table(seed_wait: float = 5.0, store: MemoryStore | None = None,
          ) -> tuple[TableActor, ManualScheduler, MemoryStore]:
    config, _ = practice_table(PracticeOptions("classic", {}, "random", "random", "random"),
                               table_id="s1", token="secret", first_dealer=3)
    sched = ManualScheduler()
    store = store or MemoryStore()
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0, seed_wait),
                       store=store, bot_factory=fixed_bots, seed_source=seeds("server")))
    return actor, sched, store


def mine(rng: random.Random) -> str:
    return rng.randbytes(32).hex()


async def test_the_first_deal_waits_for_the_persons_seed_then_mixes_it() -> None:
    actor, _, _ = table()
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    await actor.settle()
    assert actor.game.current is None, "the first deal waits for the person's seed"
    ahead = rec.last_table()["next_commitment"]
    assert ahead == {"hand_number": 1, "commitment": commitment("server-0")}
    seed = "ab" * 32
    await actor.contribute(0, 1, seed)
    await actor.settle()  # no time passes: everyone's seed is in, so the deal is at once
    current = actor.game.current
    assert current is not None
    deal = next(m["event"] for m in rec.events() if m["event"]["kind"] == "deal")
    assert deal["commitment"] == ahead["commitment"] and deal["client_seeds"] == {"0": seed}
    assert deal["next_commitment"] == {"hand_number": 2, "commitment": commitment("server-1")}
    want = deck_from_seed(mixed_seed("server-0", {0: seed}))
    assert list(current.deal.hands[0]) == want[0:3] + want[12:14], "dealt from the mix"
    await actor.stop()


async def test_without_a_seed_the_first_deal_comes_after_the_wait() -> None:
    actor, sched, _ = table(seed_wait=5.0)
    actor.start()
    await actor.settle()
    sched.advance(4.9)
    await actor.settle()
    assert actor.game.current is None
    sched.advance(0.2)
    await actor.settle()
    assert actor.game.current is not None and actor.client_seeds == [{}]
    await actor.stop()


@pytest.mark.parametrize(("seat", "hand", "seed", "why"), [
    (1, 1, "ab" * 32, "no seat"),
    (0, 2, "ab" * 32, "hand 1 only"),
    (0, 1, "AB" * 32, "hex digits"),
    (0, 1, "ab" * 4, "hex digits"),
])
async def test_a_bad_seed_is_refused_and_changes_nothing(seat: int, hand: int, seed: str,
                                                         why: str) -> None:
    actor, sched, _ = table()
    actor.start()
    await actor.settle()
    with pytest.raises(TableError, match=why):
        await actor.contribute(seat, hand, seed)
    sched.advance(5.0)
    await actor.settle()
    assert actor.client_seeds == [{}]
    await actor.stop()


async def test_a_second_seed_for_a_hand_is_refused() -> None:
    actor, _, _ = table(seed_wait=0.0)
    actor.start()
    await actor.settle()  # hand 1 dealt at once; hand 2's commitment is out
    await actor.contribute(0, 2, "cd" * 32)
    with pytest.raises(TableError, match="already taken"):
        await actor.contribute(0, 2, "ef" * 32)
    await actor.stop()


async def test_a_whole_game_with_the_persons_seeds_verifies() -> None:
    """The person sends a seed for each hand as soon as its commitment is out; the record
    carries them, verifies against the kept messages, and fails once one is tampered with."""
    actor, sched, _ = table()
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    rng = random.Random(8)
    sent: dict[int, str] = {}
    while True:
        await actor.settle()
        if actor.game.is_over:
            break
        ahead = rec.last_table()["next_commitment"]
        if ahead and ahead["hand_number"] not in sent:
            sent[ahead["hand_number"]] = mine(rng)
            await actor.contribute(0, ahead["hand_number"], sent[ahead["hand_number"]])
            continue
        if actor.game.to_act == 0:
            await actor.act(0, str(rng.choice(actor.game.legal_actions())))
            continue
        due = sched.next_due()
        assert due is not None
        sched.advance(due - sched.now())
    record = public_record(actor.record())
    assert [h.client_seeds for h in record.hands] == [
        {0: sent[n]} for n in range(1, len(record.hands) + 1)]
    kept = parse_commitments("\n".join(json.dumps(m) for m in rec.messages))
    report = verify_record(record, kept, strict=True)
    assert report.ok and report.verified == len(record.hands) >= 2
    summary = rec.last_table()["summary"]
    assert summary["client_seeds"] == {"0": sent[len(record.hands)]}
    record.hands[0].client_seeds[0] = mine(rng)
    assert not verify_record(record, kept).ok
    await actor.stop()


async def test_a_restored_table_keeps_its_committed_seed_and_the_seeds_sent() -> None:
    actor, sched, store = table(seed_wait=0.0)
    actor.start()
    await actor.settle()
    ahead = to_builtins(actor.snapshot(0))["next_commitment"]
    await actor.contribute(0, 2, "cd" * 32)
    await actor.stop()
    stored = await store.get("s1")
    assert stored is not None
    again = restore(stored, TableDeps(scheduler=sched, bot_factory=fixed_bots,
                    seed_source=seeds("other")))
    assert to_builtins(again.snapshot(0))["next_commitment"] == ahead
    again.start()
    with pytest.raises(TableError, match="already taken"):
        await again.contribute(0, 2, "ef" * 32)
    await again.stop()


def test_the_seed_message() -> None:
    assert parse_client_message('{"type": "seed", "hand_number": 2, "seed": "ab"}') == Seed(
        2, "ab")
    for bad in ('{"type": "seed", "seed": "ab"}', '{"type": "seed", "hand_number": 0, '
                '"seed": "ab"}', '{"type": "seed", "hand_number": 1, "seed": 5}',
                '{"type": "seed", "hand_number": 1, "seed": "ab", "x": 1}'):
        with pytest.raises(MessageError):
            parse_client_message(bad)
