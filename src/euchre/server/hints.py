"""Hints for a seat's decision, from the hard player's analysis, run off the event loop.

The analysis runs in a worker thread under a time budget; at most a few run at once per
app (:class:`HintService`), so hints never hold up the tables, and one per client address.
The total is this process's (the analyses run on its cores); the client's share is counted
in Redis when the site has a Redis URL (:meth:`HintService.share_site_wide`), so a client
whose sockets reach several processes still has one analysis at a time on the whole site.
"""

from __future__ import annotations

import asyncio
import functools
import logging

from ..limits import GateFull, Limits, LimitsUnavailable, SharedShares, ShareGate
from ..view import HandView
from .metrics import Metrics
from .wire.socket import HintItem, hint_item

MAX_CONCURRENT = 2
"""Analyses running at the same time, per app."""

PER_CLIENT = 1
"""Analyses one client (address) may have running at once, so no client holds every slot."""

GRACE = 2.0
"""Seconds past its budget before an analysis is given up."""

log = logging.getLogger(__name__)

OWN_SHARE = "you already have a hint being worked out: wait for it"
"""Why a client's second hint at once is refused."""


class HintUnavailable(Exception):
    """No hint can be given now; the message says why."""


async def hints_for(view: HandView | None, budget: float, client: str = "",
                    gate: ShareGate | None = None,
                    shares: SharedShares | None = None) -> list[HintItem]:
    """The hints for a view, best first, within ``budget`` seconds of analysis, if
    ``client`` (an address) has no other hint being worked out at ``gate`` (at most as many
    at once as it allows) nor, given ``shares``, anywhere on the site; raises
    :class:`HintUnavailable`."""
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
            raise HintUnavailable(OWN_SHARE) from None
        raise HintUnavailable("the hint service is busy: try again in a moment") from None
    ticket = ""
    try:
        if shares is not None:
            ticket = await _take_share(shares, client)
        work = functools.partial(analyse, view, budget=budget)
        hints = await asyncio.wait_for(asyncio.to_thread(work), timeout=budget + GRACE)
    except TimeoutError:
        raise HintUnavailable("the analysis took too long: try again") from None
    finally:
        gate.release(client)
        if ticket and shares is not None:
            try:
                await shares.release(client, ticket)
            except LimitsUnavailable as e:  # it runs out by itself after shares.hold
                log.warning("could not give back a hint place: %s", e)
    return [hint_item(h) for h in hints]


async def _take_share(shares: SharedShares, client: str) -> str:
    try:
        return await shares.take(client)
    except GateFull:
        raise HintUnavailable(OWN_SHARE) from None
    except LimitsUnavailable as e:
        log.warning("hint shares unavailable, refusing: %s", e)
        raise HintUnavailable("hints cannot be given just now: try again shortly") from None


class HintService:
    """One app's hints: its budget, its gate (slots in all, and per client; the client's
    share site-wide with :meth:`share_site_wide`), its refusal counts."""

    def __init__(self, budget: float, metrics: Metrics | None = None,
                 concurrent: int = MAX_CONCURRENT, per_client: int = PER_CLIENT) -> None:
        """Hints of ``budget`` seconds, ``concurrent`` at once, ``per_client`` per client."""
        self.budget = budget
        """Seconds an analysis may take."""
        self.metrics = metrics
        """Where refusals are counted."""
        self.gate = ShareGate(concurrent, per_client)
        """The analyses running here, in all and per client."""
        self.per_client = per_client
        """Analyses one client may have running at once."""
        self.shares: SharedShares | None = None
        """The clients' shares counted for the whole site (None: only :attr:`gate`)."""

    def share_site_wide(self, limits: Limits) -> None:
        """Count each client's share in ``limits`` too (the site's Redis limits), so it
        holds across processes; a place lasts at most an analysis's longest time."""
        self.shares = SharedShares(limits, self.per_client, self.budget + GRACE + 1.0, "hint")

    async def for_view(self, view: HandView | None, client: str = "") -> list[HintItem]:
        """The hints for ``view`` asked by ``client``; raises :class:`HintUnavailable`."""
        return await hints_for(view, self.budget, client, self.gate, self.shares)

    def refused(self, reason: str) -> None:
        """Count a refused hint."""
        if self.metrics is not None:
            self.metrics.hint_refusals.labels(reason).inc()
