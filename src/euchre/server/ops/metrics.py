"""Prometheus metrics of one app (``/metrics``), in a registry of the app's own.

Live tables by kind and open sockets are read when scraped; the rest are counted where
they happen: moves, saves (latency and failures), the event loop's lag, bot decisions,
hint refusals, socket outbox overflows. The table layer reports through
:class:`~euchre.table.actor.kind.TableObserver` (it imports no metrics library).
"""

from __future__ import annotations

import math
import time
from bisect import bisect_left
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from ...table.actor.kind import TableObserver

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of :meth:`Metrics.render`."""


class Metrics(TableObserver):
    """The counters, gauges and histograms of one app; the tables' observer."""

    def __init__(self) -> None:
        """Fresh metrics in a registry of their own (two apps never share counts)."""
        self.registry = CollectorRegistry()
        """What ``/metrics`` renders."""
        self.tables = Gauge("euchre_tables", "Live tables in memory, by kind", ["kind"],
                            registry=self.registry)
        self.sockets = Gauge("euchre_sockets", "Open table sockets", registry=self.registry)
        self.per_move = _PerMove()
        """Moves by who made them, the time of each save and of each computer's decision
        (``euchre_moves``, ``euchre_save_seconds``, ``euchre_bot_decision_seconds``):
        counted in plain numbers, exposed when scraped."""
        self.registry.register(self.per_move)
        self.save_failures = Counter("euchre_save_failures", "Table saves that failed",
                                     registry=self.registry)
        self.loop_lag_seconds = Histogram(
            "euchre_loop_lag_seconds",
            "How much later than due the event loop ran a timer (sampled every 100 ms): "
            "the loop busy, or the process waiting for a core",
            registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0))
        self.gc_seconds = Histogram(
            "euchre_gc_seconds",
            "Cycle collections the server ran (after its heap grew) and how long each paused "
            "the event loop", registry=self.registry,
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
        self.gc_freed = Counter("euchre_gc_freed", "Objects the cycle collections freed",
                                registry=self.registry)
        self.hint_refusals = Counter("euchre_hint_refusals", "Hints refused, by reason",
                                     ["reason"], registry=self.registry)
        self.outbox_overflows = Counter(
            "euchre_socket_outbox_overflows",
            "Sockets closed because their outbox filled (a client too slow)",
            registry=self.registry)
        self.relayed_messages = Counter(
            "euchre_relayed_messages",
            "Client messages on table sockets relayed from this process to the process "
            "that runs the table (few when the proxy routes sockets by table id)",
            registry=self.registry)
        self.last_save_failed = False
        """Whether the latest save failed (``/readyz`` then answers 503)."""

    def watch_tables(self, count_by_kind: Callable[[], dict[str, int]]) -> None:
        """Read live tables by kind from ``count_by_kind`` at each scrape."""
        self._count_by_kind = count_by_kind

    def render(self) -> bytes:
        """The text exposition format."""
        counter = getattr(self, "_count_by_kind", None)
        if counter is not None:
            self.tables.clear()
            for kind, n in counter().items():
                self.tables.labels(kind).set(n)
        return generate_latest(self.registry)

    # -- the table layer's reports (see euchre.table.actor.kind.TableObserver) ---------------

    def moved(self, by: str) -> None:
        """A move was applied (``person``, ``computer`` or ``timeout``)."""
        moves = self.per_move.moves
        moves[by] = moves.get(by, 0) + 1

    def saved(self, seconds: float, ok: bool) -> None:
        """A save took ``seconds`` (``ok`` False: it failed)."""
        self.per_move.saves.observe(seconds)
        self.last_save_failed = not ok
        if not ok:
            self.save_failures.inc()

    def loop_lagged(self, seconds: float) -> None:
        """The event loop ran a timer ``seconds`` later than it was due."""
        self.loop_lag_seconds.observe(seconds)

    def cycles_collected(self, seconds: float, freed: int) -> None:
        """A cycle collection paused the loop ``seconds`` and freed ``freed`` objects."""
        self.gc_seconds.observe(seconds)
        self.gc_freed.inc(freed)

    def bot_decided(self, level: str, seconds: float) -> None:
        """A computer player chose in ``seconds``."""
        decisions = self.per_move.decisions
        tally = decisions.get(level)
        if tally is None:
            tally = decisions[level] = _Tally(_DECISION_BUCKETS)
        tally.observe(seconds)


_SAVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_DECISION_BUCKETS = (0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class _Tally:
    """One histogram's counts in plain numbers: a bisect and two additions a value."""

    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, buckets: tuple[float, ...]) -> None:
        self.bounds = (*buckets, math.inf)  # a value counts in the first bound it is <=
        self.counts = [0] * len(self.bounds)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value

    def buckets(self) -> list[tuple[str, float]]:
        """The cumulative buckets, labelled as prometheus_client labels them."""
        out, total = [], 0
        for bound, count in zip(self.bounds, self.counts, strict=True):
            total += count
            out.append(("+Inf" if bound == math.inf else repr(float(bound)), float(total)))
        return out


class _PerMove(Collector):
    """What every move reports (who moved, how long its save and a computer's decision
    took), counted in plain numbers on the event loop rather than through the library's
    locked values, and exposed as the same counter and histograms when scraped
    (``/metrics`` is rendered on the event loop too)."""

    def __init__(self) -> None:
        self.moves: dict[str, int] = {}
        self.saves = _Tally(_SAVE_BUCKETS)
        self.decisions: dict[str, _Tally] = {}
        self._created = time.time()

    def collect(self) -> Iterator[Metric]:
        """``euchre_moves`` by ``by``, ``euchre_save_seconds`` and
        ``euchre_bot_decision_seconds`` by ``level``, as prometheus_client's Counter and
        Histogram expose them (``_total``, ``_created``, cumulative buckets)."""
        moves = CounterMetricFamily("euchre_moves", "Moves applied at tables (people and "
                                    "computers)", labels=["by"])
        for by, count in self.moves.items():
            moves.add_metric([by], count, created=self._created)  # counted from then
        yield moves
        saves = HistogramMetricFamily("euchre_save_seconds", "Time to save a table")
        saves.add_metric([], self.saves.buckets(), self.saves.sum)
        saves.add_sample("euchre_save_seconds_created", {}, self._created)
        yield saves
        decisions = HistogramMetricFamily("euchre_bot_decision_seconds",
                                          "Time a computer player took to choose",
                                          labels=["level"])
        for level, tally in self.decisions.items():
            decisions.add_metric([level], tally.buckets(), tally.sum)
            decisions.add_sample("euchre_bot_decision_seconds_created", {"level": level},
                                 self._created)
        yield decisions
