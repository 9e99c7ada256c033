"""Time for tables: how long bots and pauses take, and schedulers that call back later.

A table never reads the wall clock itself: it asks a :class:`Scheduler` for ``now()`` and
to ``call_later``. :class:`LoopScheduler` uses the asyncio loop; :class:`ManualScheduler`
is a fake whose time moves only when a test calls :meth:`ManualScheduler.advance`.
"""

from __future__ import annotations

import asyncio
import dataclasses
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
    for every move, so the timing never tells whether it had a choice: ``computers.py``)."""
    trick_pause: float = 1.2
    """Least pause before a computer leads after a trick is completed, so people can read
    the finished trick and see it swept to its winner (the law-11 look at the last trick
    lasts until the next lead)."""
    clock_pace: float = 1.0
    """Real seconds each second of a person's move clock takes (1 in play; a test's site runs
    the clock faster while its tables still tell the seconds chosen: the clock's
    :attr:`~euchre.table.kinds.clock.ClockPolicy.pace`); a table's speed leaves it be."""

    def scaled(self, factor: float) -> Pacing:
        """This pacing with every pause multiplied by ``factor`` (a practice table's speed;
        the wait for the people's seeds is not a pause and stays)."""
        return dataclasses.replace(self, bot_delay=self.bot_delay * factor,
                                   hand_pause=self.hand_pause * factor,
                                   trick_pause=self.trick_pause * factor)

    def bot_wait(self, after_trick: bool) -> float:
        """How long a computer waits before its move (longer when it leads after a trick)."""
        return max(self.bot_delay, self.trick_pause) if after_trick else self.bot_delay


SPEEDS: dict[str, float] = {"slow": 1.6, "normal": 1.0, "fast": 0.35}
"""Practice-table speeds for computer players: the factor applied to the server's pacing."""

RESULT_HOLD: dict[str, float] = {"slow": 6.0, "normal": 4.0, "fast": 2.0}
"""How long a table with one person holds the result of a hand before the next deal, at each
speed (seconds), unless the person continues sooner (the page's *Continue*, a ``continue``
message). Never less than :data:`RESULT_HOLD_LEAST`; the web page holds its display as long."""

RESULT_HOLD_LEAST = 1.5
"""The shortest hold of a hand's result, at every speed."""


def result_hold(speed: str | None) -> float:
    """The hold of a hand's result at ``speed`` (None or unknown: normal)."""
    return max(RESULT_HOLD_LEAST, RESULT_HOLD.get(speed or "normal", RESULT_HOLD["normal"]))


LONGEST_SPEED = max(RESULT_HOLD, key=RESULT_HOLD.__getitem__)
"""The speed whose result hold is longest: a table with one person that does not know the
page's speed (a coin table: the speed is the page's own) holds for it, and the page's
``continue`` when its own hold ends deals sooner, so nothing is played behind its panel."""


def pacing_for_speed(base: Pacing, speed: str | None, *, hold: bool = False,
                     hold_speed: str | None = None, shared: bool = False) -> Pacing:
    """``base`` scaled for a practice table's ``speed`` (None or unknown: unchanged). With
    ``hold`` (a table with one person, who can continue at once) the pause after a hand is
    at least the result's hold at ``hold_speed`` (default: ``speed``); with ``shared`` (a
    table with other people, where one person's continue moves nobody on) it is at least
    :data:`RESULT_HOLD_LEAST`, so nobody's clock runs under their result. A zero pause
    (tests, benchmarks) stays zero."""
    factor = SPEEDS.get(speed or "normal", 1.0)
    paced = base if factor == 1.0 else base.scaled(factor)
    if base.hand_pause > 0 and (hold or shared):
        least = result_hold(hold_speed or speed) if hold else RESULT_HOLD_LEAST
        paced = dataclasses.replace(paced, hand_pause=max(paced.hand_pause, least))
    return paced


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
