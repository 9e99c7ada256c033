"""A table told to end after the hand in play (a tournament round's time ran out): it plays
that hand out, deals no other, is saved as closed and runs its finish hooks; between hands it
ends at once; a restart in the middle of the hand still ends it after that hand."""

from __future__ import annotations

import random

from euchre.storage import MemoryStore
from euchre.storage.base import FINISHED
from euchre.table.actor.actor import TableActor, restore
from euchre.table.actor.deps import TableDeps
from euchre.table.actor.kind import FinishedTable
from euchre.table.actor.pacing import ManualScheduler, Pacing
from table_helpers import Recorder, fixed_bots, make_table, seeds, until_person

TIME_UP = "round_time"


def _with_hook(actor: TableActor) -> list[tuple[str, int, str | None]]:
    """A finish hook on ``actor`` that notes (table, hands played, closed) at each call."""
    calls: list[tuple[str, int, str | None]] = []

    async def hook(table: FinishedTable) -> None:
        assert isinstance(table, TableActor)
        calls.append((table.id, sum(h.is_over for h in table.game.all_hands()), table.closed))

    actor.on_finish.append(hook)
    return calls


async def _play_hand_out(actor: TableActor, sched: ManualScheduler, rng: random.Random
                         ) -> None:
    """The person (seat 0) plays random legal moves until the hand in play is over."""
    hand = actor.game.current
    assert hand is not None
    number = len(actor.game.all_hands())
    while not actor.finished and len(actor.game.all_hands()) == number \
            and actor.game.current is not None and not actor.game.current.is_over:
        if actor.game.to_act == 0:
            view = actor.view(0)
            assert view is not None
            await actor.act(0, str(rng.choice(view.legal)))
            await actor.settle()
            continue
        due = sched.next_due()
        assert due is not None, "nothing is due but nobody is to act"
        sched.advance(due - sched.now())
        await actor.settle()


async def test_the_hand_in_play_is_played_out_then_the_table_ends() -> None:
    store = MemoryStore()
    actor, _, sched = make_table(store=store, first_dealer=3)  # the person bids first
    calls = _with_hook(actor)
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    assert await until_person(actor, sched)
    assert await actor.close_after_hand(TIME_UP) is True
    assert actor.closed is None and actor.last_hand == TIME_UP  # the hand goes on
    stored = await store.get(actor.id)
    assert stored is not None and stored.meta["last_hand"] == TIME_UP
    assert await actor.close_after_hand("again") is True  # asked twice: the first reason
    await _play_hand_out(actor, sched, random.Random(3))
    assert actor.closed == TIME_UP and len(actor.game.all_hands()) == 1
    assert actor.game.current is not None and actor.game.current.is_over
    assert calls == [(actor.id, 1, TIME_UP)]  # the finish hooks ran, once
    assert sched.next_due() is None  # no deal is due: nothing more is played
    kinds = [m["event"]["kind"] for m in rec.events()]
    assert kinds[-1] == "closed" and "deal" not in kinds[kinds.index("hand_over"):]
    stored = await store.get(actor.id)
    assert stored is not None and stored.status == FINISHED
    assert stored.meta["closed"] == TIME_UP
    assert await actor.close_after_hand(TIME_UP) is True  # closed: still True
    await actor.stop()


async def test_a_table_between_hands_ends_at_once() -> None:
    store = MemoryStore()
    actor, _, sched = make_table(store=store, first_dealer=3)
    calls = _with_hook(actor)
    actor.start()
    assert await until_person(actor, sched)
    await _play_hand_out(actor, sched, random.Random(5))
    assert actor.game.needs_deal and sched.next_due() is not None  # the pause between hands
    assert await actor.close_after_hand(TIME_UP) is True
    assert actor.closed == TIME_UP and calls == [(actor.id, 1, TIME_UP)]
    due = sched.next_due()
    if due is not None:  # the next deal, once due, is void
        sched.advance(due - sched.now())
        await actor.settle()
    assert len(actor.game.all_hands()) == 1
    await actor.stop()


async def test_a_restart_mid_hand_still_ends_the_table_after_that_hand() -> None:
    store = MemoryStore()
    actor, _, sched = make_table(store=store, first_dealer=3)
    actor.start()
    assert await until_person(actor, sched)
    assert await actor.close_after_hand(TIME_UP) is True
    await actor.stop()
    stored = await store.get(actor.id)
    assert stored is not None
    again = restore(stored, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0), store=store,
                                      bot_factory=fixed_bots, seed_source=seeds("again")))
    calls = _with_hook(again)
    assert again.last_hand == TIME_UP and again.closed is None
    again.start()
    await _play_hand_out(again, sched, random.Random(7))
    assert again.closed == TIME_UP and calls == [(again.id, 1, TIME_UP)]
    await again.stop()


async def test_a_game_already_over_is_not_closed() -> None:
    actor, _, sched = make_table(rules={"hands_limit": 1}, first_dealer=3)
    actor.start()
    rng = random.Random(11)
    while await until_person(actor, sched):
        view = actor.view(0)
        assert view is not None
        await actor.act(0, str(rng.choice(view.legal)))
    assert actor.game.is_over
    assert await actor.close_after_hand(TIME_UP) is False
    assert actor.closed is None and actor.last_hand is None
    await actor.stop()

