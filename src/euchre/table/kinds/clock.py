"""The move clock: how long a person has for each move, as a pure value with an injected ``now``.

Rule 9 of the house rules (coin tables against the computer):

- every move of the person gets up to :attr:`ClockPolicy.seconds_per_move` (90 s);
- when it runs out the table plays that move for the person (the table does that, not
  this value) and the clock counts a *miss*;
- each of the first missed moves keeps the full clock; the third miss in a row makes the
  rest of that hand run at computer speed (:attr:`ClockPolicy.computer_speed`, 2/3 s);
- one move made by the person puts the full clock back and clears the count.

Open edges, decided here (and written in docs/coins.md and the rules page):

- computer speed ends with the hand: the next hand starts with the full clock;
- the count of misses in a row carries into the next hand, so a person still away after
  three misses gets one full clock in the new hand, and the next miss brings computer
  speed back at once;
- a move that reaches the table before the table has played for the person counts as the
  person's own, even if it arrives a moment after the deadline.

Times are seconds on whatever monotonic clock the table injects; nothing here reads a clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

SECONDS_PER_MOVE = 90.0
"""The full clock at a coin table against the computer (rule 9)."""

COMPUTER_SPEED = 2 / 3
"""Seconds a move takes at computer speed (about two thirds of a second a turn)."""

MISSES_FOR_COMPUTER_SPEED = 3
"""Missed moves in a row after which the rest of the hand runs at computer speed."""


@dataclass(frozen=True, slots=True)
class ClockPolicy:
    """The parameters of a move clock; an online table can run the same clock with its own."""

    seconds_per_move: float = SECONDS_PER_MOVE
    """The full clock for one move, in seconds."""
    computer_speed: float = COMPUTER_SPEED
    """Seconds allowed for a move once the hand runs at computer speed."""
    misses_for_computer_speed: int = MISSES_FOR_COMPUTER_SPEED
    """Missed moves in a row that switch the rest of the hand to computer speed."""
    pace: float = 1.0
    """Real seconds each second of this clock takes: 1 in play. A test's site runs the clock
    faster (0.1: a 5 s move runs out in half a second) while its tables still tell the
    seconds chosen (``seconds_per_move``)."""

    def __post_init__(self) -> None:
        if not (self.seconds_per_move > 0 and math.isfinite(self.seconds_per_move)):
            raise ValueError("seconds_per_move must be a positive number of seconds")
        if not (self.computer_speed > 0 and math.isfinite(self.computer_speed)):
            raise ValueError("computer_speed must be a positive number of seconds")
        if self.misses_for_computer_speed < 1:
            raise ValueError("misses_for_computer_speed must be at least 1")
        if not (self.pace > 0 and math.isfinite(self.pace)):
            raise ValueError("pace must be a positive number")


@dataclass(frozen=True, slots=True)
class MoveClock:
    """The clock of one person at one table; immutable, every method returns a new value."""

    policy: ClockPolicy = field(default_factory=ClockPolicy)
    """The clock's parameters."""
    misses: int = 0
    """Moves in a row the table has played for the person because the clock ran out."""
    fast: bool = False
    """Whether the rest of this hand runs at computer speed."""
    deadline: float | None = None
    """When the move being timed runs out (the injected clock's seconds), or None."""
    allowed: float = 0.0
    """Seconds allowed for the move being timed, at the policy's pace (0 when none is)."""

    @property
    def running(self) -> bool:
        """Whether a move is being timed."""
        return self.deadline is not None

    @property
    def move_seconds(self) -> float:
        """Seconds the next move gets: the full clock, or computer speed."""
        return self.policy.computer_speed if self.fast else self.policy.seconds_per_move

    def start(self, now: float) -> MoveClock:
        """Start timing the person's move at ``now`` (a clock already running is kept)."""
        if self.deadline is not None:
            return self
        allowed = self.move_seconds * self.policy.pace
        return replace(self, deadline=now + allowed, allowed=allowed)

    def restart(self, now: float) -> MoveClock:
        """Time the move afresh from ``now`` (after a server restart: the full move again)."""
        return replace(self, deadline=None, allowed=0.0).start(now)

    def stop(self) -> MoveClock:
        """Stop timing without a move or a miss (the game ended, the person left)."""
        return replace(self, deadline=None, allowed=0.0)

    def time_left(self, now: float) -> float:
        """Seconds left for the move being timed (never negative; 0 when none is)."""
        if self.deadline is None:
            return 0.0
        return max(0.0, self.deadline - now)

    def is_expired(self, now: float) -> bool:
        """Whether the move being timed has run out at ``now``."""
        return self.deadline is not None and now >= self.deadline

    def moved(self) -> MoveClock:
        """The person made the move: the full clock is back and the misses are cleared."""
        return replace(self, misses=0, fast=False, deadline=None, allowed=0.0)

    def missed(self) -> MoveClock:
        """The clock ran out and the table played the move: one more miss in a row."""
        misses = self.misses + 1
        fast = self.fast or misses >= self.policy.misses_for_computer_speed
        return replace(self, misses=misses, fast=fast, deadline=None, allowed=0.0)

    def new_hand(self) -> MoveClock:
        """A new hand begins: computer speed ends; the count of misses carries on."""
        return replace(self, fast=False)

    def to_json(self, seat: int, now: float) -> dict[str, Any]:
        """The ``clock`` object of a table snapshot, for the header's countdown."""
        left = self.time_left(now)
        return {
            "seat": seat,
            "running": self.running,
            "deadline_ms_left": math.ceil(left * 1000) if self.running else None,
            "move_ms": round(self.allowed * 1000) if self.running else None,
            "seconds_per_move": self.policy.seconds_per_move,
            "misses": self.misses,
            "computer_speed": self.fast,
        }

    def state(self) -> dict[str, Any]:
        """What to store to resume after a restart (the streak, not the deadline)."""
        return {"misses": self.misses, "fast": self.fast}

    @classmethod
    def from_state(cls, policy: ClockPolicy, data: dict[str, Any]) -> MoveClock:
        """A stopped clock from :meth:`state` output."""
        return cls(policy, misses=int(data.get("misses", 0)), fast=bool(data.get("fast", False)))
