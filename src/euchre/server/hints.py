"""Hints for a seat's decision, from the hard player's analysis, run off the event loop.

The analysis runs in a worker thread under a time budget; at most a few run at once,
so hints never hold up the tables.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from ..view import HandView

MAX_CONCURRENT = 2
"""Analyses running at the same time, server-wide."""

GRACE = 2.0
"""Seconds past its budget before an analysis is given up."""


class HintUnavailable(Exception):
    """No hint can be given now; the message says why."""


_slots: dict[int, asyncio.Semaphore] = {}


def _semaphore() -> asyncio.Semaphore:
    loop_id = id(asyncio.get_running_loop())
    sem = _slots.get(loop_id)
    if sem is None:
        sem = _slots[loop_id] = asyncio.Semaphore(MAX_CONCURRENT)
    return sem


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


async def hints_for(view: HandView | None, budget: float) -> list[dict[str, Any]]:
    """The hints for a view, best first, within ``budget`` seconds of analysis; raises
    :class:`HintUnavailable`."""
    if view is None or not view.legal:
        raise HintUnavailable("it is not your turn: hints are for your own decisions")
    try:
        from ..bots.hints import analyse  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise HintUnavailable("hints are not available on this server") from None
    sem = _semaphore()
    if sem.locked():
        raise HintUnavailable("the hint service is busy: try again in a moment")
    async with sem:
        try:
            work = functools.partial(analyse, view, budget=budget)
            hints = await asyncio.wait_for(asyncio.to_thread(work), timeout=budget + GRACE)
        except TimeoutError:
            raise HintUnavailable("the analysis took too long: try again") from None
    return [hint_json(h) for h in hints]
