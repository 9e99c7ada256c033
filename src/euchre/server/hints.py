"""Hints for a seat's decision, from the hard player's analysis, run off the event loop.

The analysis runs in a worker thread under a time budget; at most a few run at once per
app (:class:`HintService`), so hints never hold up the tables.
"""

from __future__ import annotations

import asyncio
import functools

from ..view import HandView
from .metrics import Metrics
from .wire.socket import HintItem, hint_item

MAX_CONCURRENT = 2
"""Analyses running at the same time, per app."""

GRACE = 2.0
"""Seconds past its budget before an analysis is given up."""


class HintUnavailable(Exception):
    """No hint can be given now; the message says why."""


async def hints_for(view: HandView | None, budget: float,
                    slots: asyncio.Semaphore | None = None) -> list[HintItem]:
    """The hints for a view, best first, within ``budget`` seconds of analysis (at most as
    many at once as ``slots`` allows); raises :class:`HintUnavailable`."""
    if view is None or not view.legal:
        raise HintUnavailable("it is not your turn: hints are for your own decisions")
    try:
        from ..bots.hints import analyse  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise HintUnavailable("hints are not available on this server") from None
    slots = slots or asyncio.Semaphore(MAX_CONCURRENT)
    if slots.locked():
        raise HintUnavailable("the hint service is busy: try again in a moment")
    async with slots:
        try:
            work = functools.partial(analyse, view, budget=budget)
            hints = await asyncio.wait_for(asyncio.to_thread(work), timeout=budget + GRACE)
        except TimeoutError:
            raise HintUnavailable("the analysis took too long: try again") from None
    return [hint_item(h) for h in hints]


class HintService:
    """One app's hints: its budget, its slots, its refusal counts."""

    def __init__(self, budget: float, metrics: Metrics | None = None,
                 concurrent: int = MAX_CONCURRENT) -> None:
        """Hints of ``budget`` seconds, ``concurrent`` at once."""
        self.budget = budget
        """Seconds an analysis may take."""
        self.metrics = metrics
        """Where refusals are counted."""
        self._concurrent = concurrent
        self._slots: asyncio.Semaphore | None = None

    async def for_view(self, view: HandView | None) -> list[HintItem]:
        """The hints for ``view``; raises :class:`HintUnavailable`."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._concurrent)
        return await hints_for(view, self.budget, self._slots)

    def refused(self, reason: str) -> None:
        """Count a refused hint."""
        if self.metrics is not None:
            self.metrics.hint_refusals.labels(reason).inc()
