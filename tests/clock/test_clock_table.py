"""Rule 9 at a coin table, on a fake clock: every sequence of missed and made moves.

The scripted computers order up at once, so each hand gives South six turns: a bid or the
dealer's discard, then five cards. ``F`` is the full clock, ``C`` computer speed.
"""

from __future__ import annotations

import pytest
from clock_helpers import TOKEN, Harness, Recorder

from euchre.table.actor.actor import TableDeps, restore
from euchre.table.kinds.clock import COMPUTER_SPEED, ClockPolicy

F = 90.0
C = round(COMPUTER_SPEED * 1000) / 1000  # the header shows whole milliseconds


async def test_the_header_counts_down_ninety_seconds() -> None:
    h = Harness()
    h.actor.start()
    await h.to_person_turn()
    assert h.clock_json()["deadline_ms_left"] == 90000
    await h.run_for(30)
    clock = h.clock_json()
    assert clock["deadline_ms_left"] == 60000 and clock["misses"] == 0
    assert not clock["computer_speed"]
    await h.run_for(59.5)
    assert h.clock_json()["deadline_ms_left"] == 500
    await h.actor.stop()


async def test_one_miss_plays_the_move_with_the_expert_player_and_keeps_the_full_clock() -> None:
    h = Harness()
    sub = Recorder()
    h.actor.start()
    await h.actor.join(sub)
    assert await h.miss() == (1, "order", F)
    timed_out = [e for e in sub.events() if e.get("timed_out")]
    assert len(timed_out) == 1 and timed_out[0]["seat"] == 0
    # the move was the expert player's; West (a computer) already thinks ahead of its turn
    assert h.levels == ["expert", "expert"]
    await h.to_person_turn()
    assert h.clock_json()["move_ms"] == 90000 and h.clock_json()["misses"] == 1
    await h.actor.stop()


async def test_two_misses_keep_the_full_clock() -> None:
    h = Harness()
    h.actor.start()
    turns = [await h.miss() for _ in range(2)]
    await h.to_person_turn()
    assert [t[2] for t in turns] == [F, F] and h.clock_json()["move_ms"] == 90000
    assert h.clock_json()["misses"] == 2
    await h.actor.stop()


async def test_three_misses_in_a_row_run_the_rest_of_the_hand_at_computer_speed() -> None:
    h = Harness()
    h.actor.start()
    turns = [await h.miss() for _ in range(8)]
    assert [(t[0], t[2]) for t in turns] == [
        (1, F), (1, F), (1, F), (1, C), (1, C), (1, C),
        # Computer speed ends with the hand; the misses carry on, so the next miss brings it back.
        (2, F), (2, C),
    ]
    await h.to_person_turn()
    assert h.clock_json()["computer_speed"] and h.clock_json()["misses"] == 8
    await h.actor.stop()


async def test_a_move_in_between_puts_the_full_clock_back() -> None:
    h = Harness()
    h.actor.start()
    turns = [await h.miss(), await h.miss(), await h.move(), await h.miss(), await h.miss(),
             await h.miss(), await h.miss()]
    assert [(t[0], t[2]) for t in turns] == [
        (1, F), (1, F), (1, F), (1, F), (1, F), (1, F), (2, F),
    ]
    await h.to_person_turn()  # hand 2, misses 4: computer speed
    assert h.clock_json()["move_ms"] == round(C * 1000)
    # One move during computer speed puts the full clock back at once.
    turn = await h.move()
    assert turn[2] == pytest.approx(C, abs=0.001)
    await h.to_person_turn()
    assert h.clock_json()["move_ms"] == 90000 and h.clock_json()["misses"] == 0
    await h.actor.stop()


async def test_a_streak_is_broken_only_by_a_move_of_the_person() -> None:
    h = Harness()
    h.actor.start()
    turns = [await h.miss(), await h.miss(), await h.move(), await h.miss(), await h.miss(),
             await h.move(), await h.miss()]
    assert all(t[2] == F for t in turns)
    await h.actor.stop()


@pytest.mark.parametrize(("first_dealer", "skip", "phase"), [
    (3, 0, "order"),     # South bids first
    (0, 0, "discard"),   # South deals; West orders up; South must discard
    (3, 1, "play"),      # after the bid, South leads the first trick
])
async def test_a_timeout_in_each_phase(first_dealer: int, skip: int, phase: str) -> None:
    h = Harness(first_dealer=first_dealer)
    h.actor.start()
    for _ in range(skip):
        await h.move()
    hand, seen, allowed = await h.miss()
    assert (hand, seen, allowed) == (1, phase, F)
    history = h.actor.game.current.history()  # type: ignore[union-attr]
    assert [a.kind for s, a in history if s == 0][-1] == {
        "order": "order", "discard": "discard", "play": "play"}[phase]
    assert "expert" in h.levels
    await h.actor.stop()


async def test_the_clock_runs_on_while_disconnected_and_rejoining_resumes() -> None:
    h = Harness()
    sub = Recorder()
    h.actor.start()
    await h.actor.join(sub)
    await h.to_person_turn()
    seen = h.actor.version
    h.actor.leave(sub)  # the connection dropped: not leaving the game
    await h.actor.settle()
    await h.run_for(90 * 3 + 60)
    assert h.levels.count("expert") >= 3
    assert h.actor.game.current is not None and h.actor.game.current.history()
    back = Recorder()
    await h.actor.join(back, since=seen)
    events = back.events()
    assert all(m["version"] > seen for m in back.messages if m["type"] == "event")
    snapshots = [m for m in back.messages if m["type"] == "snapshot"]
    if snapshots:  # table law 11: the missed events showed tricks no longer on view
        table = snapshots[0]["table"]
        assert table["version"] == back.messages[0]["version"] and table["clock"]["misses"] >= 3
    else:
        assert any(e.get("timed_out") for e in events)
    assert not h.actor.game.is_over
    await h.actor.stop()


async def test_a_restored_table_keeps_the_streak_and_restarts_the_move() -> None:
    h = Harness()
    h.actor.start()
    for _ in range(3):
        await h.miss()
    await h.to_person_turn()
    await h.run_for(0.3)
    await h.actor.stop()  # the server went away mid-move
    stored = await h.store.get("t1")
    assert stored is not None and stored.meta["policy"]["clocks"]["0"]["misses"] == 3
    h.actor = restore(stored, TableDeps(**h.kwargs()))
    h.actor.start()
    await h.actor.settle()
    assert h.actor.game.to_act == 0
    clock = h.clock_json()
    assert clock["misses"] == 3 and clock["computer_speed"]
    assert clock["deadline_ms_left"] == round(C * 1000)
    assert h.actor.seat_of(TOKEN) == 0
    await h.actor.stop()


async def test_an_online_clock_with_other_numbers() -> None:
    h = Harness(clock=ClockPolicy(seconds_per_move=20, computer_speed=1,
                                  misses_for_computer_speed=2))
    h.actor.start()
    turns = [await h.miss() for _ in range(4)]
    assert [t[2] for t in turns] == [20, 20, 1, 1]
    await h.actor.stop()
