"""Prometheus metrics of one app (``/metrics``), in a registry of the app's own.

Live tables by kind and open sockets are read when scraped; the rest are counted where
they happen: moves, saves (latency and failures), the event loop's lag, bot decisions,
hint refusals, socket outbox overflows. The table layer reports through
:class:`~euchre.table.kinds.TableObserver` (it imports no metrics library).
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

from ...table.kinds import TableObserver

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
        self.per_move = _PerMove(
            (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5))
        """Moves by who made them, and the time of each save (``euchre_moves``,
        ``euchre_save_seconds``): counted in plain numbers, exposed when scraped."""
        self.registry.register(self.per_move)
        self.save_failures = Counter("euchre_save_failures", "Table saves that failed",
                                     registry=self.registry)
        self.bot_seconds = Histogram(
            "euchre_bot_decision_seconds", "Time a computer player took to choose",
            ["level"], registry=self.registry,
            buckets=(0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))
        self.loop_lag_seconds = Histogram(
            "euchre_loop_lag_seconds",
            "How much later than due the event loop ran a timer (sampled every 25 ms): "
            "the loop busy, or the process waiting for a core",
            registry=self.registry,
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0))
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
        self._bot_seconds_by: dict[str, Histogram] = {}

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

    # -- the table layer's reports (see euchre.table.kinds.TableObserver) ---------------

    def moved(self, by: str) -> None:
        """A move was applied (``person``, ``computer`` or ``timeout``)."""
        moves = self.per_move.moves
        moves[by] = moves.get(by, 0) + 1

    def saved(self, seconds: float, ok: bool) -> None:
        """A save took ``seconds`` (``ok`` False: it failed)."""
        per = self.per_move
        per.save_counts[bisect_left(per.bounds, seconds)] += 1
        per.save_sum += seconds
        self.last_save_failed = not ok
        if not ok:
            self.save_failures.inc()

    def loop_lagged(self, seconds: float) -> None:
        """The event loop ran a timer ``seconds`` later than it was due."""
        self.loop_lag_seconds.observe(seconds)

    def bot_decided(self, level: str, seconds: float) -> None:
        """A computer player chose in ``seconds``."""
        histogram = self._bot_seconds_by.get(level)
        if histogram is None:
            histogram = self._bot_seconds_by[level] = self.bot_seconds.labels(level)
        histogram.observe(seconds)


class _PerMove(Collector):
    """What every move reports (who moved, how long its save took), counted in plain
    numbers on the event loop (a dict entry; a bisect and two additions) rather than through
    the library's locked values, and exposed as the same counter and histogram when
    scraped (``/metrics`` is rendered on the event loop too)."""

    def __init__(self, buckets: tuple[float, ...]) -> None:
        self.moves: dict[str, int] = {}
        self.bounds = (*buckets, math.inf)  # a save counts in the first bound it is <=
        self.save_counts = [0] * len(self.bounds)
        self.save_sum = 0.0
        self._created = time.time()

    def collect(self) -> Iterator[Metric]:
        """``euchre_moves`` by ``by`` and ``euchre_save_seconds``, as prometheus_client's
        Counter and Histogram expose them (``_total``, ``_created``, cumulative buckets)."""
        moves = CounterMetricFamily("euchre_moves", "Moves applied at tables (people and "
                                    "computers)", labels=["by"])
        for by, count in self.moves.items():
            moves.add_metric([by], count, created=self._created)  # counted from then
        yield moves
        saves = HistogramMetricFamily("euchre_save_seconds", "Time to save a table")
        buckets, total = [], 0
        for bound, count in zip(self.bounds, self.save_counts, strict=True):
            total += count
            buckets.append(("+Inf" if bound == math.inf else repr(float(bound)), float(total)))
        saves.add_metric([], buckets, self.save_sum)
        saves.add_sample("euchre_save_seconds_created", {}, self._created)
        yield saves
