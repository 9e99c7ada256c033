"""Stall probe for ``euchre serve`` (a measuring aid, never imported by the product).

Put this folder first on ``PYTHONPATH`` and set ``STALL_PROBE=PATH``; every Python process
whose command line has ``serve`` in it then writes ``PATH.<pid>`` every 5 s and at exit
(``STALL_PROBE_CLIENT=1`` probes the other processes too, e.g. the benchmark's client)::

    PYTHONPATH=scripts/bench/stall_probe STALL_PROBE=/tmp/probe STALL_PROBE_SKIP=18 \\
        .venv/bin/python scripts/bench/bench_load.py --tables 1000 --bot-delay 0.67 \\
        --hand-pause 2 --think 2

What it measures, from ``STALL_PROBE_SKIP`` seconds after the process started, for
``STALL_PROBE_FOR`` seconds (default 30):

- the loop's lag: a 2 ms timer, and how late it ran;
- each stall (the timer over ``STALL_PROBE_MS``, default 10, late): a watchdog thread
  samples the loop thread's stack every millisecond meanwhile, and reads the kernel's
  ``/proc/self/task/*/schedstat`` to split the stall into the loop thread's CPU, its time
  waiting for a core (the run queue: the machine busy with other processes) and the other
  threads' CPU (the SQLite writer);
- with ``STALL_PROBE_ITER=1`` (the standard library's loop instead of uvloop, so each
  callback can be timed): each loop iteration's CPU (thread time, which a busy machine does
  not inflate), what ran in the iterations over 10 ms, how many table timers fired in one
  iteration, and each SQLite commit's size and wall time.

Each SQLite group commit is split into its parts (any loop): waiting for the writer's
thread to start it (``queue``), its statements (``body``), the ``COMMIT`` statement (the
fsync, and a WAL checkpoint when one falls due), and the loop taking the result back
(``back``: from the writer's thread finishing to the awaiting coroutine running again),
with the writer thread's CPU; the report lists them and the slowest commits' parts.

Each garbage collection in the measured seconds is timed too (``gc.callbacks``): per
generation, how many, and their pauses' wall and CPU time. ``STALL_PROBE_GC=off`` turns
automatic collection off in the probed processes (the server's start-up collection and
freeze still run), to see what the collector's pauses cost a load run.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import gc
import os
import sys
import threading
import time
from typing import Any

TICK = 0.002
"""Seconds between two runs of the loop's timer."""


class Probe:
    """What one process measured."""

    def __init__(self, out: str) -> None:
        self.out = out
        self.start = time.perf_counter() + float(os.environ.get("STALL_PROBE_SKIP", "0"))
        self.stop = self.start + float(os.environ.get("STALL_PROBE_FOR", "30"))
        self.threshold = float(os.environ.get("STALL_PROBE_MS", "10")) / 1000
        self.lock = threading.Lock()
        self.beat: float | None = None
        self.due: float | None = None
        self.lags: list[float] = []
        self.stalls: list[dict[str, Any]] = []
        self.stacks: collections.Counter[str] = collections.Counter()
        self.ring: collections.deque[tuple[float, int, int, int]] = collections.deque(
            maxlen=400)
        self.loop_ident = threading.main_thread().ident
        # Per iteration (STALL_PROBE_ITER): CPU seconds and callbacks run.
        self.iterations: list[tuple[float, int]] = []
        self.heavy: dict[str, float] = collections.defaultdict(float)
        self.timers_per: collections.Counter[int] = collections.Counter()
        self.commits: list[tuple[int, float]] = []
        # Per commit: games, queue, body, COMMIT, back, writer CPU (seconds), checkpointed.
        self.parts: list[tuple[int, float, float, float, float, float, bool]] = []
        # Per garbage collection: generation, wall and CPU seconds, objects collected.
        self.collections: list[tuple[int, float, float, int]] = []
        self.collecting: tuple[float, float] | None = None
        self.current: list[tuple[str, float]] = []

    def measuring(self, now: float) -> bool:
        return self.start <= now <= self.stop

    # -- the loop's timer and the watchdog ------------------------------------------------

    def tick(self, loop: asyncio.AbstractEventLoop) -> None:
        now = time.perf_counter()
        if self.due is not None and self.measuring(now):
            self.lags.append(max(0.0, now - self.due))
        self.beat, self.due = now, now + TICK
        loop.call_later(TICK, self.tick, loop)

    def watch(self) -> None:
        stall: dict[str, Any] | None = None
        while True:
            time.sleep(0.001)
            now = time.perf_counter()
            cpu, wait = schedstat(os.getpid())
            self.ring.append((now, cpu, wait, others_cpu()))
            beat = self.beat
            if beat is None or not self.measuring(now):
                continue
            if stall is not None and stall["beat"] != beat:
                self.stalled(stall, beat)
                stall = None
            if now - beat - TICK > self.threshold:
                frame = sys._current_frames().get(self.loop_ident or 0)
                stack = stack_of(frame)
                if stall is None:
                    stall = {"beat": beat, "at": time.time(), "from": self.reading_at(beat),
                             "samples": collections.Counter()}
                stall["samples"][stack] += 1
                with self.lock:
                    self.stacks[stack] += 1

    def reading_at(self, t: float) -> tuple[float, int, int, int]:
        before = [r for r in self.ring if r[0] <= t]
        return before[-1] if before else self.ring[0]

    def stalled(self, stall: dict[str, Any], beat: float) -> None:
        first, last = stall["from"], self.ring[-1]
        with self.lock:
            self.stalls.append({
                "at": stall["at"], "seconds": beat - stall["beat"],
                "cpu": (last[1] - first[1]) / 1e9, "queued": (last[2] - first[2]) / 1e9,
                "others": (last[3] - first[3]) / 1e9,
                "stack": stall["samples"].most_common(1)[0][0]})

    def collected(self, phase: str, info: dict[str, Any]) -> None:
        """A ``gc.callbacks`` callback: time each collection."""
        if phase == "start":
            self.collecting = (time.perf_counter(), time.thread_time())
            return
        if self.collecting is None:
            return
        wall, cpu = self.collecting
        self.collecting = None
        if self.measuring(wall):
            with self.lock:
                self.collections.append((int(info["generation"]), time.perf_counter() - wall,
                                         time.thread_time() - cpu, int(info["collected"])))

    # -- per iteration (the standard library's loop) --------------------------------------

    def ran(self, name: str, seconds: float) -> None:
        self.current.append((name, seconds))

    def iteration_over(self) -> None:
        done, self.current = self.current, []
        if not done or not self.measuring(time.perf_counter()):
            return
        cpu = sum(s for _, s in done)
        with self.lock:
            self.iterations.append((cpu, len(done)))
            self.timers_per[min(50, sum(1 for n, _ in done if n.startswith("Agenda.")))] += 1
            if cpu > 0.010:
                for name, seconds in done:
                    self.heavy[name] += seconds

    # -- the report -----------------------------------------------------------------------

    def write(self) -> None:
        with self.lock:
            lags, stalls, stacks = sorted(self.lags), list(self.stalls), self.stacks.copy()
            iterations, heavy = sorted(self.iterations), dict(self.heavy)
            timers_per, commits = self.timers_per.copy(), list(self.commits)
            parts = list(self.parts)
            collections_ = list(self.collections)
        rows = []
        if lags:
            rows.append(f"loop lag ms ({len(lags)} timers): p50 {at(lags, 50) * 1e3:.2f} "
                        f"p90 {at(lags, 90) * 1e3:.2f} p99 {at(lags, 99) * 1e3:.2f} "
                        f"max {lags[-1] * 1e3:.1f}")
        for label, part in (("all", stalls), ("over 40 ms", [s for s in stalls
                                                             if s["seconds"] > 0.04])):
            rows.append(
                f"stalls ({label}): {len(part)}, {sum(s['seconds'] for s in part) * 1e3:.0f} "
                f"ms; loop thread CPU {sum(s['cpu'] for s in part) * 1e3:.0f} ms, waiting "
                f"for a core {sum(s['queued'] for s in part) * 1e3:.0f} ms, other threads' "
                f"CPU {sum(s['others'] for s in part) * 1e3:.0f} ms")
        if iterations:
            cpus = [c for c, _ in iterations]
            rows.append(f"iterations {len(cpus)}: CPU ms p50 {at(cpus, 50) * 1e3:.2f} "
                        f"p99 {at(cpus, 99) * 1e3:.2f} max {cpus[-1] * 1e3:.1f}; over 10 ms: "
                        f"{sum(1 for c in cpus if c > 0.01)} holding "
                        f"{sum(c for c in cpus if c > 0.01):.2f} of {sum(cpus):.2f} s")
            rows.append("table timers fired in one iteration (timers: iterations): " + ", ".join(
                f"{k}: {v}" for k, v in sorted(timers_per.items())))
            rows.append("in the iterations over 10 ms (CPU s, callback):")
            rows += [f"  {s:7.3f} {name}" for name, s in sorted(
                heavy.items(), key=lambda item: -item[1])[:15]]
        if commits:
            sizes = sorted(n for n, _ in commits)
            walls = sorted(w for _, w in commits)
            rows.append(f"commits {len(commits)}: games p50 {at(sizes, 50)} p90 {at(sizes, 90)} "
                        f"max {sizes[-1]}; wall ms p50 {at(walls, 50) * 1e3:.1f} "
                        f"p90 {at(walls, 90) * 1e3:.1f} p99 {at(walls, 99) * 1e3:.1f} "
                        f"max {walls[-1] * 1e3:.1f}")
        if parts:
            rows.append("commit parts ms (p50 / p90 / p99 / max, sum s):")
            for i, name in enumerate(("queue", "body", "COMMIT", "back", "writer CPU"), 1):
                xs = sorted(float(p[i]) for p in parts)
                rows.append(f"  {name:10} {at(xs, 50) * 1e3:6.1f} / {at(xs, 90) * 1e3:6.1f} / "
                            f"{at(xs, 99) * 1e3:6.1f} / {xs[-1] * 1e3:6.1f}, {sum(xs):.2f}")
            rows.append(f"  commits that checkpointed the WAL: {sum(1 for p in parts if p[6])}")
            rows.append("  slowest (games, queue, body, COMMIT, back ms, writer CPU ms, "
                        "checkpoint):")
            rows += [f"    {p[0]:4d} {p[1] * 1e3:6.1f} {p[2] * 1e3:6.1f} {p[3] * 1e3:6.1f} "
                     f"{p[4] * 1e3:6.1f} {p[5] * 1e3:6.1f} {'yes' if p[6] else ''}"
                     for p in sorted(parts, key=lambda p: -sum(p[1:5]))[:15]]
        for generation in (0, 1, 2):
            done = [c for c in collections_ if c[0] == generation]
            if done:
                walls = sorted(c[1] for c in done)
                cpus = sorted(c[2] for c in done)
                rows.append(
                    f"garbage collections of generation {generation}: {len(done)}; CPU ms p50 "
                    f"{at(cpus, 50) * 1e3:.1f} max {cpus[-1] * 1e3:.1f} sum "
                    f"{sum(cpus) * 1e3:.0f}; wall ms max {walls[-1] * 1e3:.1f}; collected "
                    f"{sum(c[3] for c in done)} objects")
        rows.append("stall samples by the loop thread's innermost frames:")
        tails: collections.Counter[str] = collections.Counter()
        for stack, n in stacks.items():
            tails[";".join(stack.split(";")[-4:])] += n
        rows += [f"  {n:6d} {tail}" for tail, n in tails.most_common(25)]
        rows.append("stalls (time, ms, loop CPU ms, waiting for a core ms, others ms, stack):")
        rows += [f"  {s['at']:.3f} {s['seconds'] * 1e3:6.1f} {s['cpu'] * 1e3:6.1f} "
                 f"{s['queued'] * 1e3:6.1f} {s['others'] * 1e3:6.1f} "
                 f"{' | '.join(s['stack'].split(';')[-3:])}" for s in stalls[-500:]]
        with open(f"{self.out}.{os.getpid()}", "w") as fh:
            fh.write("\n".join(rows) + "\n")


def at(ordered: list[Any], p: float) -> Any:
    """The p-th percentile of ``ordered`` (nearest rank)."""
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def schedstat(tid: int | str) -> tuple[int, int]:
    """Nanoseconds thread ``tid`` ran, and waited for a core, so far."""
    try:
        with open(f"/proc/self/task/{tid}/schedstat") as fh:
            ran, waited, _ = fh.read().split()
            return int(ran), int(waited)
    except (OSError, ValueError):
        return 0, 0


def others_cpu() -> int:
    """Nanoseconds every thread but the loop's ran so far."""
    return sum(schedstat(t)[0] for t in os.listdir("/proc/self/task") if int(t) != os.getpid())


def stack_of(frame: Any) -> str:
    """A frame's stack, outermost first, as ``name (file:line)`` joined by ``;``."""
    names = []
    while frame is not None:
        code = frame.f_code
        names.append(f"{code.co_name} ({os.path.basename(code.co_filename)}:{frame.f_lineno})")
        frame = frame.f_back
    return ";".join(reversed(names))


def callback_name(handle: Any) -> str:
    """What a loop handle runs: a task's coroutine, else the callback's name."""
    callback = handle._callback
    owner = getattr(callback, "__self__", None)
    if isinstance(owner, asyncio.Task):
        return "task:" + getattr(owner.get_coro(), "__qualname__", "?")
    return str(getattr(callback, "__qualname__", repr(callback)))


def probe_writer(cls: Any, probe: Probe) -> None:
    """Time each commit of ``cls`` (``SqliteWriter``) whole and in its parts."""
    write, transaction = cls.write, cls._transaction
    local = threading.local()

    def timed_transaction(self: Any, games: Any) -> Any:
        rec = local.rec = getattr(local, "next", {})
        rec["start"], cpu = time.perf_counter(), time.thread_time()
        db = self._connect()
        if not getattr(self, "_traced", False):
            def traced(sql: str) -> None:
                if sql == "COMMIT":
                    local.rec["commit"] = time.perf_counter()
            db.set_trace_callback(traced)
            self._traced = True
        mtime = os.stat(self.path).st_mtime_ns
        try:
            return transaction(self, games)
        finally:
            rec["end"], rec["cpu"] = time.perf_counter(), time.thread_time() - cpu
            rec["checkpoint"] = os.stat(self.path).st_mtime_ns != mtime

    async def timed_write(self: Any, games: Any) -> Any:
        began = time.perf_counter()
        rec: dict[str, Any] = {}

        def run(batch: Any) -> Any:
            local.next = rec
            return timed_transaction(self, batch)

        try:
            return await asyncio.get_running_loop().run_in_executor(self._thread, run, games)
        finally:
            done = time.perf_counter()
            if probe.measuring(began):
                with probe.lock:
                    probe.commits.append((len(games), done - began))
                    if "end" in rec:
                        commit = rec.get("commit", rec["end"])
                        probe.parts.append((
                            len(games), rec["start"] - began, commit - rec["start"],
                            rec["end"] - commit, done - rec["end"], rec["cpu"],
                            rec["checkpoint"]))

    assert write is not None
    cls._transaction = timed_transaction
    cls.write = timed_write
    cls._probed = True


def install(probe: Probe) -> None:
    """Start the watchdog and the reports; time callbacks with ``STALL_PROBE_ITER=1``."""
    runner_run = asyncio.Runner.run

    def run(self: asyncio.Runner, coro: Any, **kwargs: Any) -> Any:
        loop = self.get_loop()
        loop.call_soon(probe.tick, loop)
        writer = sys.modules.get("euchre.storage.sqlite_writer")
        if writer is not None and not hasattr(writer.SqliteWriter, "_probed"):
            probe_writer(writer.SqliteWriter, probe)
        return runner_run(self, coro, **kwargs)

    asyncio.Runner.run = run  # type: ignore[method-assign]
    if os.environ.get("STALL_PROBE_ITER") == "1":
        import asyncio.base_events as base_events
        import asyncio.events as events

        handle_run = events.Handle._run
        run_once = base_events.BaseEventLoop._run_once  # type: ignore[attr-defined]

        def timed_run(self: Any) -> None:
            began = time.thread_time()
            handle_run(self)
            probe.ran(callback_name(self), time.thread_time() - began)

        def counted_run_once(self: Any) -> None:
            probe.iteration_over()
            run_once(self)

        events.Handle._run = timed_run  # type: ignore[method-assign]
        base_events.BaseEventLoop._run_once = counted_run_once  # type: ignore[attr-defined]
        import uvicorn

        uvicorn.Config.get_loop_factory = lambda self: None  # type: ignore[method-assign]

    def report() -> None:
        while True:
            time.sleep(5)
            probe.write()

    gc.callbacks.append(probe.collected)
    if os.environ.get("STALL_PROBE_GC") == "off":
        gc.disable()
    threading.Thread(target=probe.watch, daemon=True).start()
    threading.Thread(target=report, daemon=True).start()
    atexit.register(probe.write)


if os.environ.get("STALL_PROBE") and (
        "serve" in sys.argv or os.environ.get("STALL_PROBE_CLIENT") == "1"):
    install(Probe(os.environ["STALL_PROBE"]))
