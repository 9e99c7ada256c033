"""What makes kinds of table differ: the base turn policy sets no deadline and shows no
clock beyond the time left, copies of a policy with state are independent (the table goes
back to its copy when a save fails), and a practice table has hints and nothing else."""

from __future__ import annotations

from typing import Any

from euchre.table.actor.kind import (
    PRACTICE,
    PRACTICE_KIND,
    TableKind,
    TurnPolicy,
    no_policy,
)
from euchre.table.actor.wire import Clock


class CountingPolicy(TurnPolicy):
    """A policy with state: a deadline 10 s after each turn starts, misses counted."""

    def __init__(self) -> None:
        self.misses: dict[int, int] = {}

    def deadline(self, seat: int, now: float) -> float | None:
        return now + 10.0

    def moved(self, seat: int, now: float, *, timed_out: bool) -> None:
        if timed_out:
            self.misses[seat] = self.misses.get(seat, 0) + 1

    def to_json(self) -> dict[str, Any]:
        return {"misses": {str(s): n for s, n in self.misses.items()}}

    def load_json(self, data: dict[str, Any]) -> None:
        self.misses = {int(s): n for s, n in data["misses"].items()}


def test_the_base_policy_sets_no_deadline_and_keeps_no_state() -> None:
    policy = no_policy({"anything": 1})
    assert type(policy) is TurnPolicy
    assert all(policy.deadline(seat, 100.0) is None for seat in range(4))
    assert policy.on_timeout(0, 100.0) == "expert"
    policy.moved(0, 100.0, timed_out=True)
    policy.hand_over(100.0)
    policy.forget(0)
    assert policy.to_json() == {}
    assert policy.copy() is policy  # nothing to copy


def test_the_clock_shows_the_seat_and_the_milliseconds_left_never_below_zero() -> None:
    policy = TurnPolicy()
    assert policy.clock_json(None, 50.0, 10.0) is None
    assert policy.clock_json(2, None, 10.0) is None
    assert policy.clock_json(2, 12.5, 10.0) == Clock(seat=2, deadline_ms_left=2500)
    assert policy.clock_json(1, 10.0004, 10.0) == Clock(seat=1, deadline_ms_left=0)
    assert policy.clock_json(3, 9.0, 10.0) == Clock(seat=3, deadline_ms_left=0)


def test_a_copy_of_a_policy_with_state_is_left_alone_by_later_changes() -> None:
    policy = CountingPolicy()
    policy.moved(0, 1.0, timed_out=True)
    twin = policy.copy()
    assert twin is not policy and isinstance(twin, CountingPolicy)
    policy.moved(0, 2.0, timed_out=True)
    policy.moved(2, 2.0, timed_out=True)
    assert twin.misses == {0: 1} and policy.misses == {0: 2, 2: 1}
    back = CountingPolicy()
    back.load_json(policy.to_json())
    assert back.misses == policy.misses


def test_a_practice_table_has_hints_and_no_clock_no_hook_no_spectators() -> None:
    assert PRACTICE_KIND.name == PRACTICE == "practice"
    assert PRACTICE_KIND.hints and not PRACTICE_KIND.spectators
    assert PRACTICE_KIND.finish == () and PRACTICE_KIND.on_replaced == ()
    assert PRACTICE_KIND.away_grace is None
    assert PRACTICE_KIND.policy(None).deadline(0, 0.0) is None


def test_a_new_kind_has_no_hints_unless_it_says_so() -> None:
    kind = TableKind("club")
    assert not kind.hints and "practice" in kind.no_hints
    assert kind.replacement_level == "expert"
    assert type(kind.policy(None)) is TurnPolicy
