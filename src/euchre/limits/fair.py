"""A fair queue: jobs run a few at a time, taken round robin across the people who asked.

Each person has at most one job waiting or running. A second ask for the same thing (the
same ``key``: another tab at the same seat) waits for that job and gets its answer; a
second ask for anything else is refused (:class:`QueueFull` with ``own``). When a place to
run frees up, the next job is that of the person served longest ago (never served: first),
arrivals in order among equals, so however many jobs flooding people keep asking for, a
person who asks now waits behind at most one job of each of them. The waiting line is
bounded; when it is full, a person served longer ago than someone waiting takes that one's
place (the one put out is refused), else the newcomer is refused.

Everything runs on one event loop and never awaits between a check and its change, so it is
exact without a lock.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

T = TypeVar("T")

REMEMBERED = 10_000
"""People whose last service is remembered (the oldest are forgotten: they count as never
served, which only moves them forward)."""


class QueueFull(Exception):
    """The job cannot be queued."""

    def __init__(self, own: bool) -> None:
        """Refused because the person has another job waiting or running (``own``), or
        because the line is full."""
        super().__init__("this person has a job queued" if own else "the queue is full")
        self.own = own
        """Whether the person's own other job is why."""


@dataclass(eq=False)
class _Job(Generic[T]):
    person: str
    key: Hashable
    work: Callable[[], Awaitable[T]]
    future: asyncio.Future[T]
    arrival: int
    on_leave: Callable[[], None] | None
    waiters: int = 0
    started: bool = False
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class FairQueue(Generic[T]):
    """At most ``concurrent`` jobs running and ``waiting`` waiting, one per person."""

    def __init__(self, concurrent: int, waiting: int) -> None:
        """An empty queue."""
        self.concurrent = concurrent
        """Jobs that run at once."""
        self.waiting = waiting
        """Jobs that may wait at once."""
        self.started: list[str] = []
        """The people whose jobs started, in order (the last few hundred, for tests and
        metrics)."""
        self._jobs: dict[str, _Job[T]] = {}
        self._line: list[_Job[T]] = []
        self._running = 0
        self._served: OrderedDict[str, int] = OrderedDict()
        self._services = itertools.count()
        self._arrivals = itertools.count()

    def holds(self, person: str) -> bool:
        """Whether ``person`` has a job waiting or running."""
        return person in self._jobs

    def running(self) -> int:
        """Jobs running now."""
        return self._running

    def queued(self) -> int:
        """Jobs waiting now."""
        return len(self._line)

    def _rank(self, person: str, arrival: int) -> tuple[int, int]:
        return (self._served.get(person, -1), arrival)

    async def run(self, person: str, key: Hashable, work: Callable[[], Awaitable[T]],
                  on_leave: Callable[[], None] | None = None) -> T:
        """Run ``work()`` for ``person`` in its turn and return its result (or raise what it
        raised); with the same ``key`` as the person's job already queued, wait for that
        one instead. ``on_leave`` is called once when the job leaves the queue (done,
        refused, or given up). Raises :class:`QueueFull`."""
        job = self._jobs.get(person)
        if job is not None:
            if job.key != key:
                raise QueueFull(own=True)
            return await self._wait(job)
        job = _Job(person, key, work, asyncio.get_running_loop().create_future(),
                   next(self._arrivals), on_leave)
        job.future.add_done_callback(_retrieve)
        if self._running < self.concurrent and not self._line:
            self._jobs[person] = job
            self._start(job)
        else:
            if len(self._line) >= self.waiting:
                last = max(self._line, key=lambda j: self._rank(j.person, j.arrival))
                if self._rank(person, job.arrival) >= self._rank(last.person, last.arrival):
                    raise QueueFull(own=False)
                self._drop(last, QueueFull(own=False))  # served more recently: it yields
            self._jobs[person] = job
            self._line.append(job)
        return await self._wait(job)

    async def _wait(self, job: _Job[T]) -> T:
        job.waiters += 1
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            job.waiters -= 1
            if job.waiters == 0 and not job.started and not job.future.done():
                job.future.cancel()
                self._drop(job, None)  # nobody waits for it any more
            raise

    def _drop(self, job: _Job[T], error: Exception | None) -> None:
        """Take a waiting job out of the line, refused with ``error``."""
        self._line.remove(job)
        if error is not None and not job.future.done():
            job.future.set_exception(error)
        self._leave(job)

    def _leave(self, job: _Job[T]) -> None:
        if self._jobs.get(job.person) is job:
            del self._jobs[job.person]
        if job.on_leave is not None:
            job.on_leave()

    def _start(self, job: _Job[T]) -> None:
        job.started = True
        self._running += 1
        self._served[job.person] = next(self._services)
        self._served.move_to_end(job.person)
        while len(self._served) > REMEMBERED:
            self._served.popitem(last=False)
        self.started.append(job.person)
        del self.started[:-500]
        job.task = asyncio.ensure_future(self._do(job))

    async def _do(self, job: _Job[T]) -> None:
        try:
            result = await job.work()
        except asyncio.CancelledError:
            if not job.future.done():
                job.future.cancel()
            raise
        except Exception as e:
            if not job.future.done():
                job.future.set_exception(e)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self._running -= 1
            self._leave(job)
            self._next()

    def _next(self) -> None:
        """Start the next jobs: the people served longest ago first."""
        while self._running < self.concurrent and self._line:
            job = min(self._line, key=lambda j: self._rank(j.person, j.arrival))
            self._line.remove(job)
            self._start(job)


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a job's error as seen (nobody may be left to wait for it)."""
    if not future.cancelled():
        future.exception()
