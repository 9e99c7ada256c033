"""Limits kept in this process's memory: exact, and atomic because the event loop runs one
``hit`` at a time (nothing in it awaits)."""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable

from .base import Decision, Limits

SWEEP_EVERY = 1024
"""Hits between sweeps that forget keys whose attempts have all left their window."""


class MemoryLimits(Limits):
    """A sliding log per key in a dict; ``now`` is injected (tests pass a fake clock)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        """No attempts counted yet."""
        self.now = now
        """The clock, seconds."""
        self._log: dict[str, deque[tuple[float, str]]] = {}
        self._windows: dict[str, float] = {}
        self._tickets = itertools.count(1)
        self._hits = 0

    def _recent(self, key: str, window: float, now: float) -> deque[tuple[float, str]]:
        times = self._log.get(key)
        if times is None:
            return deque()
        while times and times[0][0] <= now - window:
            times.popleft()
        return times

    async def hit(self, key: str, limit: int, window: float) -> Decision:
        """Count one attempt unless ``limit`` were counted in the last ``window`` seconds."""
        now = self.now()
        self._hits += 1
        if self._hits % SWEEP_EVERY == 0:
            self._sweep(now)
        times = self._recent(key, window, now)
        if len(times) >= limit:
            wait = times[0][0] + window - now if times else window
            return Decision(False, max(wait, 0.0), 0)
        ticket = str(next(self._tickets))
        if not times:
            times = self._log[key] = deque()
        times.append((now, ticket))
        self._windows[key] = max(window, self._windows.get(key, 0.0))
        return Decision(True, 0.0, limit - len(times), ticket)

    async def give_back(self, key: str, ticket: str) -> None:
        """Uncount the attempt counted with ``ticket``."""
        times = self._log.get(key)
        if times is None:
            return
        for entry in times:
            if entry[1] == ticket:
                times.remove(entry)
                break

    async def count(self, key: str, window: float) -> int:
        """The attempts counted at ``key`` in the last ``window`` seconds."""
        return len(self._recent(key, window, self.now()))

    def _sweep(self, now: float) -> None:
        """Forget keys with nothing left in their longest window (bounds the memory an
        attacker using many keys can make us hold)."""
        for key in [k for k, times in self._log.items()
                    if not times or times[-1][0] <= now - self._windows.get(k, 0.0)]:
            del self._log[key]
            self._windows.pop(key, None)

    def __len__(self) -> int:
        """Keys held (for tests of the sweep)."""
        return len(self._log)
