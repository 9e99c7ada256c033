"""The move clock value (rule 9), with time given by hand."""

from __future__ import annotations

import pytest

from euchre.table.kinds.clock import COMPUTER_SPEED, ClockPolicy, MoveClock


def test_a_move_gets_ninety_seconds() -> None:
    clock = MoveClock().start(100.0)
    assert clock.running and clock.deadline == 190.0 and clock.allowed == 90.0
    assert clock.time_left(130.0) == 60.0
    assert not clock.is_expired(189.999)
    assert clock.is_expired(190.0)
    assert clock.time_left(500.0) == 0.0
    assert clock.start(150.0) is clock  # a running clock is kept
    assert clock.to_json(0, 130.0) == {
        "seat": 0, "running": True, "deadline_ms_left": 60000, "move_ms": 90000,
        "seconds_per_move": 90.0, "misses": 0, "computer_speed": False,
    }


def test_three_misses_in_a_row_bring_computer_speed() -> None:
    clock = MoveClock()
    seconds = []
    for _ in range(4):
        clock = clock.start(0.0)
        seconds.append(clock.allowed)
        clock = clock.missed()
    assert seconds == [90.0, 90.0, 90.0, COMPUTER_SPEED]
    assert clock.misses == 4 and clock.fast


def test_one_move_puts_the_full_clock_back() -> None:
    clock = MoveClock().missed().missed().moved()
    assert (clock.misses, clock.fast) == (0, False)
    clock = clock.missed().missed()
    assert clock.start(0).allowed == 90.0
    fast = clock.missed()
    assert fast.start(0).allowed == COMPUTER_SPEED
    back = fast.moved()
    assert back.start(0).allowed == 90.0 and back.misses == 0


def test_computer_speed_ends_with_the_hand_and_the_count_carries() -> None:
    clock = MoveClock().missed().missed().missed().new_hand()
    assert clock.start(0).allowed == 90.0 and clock.misses == 3
    again = clock.missed()  # the first miss of the next hand: computer speed at once
    assert again.fast and again.start(0).allowed == COMPUTER_SPEED
    assert MoveClock().missed().new_hand().missed().start(0).allowed == 90.0


def test_the_clock_is_parametric() -> None:
    online = ClockPolicy(seconds_per_move=30, computer_speed=1, misses_for_computer_speed=2)
    clock = MoveClock(online).start(0)
    assert clock.deadline == 30
    assert MoveClock(online).missed().missed().start(0).allowed == 1
    for bad in ({"seconds_per_move": 0}, {"computer_speed": -1},
                {"misses_for_computer_speed": 0}, {"seconds_per_move": float("inf")},
                {"pace": 0}, {"pace": float("nan")}):
        with pytest.raises(ValueError):
            ClockPolicy(**bad)  # type: ignore[arg-type]


def test_a_faster_pace_runs_the_clock_out_sooner_and_tells_the_seconds_chosen() -> None:
    """A test site's clock at pace 0.1: a 5 s move runs out in half a second, computer speed
    likewise ten times faster; the table still tells the 5 s a move chosen."""
    policy = ClockPolicy(seconds_per_move=5, pace=0.1)
    clock = MoveClock(policy).start(10.0)
    assert clock.deadline == pytest.approx(10.5) and clock.is_expired(10.5)
    shown = clock.to_json(2, 10.0)
    assert (shown["seconds_per_move"], shown["move_ms"], shown["deadline_ms_left"]) == (5, 500, 500)
    fast = MoveClock(policy).missed().missed().missed().start(0)
    assert fast.allowed == pytest.approx(COMPUTER_SPEED * 0.1)


def test_stop_restart_and_state() -> None:
    clock = MoveClock().missed().missed().missed().start(10.0)
    assert clock.stop().running is False and clock.stop().time_left(11) == 0.0
    assert clock.restart(20.0).deadline == 20.0 + COMPUTER_SPEED
    saved = clock.state()
    assert saved == {"misses": 3, "fast": True}
    back = MoveClock.from_state(ClockPolicy(), saved)
    assert (back.misses, back.fast, back.running) == (3, True, False)
    assert MoveClock().to_json(0, 0)["deadline_ms_left"] is None
