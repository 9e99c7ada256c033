"""Sign-in rate limiting: a few failures per username and per address, then a pause.

Failures are counted in a sliding window with an injected ``now``; a success clears the
username's count. Kept in memory (one process): enough against guessing from one place.
"""

from __future__ import annotations

import math
from collections import deque

from .errors import RateLimitedError


class SignInLimiter:
    """Counts failed sign-ins by key (``user:NAME``, ``ip:ADDRESS``) within a window."""

    def __init__(self, max_failures: int = 5, window: float = 300.0,
                 max_per_address: int = 20) -> None:
        """At most ``max_failures`` per username and ``max_per_address`` per address
        within ``window`` seconds."""
        self.max_failures = max_failures
        """Failures allowed per username in the window."""
        self.max_per_address = max_per_address
        """Failures allowed per address in the window."""
        self.window = window
        """The window, in seconds."""
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.get(key)
        if times is None:
            return deque()
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[key]
        return times

    def check(self, username: str, address: str, now: float) -> None:
        """Raise :class:`RateLimitedError` if this username or address must wait."""
        for key, limit in ((f"user:{username}", self.max_failures),
                           (f"ip:{address}", self.max_per_address)):
            times = self._recent(key, now)
            if len(times) >= limit:
                wait = max(1, math.ceil(times[0] + self.window - now))
                raise RateLimitedError(
                    f"too many failed sign-ins: try again in {wait} seconds", wait
                )

    def failed(self, username: str, address: str, now: float) -> None:
        """Count one failed sign-in."""
        for key in (f"user:{username}", f"ip:{address}"):
            self._failures.setdefault(key, deque()).append(now)

    def succeeded(self, username: str) -> None:
        """A successful sign-in clears the username's failures."""
        self._failures.pop(f"user:{username}", None)
