"""Hints for a seat's decision, from the hard player's analysis, run off the event loop.

The analysis runs in a worker thread under a time budget; at most a few run at once per
app (:class:`HintService`), so hints never hold up the tables.
"""

from __future__ import annotations

import asyncio
import functools

from ..limits import GateFull, ShareGate
from ..view import HandView
from .metrics import Metrics
from .wire.socket import HintItem, hint_item

MAX_CONCURRENT = 2
"""Analyses running at the same time, per app."""

PER_CLIENT = 1
"""Analyses one client (address) may have running at once, so no client holds every slot."""

GRACE = 2.0
"""Seconds past its budget before an analysis is given up."""


class HintUnavailable(Exception):
    """No hint can be given now; the message says why."""


async def hints_for(view: HandView | None, budget: float, client: str = "",
                    gate: ShareGate | None = None) -> list[HintItem]:
    """The hints for a view, best first, within ``budget`` seconds of analysis, if
    ``client`` (an address) has no other hint being worked out at ``gate`` (at most as many
    at once as it allows); raises :class:`HintUnavailable`."""
    if view is None or not view.legal:
        raise HintUnavailable("it is not your turn: hints are for your own decisions")
    try:
        from ..bots.hints import analyse  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise HintUnavailable("hints are not available on this server") from None
    gate = gate or ShareGate(MAX_CONCURRENT, PER_CLIENT)
    try:
        gate.take(client)
    except GateFull as e:
        if e.own_share:
            raise HintUnavailable("you already have a hint being worked out: wait for it"
                                  ) from None
        raise HintUnavailable("the hint service is busy: try again in a moment") from None
    try:
        work = functools.partial(analyse, view, budget=budget)
        hints = await asyncio.wait_for(asyncio.to_thread(work), timeout=budget + GRACE)
    except TimeoutError:
        raise HintUnavailable("the analysis took too long: try again") from None
    finally:
        gate.release(client)
    return [hint_item(h) for h in hints]


class HintService:
    """One app's hints: its budget, its gate (slots in all, and per client), its refusal
    counts."""

    def __init__(self, budget: float, metrics: Metrics | None = None,
                 concurrent: int = MAX_CONCURRENT, per_client: int = PER_CLIENT) -> None:
        """Hints of ``budget`` seconds, ``concurrent`` at once, ``per_client`` per client."""
        self.budget = budget
        """Seconds an analysis may take."""
        self.metrics = metrics
        """Where refusals are counted."""
        self.gate = ShareGate(concurrent, per_client)
        """The analyses running, in all and per client."""

    async def for_view(self, view: HandView | None, client: str = "") -> list[HintItem]:
        """The hints for ``view`` asked by ``client``; raises :class:`HintUnavailable`."""
        return await hints_for(view, self.budget, client, self.gate)

    def refused(self, reason: str) -> None:
        """Count a refused hint."""
        if self.metrics is not None:
            self.metrics.hint_refusals.labels(reason).inc()
