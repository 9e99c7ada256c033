"""Hints for a seat's decision, from the hard player's analysis, run off the event loop.

The analysis runs in a worker thread under a time budget; at most a few run at once,
so hints never hold up the tables.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from ..limits import GateFull, ShareGate
from ..view import HandView

MAX_CONCURRENT = 2
"""Analyses running at the same time, server-wide."""

PER_CLIENT = 1
"""Analyses one client (address) may have running at once, so no client holds every slot."""

GRACE = 2.0
"""Seconds past its budget before an analysis is given up."""


class HintUnavailable(Exception):
    """No hint can be given now; the message says why."""


_gates: dict[int, ShareGate] = {}


def _gate() -> ShareGate:
    loop_id = id(asyncio.get_running_loop())
    gate = _gates.get(loop_id)
    if gate is None:
        gate = _gates[loop_id] = ShareGate(MAX_CONCURRENT, PER_CLIENT)
    return gate


def hint_json(hint: Any) -> dict[str, Any]:
    """One hint as the protocol sends it."""
    return {
        "action": str(hint.action),
        "text": str(getattr(hint, "text", "")),
        "expected_points": _number(getattr(hint, "expected_points", None)),
        "make_chance": _number(getattr(hint, "make_chance", None)),
    }


def _number(x: Any) -> float | None:
    return None if x is None else round(float(x), 3)


async def hints_for(view: HandView | None, budget: float, client: str = ""
                    ) -> list[dict[str, Any]]:
    """The hints for a view, best first, within ``budget`` seconds of analysis, if
    ``client`` (an address) has no other hint being worked out; raises
    :class:`HintUnavailable`."""
    if view is None or not view.legal:
        raise HintUnavailable("it is not your turn: hints are for your own decisions")
    try:
        from ..bots.hints import analyse  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise HintUnavailable("hints are not available on this server") from None
    gate = _gate()
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
    return [hint_json(h) for h in hints]
