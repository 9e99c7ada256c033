"""The cycle collector paced on heap growth (``euchre serve``): when a collection is due,
that garbage in cycles is collected by it, and what it did in ``/metrics``."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from euchre.server.ops.cycles import GrowthPacer, collect_on_growth, pace_collector
from euchre.server.ops.metrics import Metrics


class Node:
    """A part of a reference cycle (freed only by the cycle collector)."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycles(n: int) -> weakref.ref[Node]:
    """``n`` two-node cycles, unreachable once made; a weak reference to the first."""
    first: Node | None = None
    for _ in range(n):
        a, b = Node(), Node()
        a.other, b.other = b, a
        first = first or a
    assert first is not None
    return weakref.ref(first)


@pytest.fixture
def collector_off() -> Iterator[None]:
    """Automatic collection off for the test, as ``euchre serve`` runs; back on after."""
    was = gc.isenabled()
    gc.disable()
    gc.collect()
    try:
        yield
    finally:
        gc.unfreeze()
        if was:
            gc.enable()


class Sleeps:
    """A sleep that returns at once, and cancels the loop after ``looks`` looks."""

    def __init__(self, looks: int, between: list[int] | None = None) -> None:
        self.looks = looks
        self.between = between or []
        self.made: list[weakref.ref[Node]] = []

    async def sleep(self, seconds: float) -> None:
        if not self.looks:
            raise asyncio.CancelledError  # the site stops the task by cancelling it
        self.looks -= 1
        if self.between:
            n = self.between.pop(0)
            if n:
                self.made.append(cycles(n))


def test_a_collection_is_due_after_growth_on_what_was_alive_and_at_least_the_floor() -> None:
    pacer = GrowthPacer(alive=1_000_000, growth=1.0, floor=200_000)
    assert not pacer.due(999_999)
    assert pacer.due(1_000_000)
    pacer.collected(100_000)  # a small heap: the floor, not 100 000
    assert not pacer.due(150_000)
    assert pacer.due(200_000)
    assert GrowthPacer(alive=500, growth=2.0, floor=10).limit == 1000


async def test_garbage_in_cycles_is_collected_once_the_heap_has_grown(
        collector_off: None) -> None:
    # Before look 1, 300 new cycles (600 objects: under the limit of 1,000 unless the test's
    # own allocations make up the rest); before look 2, 700 more (over it); before look 3,
    # one: too little growth.
    sleeps = Sleeps(looks=3, between=[300, 700, 1])
    seen: list[tuple[float, int]] = []
    with pytest.raises(asyncio.CancelledError):
        await collect_on_growth(lambda s, n: seen.append((s, n)), every=1.0,
                                pacer=GrowthPacer(alive=0, growth=1.0, floor=1_000),
                                sleep=sleeps.sleep)
    first, second, third = sleeps.made
    assert first() is None and second() is None  # collected by the second look
    assert third() is not None  # made after, and too little growth to collect: still there
    assert 1 <= len(seen) <= 2 and sum(n for _, n in seen) >= 2_000  # 1,000 cycles of two
    gc.collect()
    assert third() is None


async def test_no_growth_no_collection_until_the_longest_wait(collector_off: None) -> None:
    sleeps = Sleeps(looks=7, between=[300, 0, 0, 0, 0, 0, 0])
    seen: list[tuple[float, int]] = []
    with pytest.raises(asyncio.CancelledError):
        await collect_on_growth(lambda s, n: seen.append((s, n)), every=10.0,
                                pacer=GrowthPacer(alive=0, floor=1_000_000), at_least=30.0,
                                sleep=sleeps.sleep)
    # Looks at 10, 20, 30, ... seconds: the third is the 30 s wait, the sixth the next one.
    assert len(seen) == 2 and seen[0][1] >= 600 and sleeps.made[0]() is None


def test_pacing_turns_automatic_collection_off_and_freezes_what_start_up_made(
        collector_off: None) -> None:
    gc.enable()
    pace_collector()
    assert not gc.isenabled()
    assert gc.get_freeze_count() > 0
    assert sum(len(gc.get_objects(g)) for g in range(3)) < gc.get_freeze_count()


def test_collections_are_counted_in_the_metrics() -> None:
    metrics = Metrics()
    metrics.cycles_collected(0.25, 1_200)
    text = metrics.render().decode()
    assert "euchre_gc_seconds_count 1.0" in text
    assert 'euchre_gc_seconds_bucket{le="0.25"} 1.0' in text
    assert "euchre_gc_freed_total 1200.0" in text
