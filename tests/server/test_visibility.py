"""No message to a seat ever names a card that seat may not see at that moment.

Every message sent to every seat over whole games (with lone hands, discards, farmer's
hands and the Benny) is scanned; what each seat may see is worked out from the engine's
full state when the message was sent, not from the views the messages were built from.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.cards import card_text
from euchre.table.actor.events import ACTION
from table_helpers import Recorder, cards_in, make_table, play_game, visible_cards


def leaks(rec: Recorder) -> list[tuple[int, set[str]]]:
    """(message index, card texts) for every message naming a card the seat may not see."""
    found = []
    assert rec.seat is not None
    for i, (message, game) in enumerate(zip(rec.messages, rec.games, strict=True)):
        assert game is not None
        extra = cards_in(message) - visible_cards(game, rec.seat)
        if extra:
            found.append((i, {card_text(c) for c in extra}))
    return found


@pytest.mark.parametrize(
    ("preset", "level", "rules", "seed"),
    [
        ("classic", "medium", {}, 1),
        ("kitchen-table", "random", {}, 2),
        ("benny", "random", {"defend_alone": True}, 3),
        ("canadian", "easy", {"farmers_hand": "three-nines-two-tens"}, 4),
    ],
)
async def test_no_seat_is_sent_a_card_it_may_not_see(preset: str, level: str,
                                                     rules: dict[str, object],
                                                     seed: int) -> None:
    actor, _, sched = make_table(preset=preset, level=level, rules=rules, prefix=preset)
    recorders = [Recorder(seat, actor) for seat in range(4)]
    actor.start()
    for rec in recorders:
        await actor.join(rec)
    rng = random.Random(seed)
    turns = 0
    late: list[Recorder] = []

    async def rejoin_now_and_then() -> None:
        nonlocal turns
        turns += 1
        if turns % 7 == 0:  # a seat reconnects and is replayed the events it missed
            rec = Recorder(turns % 4, actor)
            since = max(0, actor.version - rng.randrange(1, 40))
            await actor.join(rec, since=since)
            late.append(rec)

    await play_game(actor, sched, rng, rejoin_now_and_then)
    assert actor.game.is_over
    for rec in recorders + late:
        assert leaks(rec) == [], f"seat {rec.seat} was sent hidden cards"
    # the scan is not vacuous: hidden discards were sent, without their card
    hidden = [
        m for rec in recorders for m in rec.events()
        if m["event"]["kind"] == ACTION and m["event"]["action"] == "discard"
    ]
    assert hidden
    await actor.stop()


async def test_the_scan_catches_a_leak() -> None:
    actor, _, _ = make_table()
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    await actor.settle()
    current = actor.game.current
    assert current is not None
    rec.send({"type": "event", "oops": f"play {card_text(current.hand(1)[0])}"})
    assert leaks(rec) == [(len(rec.messages) - 1, {card_text(current.hand(1)[0])})]
    await actor.stop()


@settings(max_examples=8, deadline=None)
@given(
    preset=st.sampled_from(["classic", "stick-the-dealer", "kitchen-table", "benny", "short"]),
    level=st.sampled_from(["random", "easy"]),
    seed=st.integers(0, 10_000),
    first_dealer=st.integers(0, 3),
)
def test_random_games_never_show_a_seat_a_hidden_card(preset: str, level: str, seed: int,
                                                      first_dealer: int) -> None:
    async def run() -> None:
        actor, _, sched = make_table(preset=preset, level=level, first_dealer=first_dealer,
                                     prefix=f"{preset}-{seed}")
        recorders = [Recorder(s, actor) for s in range(4)]
        actor.start()
        for rec in recorders:
            await actor.join(rec)
        await play_game(actor, sched, random.Random(seed))
        for rec in recorders:
            assert leaks(rec) == []
        await actor.stop()

    asyncio.run(run())
