"""Rate limits: sign-in failures per username and per address, sign-ups per address.

Each counts events in a sliding window with an injected ``now``. Kept in memory (one
process): enough against guessing, or farming new accounts' coins, from one place.

- Sign-in: a few failures per username and per address, then a pause; a success clears the
  username's count.
- Sign-up: a few new accounts per address (each new account gets the welcome coins).
"""

from __future__ import annotations

import math
from collections import deque

from .errors import RateLimitedError


def _recent(counts: dict[str, deque[float]], key: str, now: float, window: float
            ) -> deque[float]:
    """The times counted for ``key`` within ``window`` seconds before ``now`` (older ones
    are dropped, and a key left with none is forgotten)."""
    times = counts.get(key)
    if times is None:
        return deque()
    while times and times[0] <= now - window:
        times.popleft()
    if not times:
        del counts[key]
    return times


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
        return _recent(self._failures, key, now, self.window)

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


class SignUpLimiter:
    """Counts accounts created from each address within a window."""

    def __init__(self, max_per_address: int = 5, window: float = 3600.0) -> None:
        """At most ``max_per_address`` new accounts per address within ``window`` seconds."""
        self.max_per_address = max_per_address
        """New accounts allowed per address in the window."""
        self.window = window
        """The window, in seconds."""
        self._created: dict[str, deque[float]] = {}

    def reserve(self, address: str, now: float) -> None:
        """Count one sign-up from ``address`` now, or raise :class:`RateLimitedError` (and
        count nothing) if the address has had its share. Checking and counting happen
        together, so sign-ups sent at once cannot all slip through; :meth:`release` gives
        the place back when the account was not created after all."""
        times = _recent(self._created, address, now, self.window)
        if len(times) >= self.max_per_address:
            wait = max(1, math.ceil(times[0] + self.window - now))
            raise RateLimitedError(
                f"too many new accounts from your address: try again in {wait} seconds", wait
            )
        self._created.setdefault(address, deque()).append(now)

    def release(self, address: str, now: float) -> None:
        """Uncount the sign-up :meth:`reserve` counted at ``now`` (it was refused)."""
        times = self._created.get(address)
        if times is None:
            return
        try:
            times.remove(now)
        except ValueError:
            return
        if not times:
            del self._created[address]
