"""Time for tables: how long bots and pauses take, and schedulers that call back later.

A table never reads the wall clock itself: it asks a :class:`Scheduler` for ``now()`` and
to ``call_later``. :class:`LoopScheduler` uses the asyncio loop; :class:`ManualScheduler`
is a fake whose time moves only when a test calls :meth:`ManualScheduler.advance`.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Pacing:
    """How fast a table moves on its own (seconds)."""

    bot_delay: float = 0.67
    """Pause before each computer move, so a person sees each move separately."""
    hand_pause: float = 2.0
    """Pause between the end of a hand and the next deal."""
    seed_wait: float = 0.0
    """Longest wait before the first deal for the people's shuffle seeds (the deal is at once
    when every person has sent one); later hands' seeds come during the hand before."""
    jitter: float = 0.15
    """A computer's move comes up to this fraction of its delay later, at random (the same
    for every move, so the timing never tells whether it had a choice: ``timing.py``)."""


class TimerHandle(Protocol):
    """Something a scheduled call can be cancelled with."""

    def cancel(self) -> None:
        """Stop the call from happening (no effect once it has run)."""
        ...


class Scheduler(Protocol):
    """A clock with a way to be called back later."""

    def now(self) -> float:
        """The current time in seconds (monotonic)."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """Call ``callback`` once, ``delay`` seconds from now."""
        ...


class LoopScheduler:
    """The real scheduler: the running asyncio loop's clock and timers."""

    def now(self) -> float:
        """The loop's monotonic time."""
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """Schedule on the running loop."""
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)


class _ManualTimer:
    __slots__ = ("callback", "cancelled", "when")

    def __init__(self, when: float, callback: Callable[[], None]) -> None:
        self.when = when
        self.callback = callback
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """A fake clock for tests: time stands still until :meth:`advance` moves it."""

    def __init__(self, start: float = 0.0) -> None:
        """A clock reading ``start`` with no timers."""
        self._now = start
        self._timers: list[tuple[float, int, _ManualTimer]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        """The fake time."""
        return self._now

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        """Remember the call; it runs when time is advanced past it."""
        timer = _ManualTimer(self._now + max(0.0, delay), callback)
        heapq.heappush(self._timers, (timer.when, next(self._seq), timer))
        return timer

    @property
    def pending(self) -> int:
        """How many calls are waiting (not cancelled)."""
        return sum(1 for _, _, t in self._timers if not t.cancelled)

    def next_due(self) -> float | None:
        """When the next waiting call is due, or None."""
        while self._timers and self._timers[0][2].cancelled:
            heapq.heappop(self._timers)
        return self._timers[0][0] if self._timers else None

    def advance(self, seconds: float) -> int:
        """Move time forward, running every call that falls due in order; returns how many."""
        target = self._now + seconds
        ran = 0
        while True:
            due = self.next_due()
            if due is None or due > target:
                break
            when, _, timer = heapq.heappop(self._timers)
            self._now = max(self._now, when)
            timer.callback()
            ran += 1
        self._now = target
        return ran
