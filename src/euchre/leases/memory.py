"""Leases in this process's memory (the one-process default, and tests): atomic because the
event loop runs one call at a time and nothing in them awaits."""

from __future__ import annotations

import time
from collections.abc import Callable

from .base import Lease, Leases, LeaseState, check_request


class MemoryLeases(Leases):
    """Leases in dicts; ``now`` is injected (tests pass a fake clock)."""

    def __init__(self, now: Callable[[], float] = time.monotonic) -> None:
        """No lease held, no fence issued."""
        self.now = now
        """The clock, seconds."""
        self._held: dict[str, tuple[Lease, float]] = {}
        self._fences: dict[str, int] = {}

    def _current(self, name: str) -> tuple[Lease, float] | None:
        item = self._held.get(name)
        if item is not None and item[1] <= self.now():
            del self._held[name]
            return None
        return item

    async def acquire(self, name: str, owner: str, ttl: float, *,
                      at_least: int = 0) -> Lease | None:
        """Take the lease if free, with the next fencing number."""
        check_request(name, owner, ttl)
        if self._current(name) is not None:
            return None
        fence = max(self._fences.get(name, 0), at_least) + 1
        self._fences[name] = fence
        lease = Lease(name, owner, fence)
        self._held[name] = (lease, self.now() + ttl)
        return lease

    async def renew(self, lease: Lease, ttl: float) -> bool:
        """Extend the lease if this acquisition still holds it."""
        check_request(lease.name, lease.owner, ttl)
        item = self._current(lease.name)
        if item is None or item[0] != lease:
            return False
        self._held[lease.name] = (lease, self.now() + ttl)
        return True

    async def release(self, lease: Lease) -> bool:
        """Give the lease up if this acquisition still holds it."""
        item = self._current(lease.name)
        if item is None or item[0] != lease:
            return False
        del self._held[lease.name]
        return True

    async def holder(self, name: str) -> LeaseState | None:
        """The holder now, or None."""
        item = self._current(name)
        if item is None:
            return None
        lease, expires = item
        return LeaseState(lease.owner, lease.fence, expires - self.now())
