"""Keep a lease: renew it well before it runs out, and say at once when it is lost.

The keeper counts a lease's life from when each renewal was *sent* (Redis starts the new
time to live later than that, never earlier), on this process's monotonic clock, so it
never believes in a lease Redis has already let go; a margin covers clocks that run at
slightly different rates. The lease is lost when a renewal is refused (another owner took
it, or it ran out) or when renewals keep failing (Redis unreachable) until the lease's
time is up: either way ``on_lost`` is called once and renewing stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from .base import Lease, Leases

log = logging.getLogger(__name__)

MARGIN = 0.1
"""The share of the time to live given up for clock rate differences and delays."""

RENEWALS_PER_TTL = 3
"""Renewals tried per time to live (so two may fail before the lease is in danger)."""

LostHook = Callable[[Lease, str], None]
"""Told the lease and why, once, when the lease is lost."""


class LeaseKeeper:
    """One held lease and the task that renews it."""

    def __init__(self, leases: Leases, lease: Lease, ttl: float, sent_at: float,
                 on_lost: LostHook | None = None, *,
                 now: Callable[[], float] = time.monotonic) -> None:
        """Keep ``lease`` (acquired for ``ttl`` seconds by a request sent at ``sent_at`` on
        the ``now`` clock); :meth:`start` begins renewing."""
        self.leases = leases
        """Where the lease lives."""
        self.lease = lease
        """The lease kept."""
        self.ttl = ttl
        """Seconds each renewal asks for."""
        self.on_lost = on_lost
        """Called once when the lease is lost."""
        self.now = now
        """The clock (monotonic seconds)."""
        self.valid_until = sent_at + ttl
        """When the lease runs out at the latest, by this process's clock."""
        self.lost: str | None = None
        """Why the lease was lost, or None while it is held."""
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def acquire(cls, leases: Leases, name: str, owner: str, ttl: float,
                      on_lost: LostHook | None = None, *, at_least: int = 0,
                      now: Callable[[], float] = time.monotonic) -> LeaseKeeper | None:
        """Acquire ``name`` and return its (not yet started) keeper, or None if held."""
        sent = now()
        lease = await leases.acquire(name, owner, ttl, at_least=at_least)
        if lease is None:
            return None
        return cls(leases, lease, ttl, sent, on_lost, now=now)

    @property
    def fence(self) -> int:
        """The lease's fencing number."""
        return self.lease.fence

    def is_held(self) -> bool:
        """Whether the lease is surely still ours (not lost, and not near running out)."""
        return self.lost is None and self.now() < self.valid_until - MARGIN * self.ttl

    def start(self) -> None:
        """Start renewing in the background."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        every = self.ttl / RENEWALS_PER_TTL
        while self.lost is None:
            left = self.valid_until - MARGIN * self.ttl - self.now()
            await asyncio.sleep(max(0.0, min(every, left)))
            await self.renew_once()

    async def renew_once(self) -> bool:
        """Try one renewal now; whether the lease is still held after it."""
        if self.lost is not None:
            return False
        sent = self.now()
        left = self.valid_until - MARGIN * self.ttl - sent
        answer: bool | None = None
        if left > 0:
            try:
                answer = await asyncio.wait_for(self.leases.renew(self.lease, self.ttl), left)
            except Exception as e:  # Redis down or slow: retry until the lease runs out
                log.warning("lease %s: renewal failed: %s", self.lease.name, e)
        if answer:
            self.valid_until = sent + self.ttl
            return True
        if answer is False:
            self._lose("the lease ran out or another owner holds it")
        elif not self.is_held():
            self._lose("the lease could not be renewed before it ran out")
        return self.lost is None

    def _lose(self, why: str) -> None:
        if self.lost is not None:
            return
        self.lost = why
        log.warning("lease %s (fence %d) lost: %s", self.lease.name, self.lease.fence, why)
        if self.on_lost is not None:
            try:
                self.on_lost(self.lease, why)
            except Exception:
                log.exception("lease %s: the lost hook failed", self.lease.name)

    async def stop(self, release: bool = True) -> None:
        """Stop renewing and (unless lost, or ``release`` is False) give the lease up."""
        task, self._task = self._task, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if release and self.lost is None:
            self.lost = "released"
            try:
                await self.leases.release(self.lease)
            except Exception as e:  # it runs out by itself
                log.warning("lease %s: release failed: %s", self.lease.name, e)
