"""Keep a lease: renew it well before it runs out, and say at once when it is lost.

The keeper counts a lease's life from when each renewal was *sent* (Redis starts the new
time to live later than that, never earlier), on this process's monotonic clock, so it
never believes in a lease Redis has already let go; a margin covers clocks that run at
slightly different rates. The lease is lost when a renewal is refused (another owner took
it, or it ran out) or when renewals keep failing (Redis unreachable) until the lease's
time is up: either way ``on_lost`` is called once and renewing stops.

A keeper renews its lease by itself, or, given a :class:`LeaseRenewer`, together with the
other keepers of that renewer: one request a tick renews every lease a process holds
(:meth:`Leases.renew_many`), each lease judged exactly as if it were renewed alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from .base import Lease, Leases

log = logging.getLogger(__name__)

MARGIN = 0.1
"""The share of the time to live given up for clock rate differences and delays."""

RENEWALS_PER_TTL = 3
"""Renewals tried per time to live (so two may fail before the lease is in danger)."""

LostHook = Callable[[Lease, str], None]
"""Told the lease and why, once, when the lease is lost."""

Sleep = Callable[[float], Awaitable[None]]
"""Waits the given seconds of the ``now`` clock (``asyncio.sleep`` on the monotonic one;
tests give a fake clock's, which returns when the test moves the clock past its end)."""


@dataclass(frozen=True)
class LeaseClock:
    """The clock leases are kept on: ``now`` and a ``sleep`` of its seconds (default: the
    monotonic clock; a test gives a fake one it moves, so no lease runs out on the wall)."""

    now: Callable[[], float] = time.monotonic
    """Monotonic seconds."""
    sleep: Sleep = asyncio.sleep
    """Waits seconds of ``now``."""


MONOTONIC = LeaseClock()
"""The real clock: the process's monotonic seconds and ``asyncio.sleep``."""


class LeaseKeeper:
    """One held lease and the task that renews it."""

    def __init__(self, leases: Leases, lease: Lease, ttl: float, sent_at: float,
                 on_lost: LostHook | None = None, *,
                 now: Callable[[], float] = time.monotonic, sleep: Sleep = asyncio.sleep,
                 renewer: LeaseRenewer | None = None) -> None:
        """Keep ``lease`` (acquired for ``ttl`` seconds by a request sent at ``sent_at`` on
        the ``now`` clock, whose seconds ``sleep`` waits); :meth:`start` begins renewing
        (by itself, or with the other leases of ``renewer``)."""
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
        self.sleep = sleep
        """Waits seconds of ``now`` between renewals."""
        self.valid_until = sent_at + ttl
        """When the lease runs out at the latest, by this process's clock."""
        self.lost: str | None = None
        """Why the lease was lost, or None while it is held."""
        self.renewer = renewer
        """Renews this lease with others (None: the keeper renews it by itself)."""
        self.tried_at = sent_at
        """When the last request for the lease (its acquisition or a renewal) was sent."""
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    @classmethod
    async def acquire(cls, leases: Leases, name: str, owner: str, ttl: float,
                      on_lost: LostHook | None = None, *, at_least: int = 0,
                      now: Callable[[], float] = time.monotonic,
                      sleep: Sleep = asyncio.sleep,
                      renewer: LeaseRenewer | None = None) -> LeaseKeeper | None:
        """Acquire ``name`` and return its (not yet started) keeper, or None if held."""
        sent = now()
        lease = await leases.acquire(name, owner, ttl, at_least=at_least)
        if lease is None:
            return None
        return cls(leases, lease, ttl, sent, on_lost, now=now, sleep=sleep, renewer=renewer)

    @property
    def fence(self) -> int:
        """The lease's fencing number."""
        return self.lease.fence

    def is_held(self) -> bool:
        """Whether the lease is surely still ours (not lost, and not near running out)."""
        return self.lost is None and self.now() < self.valid_until - MARGIN * self.ttl

    def left(self, at: float) -> float:
        """Seconds from ``at`` until this process stops believing in the lease."""
        return self.valid_until - MARGIN * self.ttl - at

    def due_in(self, at: float) -> float:
        """Seconds from ``at`` until the next renewal should be sent (<= 0: now)."""
        return min(self.tried_at + self.ttl / RENEWALS_PER_TTL - at, self.left(at))

    def start(self) -> None:
        """Start renewing in the background (or hand the lease to the renewer)."""
        if self.renewer is not None:
            self.renewer.add(self)
        elif self._task is None:
            self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        # Python 3.11's wait_for returns a renewal's answer that came with a cancel and
        # drops the cancel: the flag ends the loop whatever the cancel did.
        while self.lost is None and not self._stopped:
            await self.sleep(max(0.0, self.due_in(self.now())))
            await self.renew_once()

    async def renew_once(self) -> bool:
        """Try one renewal now; whether the lease is still held after it."""
        if self.lost is not None:
            return False
        sent = self.now()
        left = self.left(sent)
        answer: bool | None = None
        if left > 0:
            try:
                answer = await asyncio.wait_for(self.leases.renew(self.lease, self.ttl), left)
            except Exception as e:  # Redis down or slow: retry until the lease runs out
                log.warning("lease %s: renewal failed: %s", self.lease.name, e)
        return self.settle(sent, answer)

    def settle(self, sent: float, answer: bool | None) -> bool:
        """Take the answer to a renewal sent at ``sent``: True (renewed), False (refused:
        lost) or None (no answer: lost only if its time is up); whether it is still held."""
        self.tried_at = max(self.tried_at, sent)
        if answer and self.lost is None:
            self.valid_until = max(self.valid_until, sent + self.ttl)
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
        if self.renewer is not None:
            self.renewer.discard(self)
        self._stopped = True
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


class LeaseRenewer:
    """Renews the leases of many keepers together: when the first of them is due, every
    one in one request (a round trip per tick for all of a process's tables, not one per
    table); each is judged by :meth:`LeaseKeeper.settle` as if renewed alone."""

    def __init__(self, leases: Leases, *, now: Callable[[], float] = time.monotonic,
                 sleep: Sleep = asyncio.sleep, background: bool = True) -> None:
        """Renewals of leases in ``leases`` on the ``now`` clock, whose seconds ``sleep``
        waits; without ``background`` only :meth:`renew_once` renews (tests drive it with
        a fake clock)."""
        self.leases = leases
        """Where the leases live."""
        self.now = now
        """The clock (monotonic seconds)."""
        self.sleep = sleep
        """Waits seconds of ``now`` until the first lease is due."""
        self.background = background
        """Whether a task renews the leases when they are due."""
        self._keepers: dict[LeaseKeeper, None] = {}
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    def __len__(self) -> int:
        """Leases being renewed."""
        return len(self._keepers)

    def add(self, keeper: LeaseKeeper) -> None:
        """Renew ``keeper``'s lease from now on (in the background)."""
        if keeper.lost is not None:
            return
        self._keepers[keeper] = None
        self._changed.set()
        if self._task is None and self.background:
            self._task = asyncio.ensure_future(self._run())

    def discard(self, keeper: LeaseKeeper) -> None:
        """Renew ``keeper``'s lease no more."""
        self._keepers.pop(keeper, None)

    def due_in(self) -> float | None:
        """Seconds until the first lease is due for renewal (None: no lease)."""
        at = self.now()
        return min((k.due_in(at) for k in self._keepers), default=None)

    async def _run(self) -> None:
        while not self._closed:  # (as the keeper's: a cancel wait_for dropped ends it too)
            self._changed.clear()
            wait = self.due_in()
            if wait is None:
                await self._changed.wait()
                continue
            if wait > 0 and not await self._slept(wait):
                continue  # a lease added meanwhile may be due sooner: look again
            try:
                await self.renew_once()
            except Exception:  # never stop renewing the others
                log.exception("renewing leases failed")
                await asyncio.sleep(0.1)

    async def _slept(self, seconds: float) -> bool:
        """Sleep ``seconds``; whether all of them (False: a lease was added meanwhile)."""
        changed = asyncio.ensure_future(self._changed.wait())
        timer = asyncio.ensure_future(self.sleep(seconds))
        try:
            await asyncio.wait((changed, timer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            changed.cancel()
            timer.cancel()
        return not self._changed.is_set()

    async def renew_once(self) -> None:
        """Renew every lease now: one request per time to live among them (one in all
        when they share one); a lease whose time is up is lost without asking."""
        sent = self.now()
        groups: dict[float, list[LeaseKeeper]] = {}
        for keeper in list(self._keepers):
            if keeper.lost is not None:
                self.discard(keeper)
            elif keeper.left(sent) <= 0:  # paused past it: give it up without asking
                keeper.settle(sent, None)
                self.discard(keeper)
            else:
                groups.setdefault(keeper.ttl, []).append(keeper)
        for ttl, group in groups.items():
            answers: list[bool] | list[None] = [None] * len(group)
            try:
                answers = await asyncio.wait_for(
                    self.leases.renew_many([k.lease for k in group], ttl),
                    min(k.left(sent) for k in group))
            except Exception as e:  # Redis down or slow: retry until each lease runs out
                log.warning("renewing %d leases failed: %s", len(group), e)
            for keeper, answer in zip(group, answers, strict=True):
                if not keeper.settle(sent, answer):
                    self.discard(keeper)

    async def close(self) -> None:
        """Stop renewing (the keepers' leases run out unless released)."""
        self._closed = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._keepers.clear()
