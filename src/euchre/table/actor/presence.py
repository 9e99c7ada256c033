"""Who is at a table: people connected, away (their grace running), or replaced by a
computer, and how many spectators watch.

A person whose last connection closes is *away*: their grace runs on the table's
:class:`~euchre.table.actor.pacing.Scheduler`, and when it runs out a computer takes their
seat (an :class:`~euchre.table.actor.commands.AwayDue` is posted to the table's queue). A
person who comes back in time ends their away spell. What is saved
(:meth:`Presence.to_json`) keeps who was replaced, who has been seen, and each grace's time
left, so a restart never shortens a grace. The spectator count is published at once on a
change, but at most once a :data:`SPECTATOR_COUNT_EVERY` (:class:`SpectatorCount`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from functools import partial
from typing import Any

from .commands import AwayDue, CountSpectators, Post
from .pacing import Scheduler, TimerHandle
from .seats import Seat

SPECTATOR_COUNT_EVERY = 1.0
"""Seconds between two spectator-count events of one table: the first change is published
at once, later ones at most this often (spectators coming and going in a flood would
otherwise send every subscriber an event each)."""

LEFT = "left"
"""Why a computer took a seat: its person left the game (the Leave button)."""
AWAY_TOO_LONG = "away"
"""Why a computer took a seat: its person's connection was gone past the grace."""

Connected = tuple[bool, bool, bool, bool]
"""Whether each seat counts as connected (a computer's always does)."""


def connected(seats: Sequence[Seat], present: Collection[int | None],
              replaced: Collection[int]) -> Connected:
    """Each seat's connection: a computer's seat, a seat with a connection in ``present``,
    or a seat a computer took over (``replaced``)."""
    c = [s.is_bot() or i in present or i in replaced for i, s in enumerate(seats)]
    return (c[0], c[1], c[2], c[3])


class Presence:
    """The people at a table who have been seen, who are away and until when, and whose
    seat a computer took over."""

    def __init__(
        self,
        scheduler: Scheduler,
        post: Post,
        *,
        replaced: dict[int, str] | None = None,
        seen: Collection[int] = (),
        away_left: dict[int, float] | None = None,
    ) -> None:
        """Presence on ``scheduler``'s time; ``AwayDue(seat, generation)`` is posted with
        ``post`` (to the table's queue) when an away seat's grace runs out (:meth:`is_due`
        says whether it still counts). A table
        resumed from storage passes what was saved: who was ``replaced`` and why, who was
        ``seen``, and each away person's grace left (``away_left``, seconds)."""
        self.scheduler = scheduler
        """Where time comes from."""
        self.post = post
        """Queues an input at the table (an away seat's grace ran out)."""
        self.replaced: dict[int, str] = dict(replaced or {})
        """Seats a computer plays since their person left, and why (``left``, ``away``)."""
        self.seen: set[int] = {s for s in seen if s not in self.replaced}
        """Seats whose person has connected (a person never seen is not away)."""
        self.away: dict[int, float] = {}
        """Each away seat, and when its grace runs out (scheduler time)."""
        self._timers: dict[int, TimerHandle] = {}
        self._generation = 0
        self._generation_of: dict[int, int] = {}
        self._restore = dict(away_left or {})  # seat -> seconds left, until resumed

    def go_away(self, seat: int, seconds: float) -> bool:
        """``seat``'s person is gone: their grace of ``seconds`` starts now. False (nothing
        changes) if the seat is already away."""
        if seat in self.away:
            return False
        self.arm(seat, self.scheduler.now() + seconds)
        return True

    def arm(self, seat: int, until: float) -> None:
        """``seat`` is away until ``until`` (scheduler time), when its ``AwayDue`` is
        posted."""
        self._generation += 1
        generation = self._generation
        self._generation_of[seat] = generation
        self.away[seat] = until
        old = self._timers.pop(seat, None)
        if old is not None:
            old.cancel()
        self._timers[seat] = self.scheduler.call_later(
            max(0.0, until - self.scheduler.now()), lambda: self.post(AwayDue(seat, generation)))

    def is_due(self, seat: int, generation: int) -> bool:
        """Whether ``AwayDue(seat, generation)`` is for the away spell ``seat`` is in now
        (not one that ended, nor one that was started again since)."""
        return self._generation_of.get(seat) == generation and seat in self.away

    def back(self, seat: int) -> None:
        """``seat`` is no longer away (back, replaced, or the game ended)."""
        self.away.pop(seat, None)
        self._generation_of.pop(seat, None)
        timer = self._timers.pop(seat, None)
        if timer is not None:
            timer.cancel()

    def seconds_left(self, seat: int) -> float | None:
        """Seconds left of an away person's grace, or None if they are not away."""
        until = self.away.get(seat)
        return None if until is None else max(0.0, until - self.scheduler.now())

    def resumed(self, grace: float | None, present: Connected) -> list[tuple[int, float]]:
        """At the start: each person seen before but not connected now (``present``), with
        the grace they had left when saved (a restart's downtime counts against nobody),
        else all of ``grace`` (their connection was cut by the restart); none if ``grace``
        is None (nobody is away at this table now). Asked once: what was saved is used up."""
        restore, self._restore = self._restore, {}
        out: list[tuple[int, float]] = []
        if grace is None:
            return out
        for seat in sorted(self.seen):
            if not present[seat] and seat not in self.away:
                left = restore.get(seat)
                out.append((seat, min(grace, left) if left is not None else grace))
        return out

    def replace(self, seat: int, reason: str) -> Callable[[float], None]:
        """A computer takes ``seat`` (its person left, for ``reason``): it is no longer
        seen nor away. Returns the undo, for when that cannot be stored: the person holds
        the seat again, with their grace (run out no sooner than the time it is given)."""
        away_until = self.away.get(seat)
        seen = seat in self.seen
        self.replaced[seat] = reason
        self.seen.discard(seat)
        self.back(seat)

        def undo(retry_at: float) -> None:
            self.replaced.pop(seat, None)
            if seen:
                self.seen.add(seat)
            if away_until is not None:
                self.arm(seat, max(away_until, retry_at))

        return undo

    def to_json(self) -> dict[str, Any]:
        """Who left, who has been seen, and each away person's grace left (seconds), to
        save with the table: a restart keeps them (and never shortens a grace)."""
        out: dict[str, Any] = {}
        if self.replaced:
            out["replaced"] = {str(s): why for s, why in sorted(self.replaced.items())}
        if self.seen:
            out["seen"] = sorted(self.seen)
        if self.away:
            now = self.scheduler.now()
            out["away"] = {str(s): round(max(0.0, t - now), 3)
                           for s, t in sorted(self.away.items())}
        return out

    def cancel(self) -> None:
        """Stop every grace's timer (the table stops; the graces are kept, to be saved)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()


class SpectatorCount:
    """When a table publishes its spectator count: at once after a quiet spell, else held
    back until :data:`SPECTATOR_COUNT_EVERY` has passed since the last one."""

    def __init__(self, scheduler: Scheduler, post: Post,
                 every: float = SPECTATOR_COUNT_EVERY) -> None:
        """A count on ``scheduler``'s time; ``CountSpectators()`` is posted with ``post``
        (to the table's queue) when a held-back count is due."""
        self.scheduler = scheduler
        """Where time comes from."""
        self.post = post
        """Queues an input at the table (a held-back count is due)."""
        self.every = every
        """The least time between two counts (seconds)."""
        self._timer: TimerHandle | None = None
        self._at = -math.inf

    def changed(self) -> bool:
        """A spectator came or went: True if the count is to be published now; else it is
        held back (``CountSpectators`` will be posted), or already is."""
        if self._timer is not None:
            return False
        wait = self._at + self.every - self.scheduler.now()
        if wait <= 0:
            return True
        self._timer = self.scheduler.call_later(wait, partial(self.post, CountSpectators()))
        return False

    def due(self) -> None:
        """The held-back count's time has come (it is being published)."""
        self._timer = None

    def published(self) -> None:
        """The count was looked at now (published if it differed)."""
        self._at = self.scheduler.now()

    def cancel(self) -> None:
        """Stop waiting to publish a held-back count (the table stops)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
