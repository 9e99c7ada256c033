"""Python's cycle collector, run rarely and on purpose, not every few hundred allocations.

A table's state is rebuilt at every move (a new game state, views, events), so a busy
server's young objects are mostly live tables, not garbage. CPython starts a young
collection when allocations outnumber deallocations by a threshold; with every move
freeing an old state as it makes a new one the count hardly grows, so the youngest
generation swells to the recent state of every table before it is walked, and each walk
stalls every table: at 1,500 tables in play, young collections of 60-130 ms every few
seconds and a middle one of 600 ms (docs/scaling.md, "Real pace"). Play itself makes no
reference cycles: whole collections every 15 s of play at 1,500 tables freed nothing (only
opening tables leaves a few, about 20 objects a table).

So ``euchre serve`` turns automatic collection off after start-up (:func:`pace_collector`:
what start-up made is frozen out of it first) and :func:`collect_on_growth` collects
everything at least every :data:`COLLECT_AT_LEAST` seconds, and sooner once the objects the
collector tracks grew by :data:`GROWTH` times those alive after the last collection (and by
at least :data:`FLOOR`): garbage in cycles never holds more memory than that. A collection
walks every table (about 0.6 ms each), so it is rare by design: a steady server collects
once an hour, a growing one a few times while it grows.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

GROWTH = 3.0
"""Collect once the objects the collector tracks grew by this share of those alive after
the last collection (3.0: four times as many)."""

FLOOR = 250_000
"""The least growth that starts a collection (about 400 busy tables' worth, walked in
about 0.15 s): a small heap is not collected over and over."""

COLLECT_AT_LEAST = 3600.0
"""Seconds after which a collection runs whatever the growth (the garbage of an hour of
opening tables is a few megabytes)."""

CHECK_EVERY = 1.0
"""Seconds between two looks at the growth (one ``gc.get_count()`` a look)."""


def pace_collector() -> None:
    """Collect what start-up left, freeze the survivors out of the collector (never walked
    again), and turn automatic collection off: :func:`collect_on_growth` collects instead."""
    gc.collect()
    gc.freeze()
    gc.disable()


def tracked() -> int:
    """The objects the collector tracks, frozen ones aside (a list of them all is made:
    asked once a collection)."""
    return len(gc.get_objects())


class GrowthPacer:
    """When to collect: after growth of :data:`GROWTH` times the objects alive after the
    last collection, and at least :data:`FLOOR` (``grown`` is the growth since then, as
    ``gc.get_count()[0]`` counts it with automatic collection off)."""

    def __init__(self, alive: int, growth: float = GROWTH, floor: int = FLOOR) -> None:
        """Paced from ``alive`` objects tracked now."""
        self.growth = growth
        """The share of growth that starts a collection."""
        self.floor = floor
        """The least growth that starts one."""
        self.limit = self._limit(alive)
        """The growth at which the next collection starts."""

    def _limit(self, alive: int) -> int:
        return max(self.floor, int(alive * self.growth))

    def due(self, grown: int) -> bool:
        """Whether ``grown`` objects since the last collection call for one."""
        return grown >= self.limit

    def collected(self, alive: int) -> None:
        """A collection left ``alive`` objects tracked: the next one waits for growth on it."""
        self.limit = self._limit(alive)


async def collect_on_growth(
        observe: Callable[[float, int], None] | None = None, every: float = CHECK_EVERY,
        pacer: GrowthPacer | None = None, at_least: float = COLLECT_AT_LEAST,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    """Until cancelled: every ``every`` seconds, collect if the heap grew enough
    (``pacer``, by default from the objects tracked now), or if ``at_least`` seconds of
    looks passed since the last collection; each collection's seconds and the objects it
    freed go to ``observe``."""
    pacer = pacer if pacer is not None else GrowthPacer(tracked())
    waited = 0.0
    while True:
        await sleep(every)
        waited += every
        grown = gc.get_count()[0]
        if not pacer.due(grown) and waited < at_least:
            continue
        waited = 0.0
        started = time.perf_counter()
        freed = gc.collect()
        seconds = time.perf_counter() - started
        pacer.collected(tracked())
        log.info("collected cycles after %d objects' growth: %d freed in %.0f ms",
                 grown, freed, seconds * 1000)
        if observe is not None:
            observe(seconds, freed)
