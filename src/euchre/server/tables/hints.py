"""Hints for a seat's decision, from the hard player's analysis, run off the event loop,
shared fairly between the people who ask.

The analysis runs in a worker thread under a time budget; at most two run at once per
process (the analyses use its cores), so hints never hold up the tables. Asks wait in a
fair queue (:class:`~euchre.limits.fair.FairQueue`): one hint waiting or being worked out
per person, and the next one to start is that of the person served longest ago, so however
many sockets and addresses ask without end, anyone else's hint starts after at most one of
each of theirs. A person is the signed-in account sitting at the seat, else the client
address. Another tab at the same seat asking meanwhile gets the same answer; a second ask
at another table is refused until the first is answered.

With a Redis URL (:meth:`HintService.share_site_wide`) the person's one place is also
marked in Redis (:class:`~euchre.limits.gate.SharedShares`: set when the ask is queued,
given back when it leaves the queue, lasting at most :attr:`HintService.hold` seconds if a
process dies holding it), so a person whose sockets reach several processes still has one
hint waiting or being worked out on the whole site: each process serves its own queue
round robin, and no person is in two of them.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Hashable
from typing import Any

from ...limits import GateFull, Limits, LimitsUnavailable, SharedShares
from ...limits.fair import FairQueue, QueueFull
from ...view import HandView
from ..ops.metrics import Metrics
from ..wire.socket import HintItem, hint_item

MAX_CONCURRENT = 2
"""Analyses running at the same time, per process."""

MAX_WAITING = 32
"""Asks waiting for their turn, per process (each from a different person)."""

GRACE = 2.0
"""Seconds past its budget before an analysis is given up."""

log = logging.getLogger(__name__)

OWN_SHARE = ("you already have a hint waiting or being worked out: it comes where you "
             "asked for it, then you can ask again")
"""Why a person's second hint at once (another table, or another server) is refused."""

BUSY = "the hint service is busy: try again in a moment"
"""Why an ask is refused when the waiting line is full."""

PASSED = "your turn passed before the hint was worked out"
"""Why a waiting ask is dropped when its decision is no longer the seat's."""


class HintUnavailable(Exception):
    """No hint can be given now; the message says why."""


ViewNow = Callable[[], tuple[int, HandView | None]]
"""The seat's view as it is now, with the table's version."""


def _analyse() -> Callable[..., list[Any]]:
    try:
        from ...bots.hints import analyse  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise HintUnavailable("hints are not available on this server") from None
    return analyse


def _check(view: HandView | None) -> HandView:
    if view is None or not view.legal:
        raise HintUnavailable("it is not your turn: hints are for your own decisions")
    return view


async def hints_for(view: HandView | None, budget: float) -> list[HintItem]:
    """The hints for a view, best first, within ``budget`` seconds of analysis (no queue:
    the caller holds the place); raises :class:`HintUnavailable`."""
    seat_view = _check(view)
    work = functools.partial(_analyse(), seat_view, budget=budget)
    try:
        hints = await asyncio.wait_for(asyncio.to_thread(work), timeout=budget + GRACE)
    except TimeoutError:
        raise HintUnavailable("the analysis took too long: try again") from None
    return [hint_item(h) for h in hints]


class HintService:
    """One process's hints: the budget, the fair queue, the site-wide marks (with
    :meth:`share_site_wide`), the refusal counts."""

    def __init__(self, budget: float, metrics: Metrics | None = None,
                 concurrent: int = MAX_CONCURRENT, waiting: int = MAX_WAITING) -> None:
        """Hints of ``budget`` seconds, ``concurrent`` at once, ``waiting`` in line."""
        self.budget = budget
        """Seconds an analysis may take."""
        self.metrics = metrics
        """Where refusals are counted."""
        self.queue: FairQueue[tuple[int, list[HintItem]]] = FairQueue(concurrent, waiting)
        """The asks waiting and being worked out here."""
        self.hold = (waiting // concurrent + 1) * (budget + GRACE) + 1.0
        """Seconds a site-wide mark lasts if never given back: the longest an ask can wait
        and be worked out."""
        self.shares: SharedShares | None = None
        """The people's places marked for the whole site (None: this process only)."""

    def share_site_wide(self, limits: Limits) -> None:
        """Mark each person's place in ``limits`` too (the site's Redis), so it holds
        across processes."""
        self.shares = SharedShares(limits, 1, self.hold, "hint")

    async def ask(self, person: str, key: Hashable, view_now: ViewNow
                  ) -> tuple[int, list[HintItem]]:
        """The hints for the decision ``view_now()`` shows when the ask's turn comes, with
        the table's version then, asked by ``person`` about ``key`` (a table's seat);
        raises :class:`HintUnavailable`."""
        _check(view_now()[1])
        analyse = _analyse()
        on_leave = None
        if not self.queue.holds(person) and self.shares is not None:
            ticket = await self._take_share(person)
            on_leave = functools.partial(self._give_back, person, ticket)
            if self.queue.holds(person):  # another ask of theirs got here meanwhile
                on_leave()
                on_leave = None

        async def work() -> tuple[int, list[HintItem]]:
            version, view = view_now()
            if view is None or not view.legal:
                raise HintUnavailable(PASSED)
            task = functools.partial(analyse, view, budget=self.budget)
            try:
                hints = await asyncio.wait_for(asyncio.to_thread(task),
                                               timeout=self.budget + GRACE)
            except TimeoutError:
                raise HintUnavailable("the analysis took too long: try again") from None
            return version, [hint_item(h) for h in hints]

        try:
            return await self.queue.run(person, key, work, on_leave)
        except QueueFull as e:
            if on_leave is not None and not self.queue.holds(person):
                on_leave()  # never queued: give the mark back now
            raise HintUnavailable(OWN_SHARE if e.own else BUSY) from None

    async def for_view(self, view: HandView | None, person: str = "") -> list[HintItem]:
        """The hints for ``view`` asked by ``person``, through the queue (``view`` is the
        decision, its key); raises :class:`HintUnavailable`."""
        _, items = await self.ask(person, id(view), lambda: (0, view))
        return items

    async def _take_share(self, person: str) -> str:
        assert self.shares is not None
        try:
            return await self.shares.take(person)
        except GateFull:
            raise HintUnavailable(OWN_SHARE) from None
        except LimitsUnavailable as e:
            log.warning("hint marks unavailable, refusing: %s", e)
            raise HintUnavailable("hints cannot be given just now: try again shortly") from None

    def _give_back(self, person: str, ticket: str) -> None:
        task = asyncio.ensure_future(self._release(person, ticket))
        task.add_done_callback(_log_failure)

    async def _release(self, person: str, ticket: str) -> None:
        assert self.shares is not None
        try:
            await self.shares.release(person, ticket)
        except LimitsUnavailable as e:  # it runs out by itself after self.hold
            log.warning("could not give back a hint mark: %s", e)

    def refused(self, reason: str) -> None:
        """Count a refused hint."""
        if self.metrics is not None:
            self.metrics.hint_refusals.labels(reason).inc()


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("hints: giving a mark back failed: %r", task.exception())
