"""Coin tables against the computer: each person's move clock as a turn policy (rule 9: the
full clock each move, computer speed for the rest of a hand after three misses in a row, the
streak saved with the table), and the settings of a new coin table."""

from __future__ import annotations

import json

import pytest

from euchre.rules import Rules
from euchre.table.actor.kind import FinishedTable
from euchre.table.actor.seats import BOT, HUMAN, AccountKey
from euchre.table.actor.wire import Clock
from euchre.table.kinds.clock import COMPUTER_SPEED, SECONDS_PER_MOVE, ClockPolicy
from euchre.table.kinds.coin import (
    COIN,
    COIN_OPPONENTS,
    COIN_PRESET,
    NO_HINTS,
    TIMEOUT_LEVEL,
    CoinTurnPolicy,
    coin_kind,
    coin_table,
)


def _policy(clock: ClockPolicy | None = None) -> CoinTurnPolicy:
    config, _ = coin_table("c1", "ann", 10, token="tok", first_dealer=0)
    return CoinTurnPolicy(config, clock)


def _miss(policy: CoinTurnPolicy, now: float) -> float:
    """Let the person's clock run out once; the time it ran out."""
    deadline = policy.deadline(0, now)
    assert deadline is not None
    policy.moved(0, deadline, timed_out=True)
    return deadline


def test_a_new_coin_table_seats_the_account_south_against_three_experts() -> None:
    config, token = coin_table("c1", "ann", 25, first_dealer=3)
    assert (config.id, config.kind, config.preset) == ("c1", COIN, COIN_PRESET)
    assert config.rules == Rules.preset(COIN_PRESET) and config.extra == {"stake": 25}
    south = config.seats[0]
    assert (south.kind, south.name, south.account) == (HUMAN, "ann", "ann")
    assert config.seat_of(token) == 0 and config.seat_of(AccountKey(1, "ann")) == 0
    assert [(s.kind, s.level) for s in config.seats[1:]] == [(BOT, COIN_OPPONENTS)] * 3
    assert config.first_dealer == 3 and config.first_draw == ()
    drawn, _ = coin_table("c2", "ann", 25)
    assert drawn.first_draw  # no dealer given: drawn


def test_only_a_persons_seat_is_on_the_clock() -> None:
    policy = _policy()
    assert set(policy.clocks) == {0}
    assert [policy.deadline(s, 100.0) for s in (1, 2, 3)] == [None, None, None]
    assert policy.deadline(0, 100.0) == 100.0 + SECONDS_PER_MOVE
    # asked again while the move is timed, the deadline stays where it was
    assert policy.deadline(0, 130.0) == 100.0 + SECONDS_PER_MOVE
    assert policy.on_timeout(0, 190.0) == TIMEOUT_LEVEL == "expert"


def test_three_misses_in_a_row_bring_computer_speed_until_the_hand_ends() -> None:
    policy = _policy()
    now = 0.0
    for _ in range(2):
        now = _miss(policy, now)
        assert policy.deadline(0, now) == now + SECONDS_PER_MOVE  # still the full clock
        policy.clocks[0] = policy.clocks[0].stop()
    now = _miss(policy, now)
    assert policy.clocks[0].misses == 3 and policy.clocks[0].fast
    assert policy.deadline(0, now) == pytest.approx(now + COMPUTER_SPEED)
    policy.hand_over(now)
    clock = policy.clocks[0]
    assert (clock.fast, clock.misses, clock.running) == (False, 3, False)  # the streak stays
    assert policy.deadline(0, now) == now + SECONDS_PER_MOVE
    _miss(policy, now)
    assert policy.clocks[0].fast  # the next miss brings computer speed back at once


def test_a_move_of_the_persons_own_puts_the_full_clock_back() -> None:
    policy = _policy()
    now = _miss(policy, _miss(policy, _miss(policy, 0.0)))
    assert policy.clocks[0].fast
    policy.deadline(0, now)
    policy.moved(0, now + 0.1, timed_out=False)
    assert (policy.clocks[0].misses, policy.clocks[0].fast) == (0, False)
    assert policy.deadline(0, 500.0) == 500.0 + SECONDS_PER_MOVE


def test_a_seat_a_computer_took_over_has_no_clock() -> None:
    policy = _policy()
    policy.forget(0)
    assert policy.deadline(0, 1.0) is None and policy.clock_json(0, 5.0, 1.0) is None
    policy.moved(0, 2.0, timed_out=True)  # a late report changes nothing
    assert policy.clocks == {}


def test_the_snapshot_clock_counts_down_whole_milliseconds_up() -> None:
    policy = _policy(ClockPolicy(seconds_per_move=30))
    assert policy.clock_json(None, 10.0, 0.0) is None
    assert policy.clock_json(1, 10.0, 0.0) is None  # a computer's seat
    deadline = policy.deadline(0, 100.0)
    assert deadline == 130.0
    shown = policy.clock_json(0, deadline, 112.0004)
    assert shown == Clock(seat=0, running=True, deadline_ms_left=18000, move_ms=30000,
                          seconds_per_move=30, misses=0, computer_speed=False)
    late = policy.clock_json(0, deadline, 131.0)
    assert late is not None and late.deadline_ms_left == 0


def test_the_streak_is_saved_and_a_restored_clock_starts_the_move_afresh() -> None:
    policy = _policy()
    now = _miss(policy, _miss(policy, 0.0))
    policy.deadline(0, now)  # a move being timed when the server stops
    saved = json.loads(json.dumps(policy.to_json()))
    assert saved == {"clocks": {"0": {"misses": 2, "fast": False}}}
    again = _policy()
    again.load_json(saved)
    assert (again.clocks[0].misses, again.clocks[0].running) == (2, False)
    assert again.deadline(0, 1000.0) == 1000.0 + SECONDS_PER_MOVE
    again.load_json({"clocks": {"2": {"misses": 5}, "0": "garbage"}})  # no clock at seat 2
    assert set(again.clocks) == {0} and again.clocks[0].misses == 2
    again.load_json({})
    assert again.clocks[0].misses == 2


def test_a_copy_keeps_the_clocks_as_they_were() -> None:
    policy = _policy()
    _miss(policy, 0.0)
    twin = policy.copy()
    _miss(policy, 100.0)
    policy.forget(0)
    assert twin.clocks[0].misses == 1 and policy.clocks == {}


async def test_the_coin_kind_has_the_clock_and_the_finish_hook_and_no_hints() -> None:
    async def settle(table: FinishedTable) -> None:
        """What would pay out the stake."""

    kind = coin_kind(ClockPolicy(seconds_per_move=45), settle)
    assert (kind.name, kind.hints, kind.no_hints) == (COIN, False, NO_HINTS)
    config, _ = coin_table("c9", "ann", 10)
    policy = kind.policy(config)
    assert isinstance(policy, CoinTurnPolicy) and policy.deadline(0, 0.0) == 45.0
    assert list(kind.finish) == [settle]
