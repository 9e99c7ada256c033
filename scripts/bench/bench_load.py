"""Load benchmark: many practice tables played over real WebSockets against one server process.

Starts ``euchre serve`` (uvicorn, one worker) on a free loopback port with a short bot
delay, opens N practice tables (medium computers), plays the person's seat of each with
random legal moves, and measures the time from sending a move to receiving the event
that applies it. Prints p50/p90/p99/max latency and moves per second. Bounded in time.

Usage: python scripts/bench/bench_load.py [--tables 200] [--duration 30] [--bot-delay 0.05]
       [--database-url URL] [--url http://127.0.0.1:PORT (use a running server)]
       [--clients N]

Where a move's latency goes (one server): the client prints how late its own loop ran a
5 ms timer while measuring (a message from the server waits for the client's loop too), and
from the server's ``/metrics`` how late the server's loop ran its timer
(``euchre_loop_lag_seconds``) and how long a save took (``euchre_save_seconds``).
``--clients N`` splits the players over N client processes, so one client's queueing can
be told from the server's.

Scale-out: ``--processes 1 2 --tables 100 200 300 --database-url
postgresql+asyncpg://.../postgres`` runs every table count against one site of each number
of ``euchre serve`` processes (a fresh PostgreSQL database and a throwaway redis-server per
run, unless ``--redis-url`` names one) and prints, per process count, the most tables
served with p99 move-to-update <= --p99-ms, with what the site did per person move:
client messages relayed between processes (``euchre_relayed_messages_total``), Redis
commands (by command) and database commits. ``--route table`` (the default) sends
requests as ``deploy/nginx.conf`` does: a table's socket to one process chosen by hashing
the table's id, requests about no table (opening one) to any process, so a practice table
opened at one process moves once to its socket's (the handover) and is never relayed;
``--route opener`` sends a table's socket to the process that opened it (no handover: what
handing the opener's address back to the client would do); ``--route random`` sends
every request and socket to a process chosen at random (a
round-robin proxy: a socket that reaches a process not running its table is relayed).

The client collects its garbage once every table is open and runs without its cycle
collector until the run is over, so its own pauses do not count as the server's latency.

Opening: ``--open-rate R`` starts the players R a second (default 100), so a thousand
tables are not all asked for in the same instant; the warm-up starts once every player's
table is open (at most ``OPEN_GRACE`` seconds after the last start), so the measured
seconds hold no opening.

Profiling: ``--profile DIR`` samples every server with py-spy (the dev extra) during the
measured seconds, writes each run's stacks to DIR and prints where the servers' CPU went
(the functions most often on the stack, and most often running themselves).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from euchre.table.actor.delta import Folder

_FOLDERS: dict[int, Folder] = {}


def folded_table(ws: object, m: dict[str, Any]) -> dict[str, Any] | None:
    """The table ``ws``'s messages fold to after ``m`` (protocol 2: a snapshot, then each
    event's changes), or None before a snapshot or for any other message."""
    if m.get("type") not in ("snapshot", "event"):
        return None
    folder = _FOLDERS.setdefault(id(ws), Folder())
    if m["type"] == "event" and folder.table is None:
        return None
    folder.receive(m)
    return folder.table


@dataclass
class Stats:
    """What the players measured."""

    latencies: list[float] = field(default_factory=list)
    """Seconds from sending a move to receiving its event."""
    messages: int = 0
    """Messages received."""
    bytes: int = 0
    """Bytes received."""
    games: int = 0
    """Games played to the end."""
    tables: int = 0
    """Tables opened."""
    errors: list[str] = field(default_factory=list)
    """Unexpected errors (illegal moves, dropped sockets)."""
    measuring: bool = False
    """False during the warm-up: nothing is counted."""
    elapsed: float = 0.0
    """Seconds measured."""
    server_cpu: float | None = None
    """Server CPU seconds used while measuring."""
    server_threads: dict[tuple[int, str], float] = field(default_factory=dict)
    """Server CPU seconds used while measuring by (process number, thread name)."""
    counts: dict[str, int] = field(default_factory=dict)
    """What the site's Redis and database did while measuring (commands, commits)."""
    open_failures: int = 0
    """Tables that could not be opened or connected to (the request or the socket's
    handshake failed or timed out); each player then opens another."""
    client_lag: list[float] = field(default_factory=list)
    """While measuring: how much later than due the client's own loop ran a 5 ms timer. A
    server's message waits for the client's loop the same way, so this is the part of the
    latencies that is the benchmark's client, not the server."""
    client_cpu: float = 0.0
    """The client's CPU seconds while measuring (every client process's)."""
    opened_measuring: int = 0
    """Tables opened while measuring (a game over, or a table that failed to open)."""
    playing: int = 0
    """Players whose first table is open."""
    opening: float = 0.0
    """Seconds from the first player's start until every player's table was open."""
    stop_at: float = math.inf
    """When the players stop (monotonic clock): set once every table is open."""
    scraped: tuple[str, str] | None = None
    """The server's ``/metrics`` before and after the measured seconds (one process)."""


Route = Callable[[str | None], str]
"""The process (its base URL) a request goes to: for a table's socket, given its id."""


def router(bases: list[str], how: str, rng: random.Random) -> Route:
    """Where requests go. ``table``: as ``deploy/nginx.conf`` sends them: everything about a
    table to the process its id hashes to (nginx's ``hash ... consistent`` picks another
    process than this CRC, but as there, one id always reaches one process), the rest to any
    process; ``opener``: a table's socket to the process that opened it (as if the opener's
    address were handed back to the client: no table is handed over), the rest to any
    process; ``random``: every request and socket to a process chosen at random. One
    router serves one player, who opens a table and then connects to it."""
    opened: list[str] = []

    def route(table_id: str | None) -> str:
        if how == "table" and table_id is not None:
            return bases[zlib.crc32(table_id.encode()) % len(bases)]
        if how == "opener" and table_id is not None and opened:
            return opened[-1]
        opened[:] = [rng.choice(bases)]
        return opened[0]

    return route


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_cpu(pid: int) -> dict[str, float]:
    """User + system CPU seconds of each thread of a process so far, by thread name (threads
    of one name summed; the process's main thread is named ``main``); a thread that ended
    meanwhile is not counted (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            text = (task / "stat").read_text()
        except OSError:
            continue  # the thread ended
        name = "main" if task.name == str(pid) else text.split("(", 1)[1].rsplit(")", 1)[0]
        fields = text.rsplit(")", 1)[1].split()
        out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return out


def threads_cpu(pids: list[int]) -> dict[tuple[int, str], float]:
    """:func:`thread_cpu` of each process, keyed by (the process's number, thread name)."""
    return {(i, name): cpu for i, pid in enumerate(pids)
            for name, cpu in thread_cpu(pid).items()}


def free_port() -> int:
    """A free TCP port on loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def wait_healthy(base: str, timeout: float = 30.0) -> None:
    """Wait for ``/api/health`` to answer."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as client:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{base}/api/health")).status_code == 200:
                    return
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


HTTP_CONNECTIONS = 16
"""Requests the client has open at once (its pool's connections: plenty for 100 tables a
second). More players than that wait for a turn at a semaphore, not in the
pool's queue: httpcore scans its whole queue, and checks every connection with system
calls, for each request it starts or ends; with a thousand players queued on 64
connections that took most of the client's CPU and made it late for every socket."""


async def play_table(route: Route, http: httpx.AsyncClient, stats: Stats,
                     rng: random.Random, think: float,
                     go_on: bool = True, start_in: float = 0.0,
                     turns: asyncio.Semaphore | None = None) -> None:
    """Open practice tables one after another and play the person's seat until
    ``stats.stop_at`` (each request and socket to the process ``route`` picks), the first
    ``start_in``
    seconds from now; ``go_on``: send ``continue`` once each hand's result is shown, as a
    person pressing the result's button does; ``turns``: what a request waits for first."""
    await asyncio.sleep(start_in)
    playing = False
    while time.monotonic() < stats.stop_at:
        try:
            async with turns if turns is not None else contextlib.nullcontext():
                r = await http.post(f"{route(None)}/api/tables", json={"kind": "practice"})
            r.raise_for_status()
        except httpx.HTTPError:
            # Counted, and tried again a little later (a server busy opening hundreds).
            stats.open_failures += 1
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            continue
        table = r.json()
        stats.tables += 1
        stats.opened_measuring += stats.measuring
        ws_base = route(table["id"]).replace("http://", "ws://")
        try:
            opened = await connect(ws_base + table["ws"], max_size=2**20)
        except (OSError, TimeoutError, WebSocketException):
            stats.open_failures += 1  # as a failed opening: counted, and another table
            await asyncio.sleep(rng.uniform(0.5, 1.5))
            continue
        if not playing:
            playing = True
            stats.playing += 1
        async with opened as ws:
            await ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            sent_at: float | None = None
            while time.monotonic() < stats.stop_at:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(
                        0.1, min(5.0, stats.stop_at - time.monotonic())))
                except TimeoutError:
                    continue  # nothing came: go on unless time is up
                if stats.measuring:
                    stats.messages += 1
                    stats.bytes += len(raw)
                m = json.loads(raw)
                if m["type"] == "error":
                    stats.errors.append(m["message"])
                    sent_at = None
                    continue
                if m["type"] == "event" and m["event"]["kind"] == "action" \
                        and m["event"]["seat"] == 0 and sent_at is not None:
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                if m["type"] == "event" and m["event"]["kind"] == "hand_over" and go_on:
                    # A person who has read the result goes on (the result screen's button);
                    # without it a practice table holds each result for 4 s.
                    number = m["event"]["summary"]["hand_number"]
                    await ws.send(json.dumps({"type": "continue", "hand_number": number}))
                t = folded_table(ws, m)
                if t is None or m["version"] != t["version"] or sent_at is not None:
                    continue
                if t["game_over"]:
                    stats.games += stats.measuring
                    break
                legal = t["view"]["legal"] if t["view"] else []
                if legal and m["type"] == "event":
                    if think > 0:
                        pause = think * rng.uniform(0.5, 1.5)
                        await asyncio.sleep(min(pause, max(0.0, stats.stop_at
                                                           - time.monotonic())))
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))


def drive_part(kwargs: dict[str, Any], scrape_base: str | None) -> Stats:
    """One client process's share of the players (:func:`drive`'s ``kwargs``), reading the
    server's ``/metrics`` at ``scrape_base`` if given."""
    scrape = metrics_scraper(scrape_base) if scrape_base is not None else None
    return asyncio.run(drive(**kwargs, scrape=scrape))


def merged(parts: list[Stats]) -> Stats:
    """The client processes' figures as one (the first's server figures and time)."""
    total = parts[0]
    for other in parts[1:]:
        total.latencies += other.latencies
        total.client_lag += other.client_lag
        total.errors += other.errors
        total.messages += other.messages
        total.bytes += other.bytes
        total.games += other.games
        total.tables += other.tables
        total.open_failures += other.open_failures
        total.opened_measuring += other.opened_measuring
        total.client_cpu += other.client_cpu
    return total


def opening_seconds(tables: int, open_rate: float) -> float:
    """Seconds over which ``tables`` players start at ``open_rate`` a second (0: at once)."""
    return tables / open_rate if open_rate > 0 else 0.0


async def watch_client_lag(stats: Stats, every: float = 0.005) -> None:
    """Until cancelled: how much later than due this process's loop runs a timer, kept in
    ``stats`` while measuring."""
    while True:
        asked = time.perf_counter() + every
        await asyncio.sleep(every)
        if stats.measuring:
            stats.client_lag.append(max(0.0, time.perf_counter() - asked))


async def drive(bases: list[str], tables: int, duration: float, warmup: float, seed: int,
                think: float, server_pids: list[int], profile: Path | None = None,
                counters: Counters | None = None, go_on: bool = True,
                route: str = "table", open_rate: float = 0.0, part: int = 0,
                parts: int = 1, scrape: Scrape | None = None) -> Stats:
    """Run ``tables`` players, started ``open_rate`` a second (0: all at once); count only
    the ``duration`` seconds after the ``warmup`` that follows the opening of every
    player's table (and sample
    the servers' stacks then into ``profile``, a path prefix, if given, and read
    ``counters`` and ``scrape`` before and after). With ``parts`` > 1 this process runs
    only the players whose number modulo ``parts`` is ``part`` (each started when it would
    be with one process)."""
    stats = Stats()
    opening = opening_seconds(tables, open_rate)
    mine = len(range(part, tables, parts))
    limits = httpx.Limits(max_connections=HTTP_CONNECTIONS)
    routes = random.Random(seed - 1)
    turns = asyncio.Semaphore(HTTP_CONNECTIONS)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        players = asyncio.gather(
            *(play_table(router(bases, route, routes), http, stats,
                         random.Random(seed + i), think, go_on,
                         i / open_rate if open_rate > 0 else 0.0, turns)
              for i in range(part, tables, parts)),
            return_exceptions=True,
        )
        lag_watch = asyncio.create_task(watch_client_lag(stats))
        # The warm-up starts once every player's table is open (so no table opens while
        # measuring), or OPEN_GRACE seconds after the last start at the latest.
        began = time.monotonic()
        while stats.playing < mine and time.monotonic() < began + opening + OPEN_GRACE:
            await asyncio.sleep(0.05)
        stats.opening = time.monotonic() - began
        # The client's own collector pauses its loop, and every reply waiting then looks
        # late (700 ms at 3,000 players): collected now, then off until the run is over.
        gc.collect()
        gc.disable()
        stats.stop_at = time.monotonic() + warmup + duration
        await asyncio.sleep(warmup)
        spies = [start_spy(pid, duration, Path(f"{profile}-{i}.txt"))
                 for i, pid in enumerate(server_pids)] if profile is not None else []
        counts_before = await counters() if counters is not None else {}
        scraped_before = await scraped(scrape)
        cpu_before = sum(cpu_seconds(pid) for pid in server_pids)
        threads_before = threads_cpu(server_pids)
        client_before = time.process_time()
        started = time.perf_counter()
        stats.measuring = True
        await asyncio.sleep(duration)
        stats.measuring = False
        stats.elapsed = time.perf_counter() - started
        stats.client_cpu = time.process_time() - client_before
        if server_pids:
            stats.server_cpu = sum(cpu_seconds(pid) for pid in server_pids) - cpu_before
            stats.server_threads = {k: v - threads_before.get(k, 0.0)
                                    for k, v in threads_cpu(server_pids).items()}
        if counters is not None:
            counts_after = await counters()
            stats.counts = {k: v - counts_before.get(k, 0) for k, v in counts_after.items()}
        scraped_after = await scraped(scrape)
        if scraped_before is not None and scraped_after is not None:
            stats.scraped = (scraped_before, scraped_after)
        results = await players
        gc.enable()
        lag_watch.cancel()
    for spy in spies:
        await asyncio.to_thread(spy.wait)
    for res in results:
        if isinstance(res, BaseException):
            stats.errors.append(repr(res))
    return stats


OPEN_GRACE = 60.0
"""Seconds after the last player's start that the warm-up waits at most for every table to
be open."""

Counters = Callable[[], Awaitable[dict[str, int]]]
"""Reads running totals of the site's shared parts (Redis commands, database commits)."""

Scrape = Callable[[], Awaitable[str]]
"""Reads one server's ``/metrics`` text."""


async def scraped(scrape: Scrape | None) -> str | None:
    """What ``scrape`` reads, or None (none given, or the server did not answer: a server
    starved of CPU may not within the timeout; the run goes on without its figures)."""
    if scrape is None:
        return None
    try:
        return await scrape()
    except httpx.HTTPError as e:
        print(f"could not read the server's /metrics: {e!r}", file=sys.stderr)
        return None


def metrics_scraper(base: str) -> Scrape:
    """Reads ``base``'s ``/metrics`` (the benchmark's servers have its token)."""
    async def read() -> str:
        async with httpx.AsyncClient(timeout=30) as http:
            r = await http.get(f"{base}/metrics",
                               headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
            r.raise_for_status()
            return r.text

    return read


def histogram(text: str, name: str) -> dict[float, float]:
    """A Prometheus histogram's cumulative counts by upper bound (``inf`` the last)."""
    counts: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith(name + "_bucket{") and 'le="' in line:
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            counts[float(bound)] = float(line.rsplit(" ", 1)[1])
    return counts


def histogram_line(before: str, after: str, name: str) -> str:
    """What ``name`` observed between two scrapes: how many, the bucket bounds that hold
    its p50 and p99, and the share above 25 and 50 ms ("" if nothing was observed)."""
    was, now = histogram(before, name), histogram(after, name)
    counts = {bound: n - was.get(bound, 0.0) for bound, n in now.items()}
    total = counts.get(float("inf"), 0.0)
    if not total:
        return ""

    def at(p: float) -> str:
        bound = next(b for b in sorted(counts) if counts[b] >= p / 100 * total)
        return f"<= {bound * 1000:g} ms" if bound != float("inf") else "over the last bucket"

    over = "".join(f", over {ms} ms {1 - counts.get(ms / 1000, total) / total:.1%}"
                   for ms in (25, 50) if ms / 1000 in counts)
    return f"{total:.0f} observed, p50 {at(50)}, p99 {at(99)}{over}"


METRICS_TOKEN = "bench-load"
"""The ``/metrics`` token the benchmark's servers are started with (so it can read them)."""

REDIS_COMMANDS = ("evalsha", "publish", "mget", "get", "set", "incr", "expire", "pexpire")
"""Redis commands counted one by one per person move (the rest only in the total)."""


def metric_total(text: str, name: str) -> float:
    """The sum of every sample of ``name`` in Prometheus' text format."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and line[len(name):len(name) + 1] in (" ", "{"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def site_counters(redis_url: str, database_url: str, bases: list[str]) -> Counters:
    """What the site did so far: Redis's commands (counted by Redis, also by command), the
    benchmark database's commits (PostgreSQL's statistics may lag up to a second) and the
    client messages the processes relayed to each other (their ``/metrics``). Counted by
    the parts themselves, so unlike CPU time they do not vary with how busy the machine is."""
    from redis.asyncio import Redis
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    async def read() -> dict[str, int]:
        redis = Redis.from_url(redis_url)
        try:
            info = await redis.info("stats")
            by_command = await redis.info("commandstats")
        finally:
            await redis.aclose()
        engine = create_async_engine(database_url)
        try:
            async with engine.connect() as conn:
                commits, rollbacks = (await conn.execute(text(
                    "SELECT xact_commit, xact_rollback FROM pg_stat_database "
                    "WHERE datname = current_database()"))).one()
        finally:
            await engine.dispose()
        relayed = 0.0
        async with httpx.AsyncClient(timeout=30) as http:
            for base in bases:
                r = await http.get(f"{base}/metrics",
                                   headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
                r.raise_for_status()
                relayed += metric_total(r.text, "euchre_relayed_messages_total")
        counts = {"relayed messages": int(relayed),
                  "redis commands": int(info["total_commands_processed"]),
                  # what the processes sent Redis (relayed messages, leases, limits)
                  "redis bytes in": int(info["total_net_input_bytes"]),
                  "redis bytes out": int(info["total_net_output_bytes"])}
        for command in REDIS_COMMANDS:
            stat = by_command.get(f"cmdstat_{command}")
            counts[f"redis {command}"] = int(stat["calls"]) if stat else 0
        counts["database commits"] = int(commits)
        counts["database rollbacks"] = int(rollbacks)  # reads, and pings of pooled connections
        return counts

    return read


def start_spy(pid: int, duration: float, out: Path) -> subprocess.Popen[bytes]:
    """py-spy sampling process ``pid`` for ``duration`` seconds into ``out`` (raw stacks,
    without pausing the process)."""
    spy = Path(sys.executable).parent / "py-spy"
    return subprocess.Popen([str(spy), "record", "--pid", str(pid), "--duration",
                             str(max(1, round(duration))), "--rate", "200", "--nonblocking",
                             "--nolineno", "--format", "raw", "--output", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def profile_top(paths: list[Path], top: int = 25) -> str:
    """Where the sampled CPU went, over every file in ``paths`` (py-spy raw stacks): each
    function's share of the samples with it on the stack (inclusive) and running itself."""
    on_stack: Counter[str] = Counter()
    running: Counter[str] = Counter()
    total = 0
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            frames = stack.split(";")
            total += int(count)
            for frame in set(frames):
                on_stack[frame] += int(count)
            if frames:
                running[frames[-1]] += int(count)
    if not total:
        return "  (no samples)"
    rows = [f"  {total} samples; on the stack (inclusive):"]
    rows += [f"    {n / total:6.1%}  {f}" for f, n in on_stack.most_common(top)]
    rows.append("  running itself:")
    rows += [f"    {n / total:6.1%}  {f}" for f, n in running.most_common(top)]
    return "\n".join(rows)


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


async def _create_database(server_url: str, create: bool) -> str:
    """A fresh PostgreSQL database on the server of ``server_url`` (or drop it)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    url = make_url(server_url)
    name = f"euchre_bench_{os.getpid()}_{random.randrange(16**6):06x}" if create \
        else url.database
    engine = create_async_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            from sqlalchemy import text

            if create:
                await conn.execute(text(f'CREATE DATABASE "{name}"'))
            else:
                await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await engine.dispose()
    return url.set(database=name).render_as_string(hide_password=False)


def start_redis() -> tuple[str, subprocess.Popen[bytes]]:
    """A throwaway redis-server on a free port (so one run's rate-limit counters and
    leases never meet another's); its URL and process."""
    port = free_port()
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return f"redis://127.0.0.1:{port}/0", proc
        time.sleep(0.02)
    proc.kill()
    raise RuntimeError("redis-server did not start")


def start_site(processes: int, db: str, redis_url: str | None, tables: int,
               args: argparse.Namespace) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    """``processes`` ``euchre serve`` processes of one site; their processes and bases."""
    exe = Path(sys.executable).parent / "euchre"
    servers, bases = [], []
    for _ in range(processes):
        port = free_port()
        cmd = [str(exe), "serve", "--port", str(port), "--bot-delay", str(args.bot_delay),
               "--hand-pause", str(args.hand_pause), "--database-url", db,
               "--log-level", "warning", "--sockets-per-address", str(2 * tables + 10),
               "--tables-per-address", str(10 * tables + 10)]
        if redis_url:
            cmd += ["--redis-url", redis_url]
        servers.append(subprocess.Popen(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1",
                                                  "EUCHRE_METRICS_TOKEN": METRICS_TOKEN}))
        bases.append(f"http://127.0.0.1:{port}")
    return servers, bases


def stop_site(servers: list[subprocess.Popen[bytes]]) -> None:
    """Stop the processes (SIGTERM, then SIGKILL after 15 s)."""
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


def tables_before(counts: list[int], tables: int) -> int:
    """The table count run before ``tables`` (0 for the first)."""
    smaller = [c for c in counts if c < tables]
    return max(smaller) if smaller else 0


@dataclass
class SiteRun:
    """One table count against one site: what the players and the site's parts measured."""

    processes: int
    tables: int
    stats: Stats
    idle_empty: Counted
    """The site before any table opened."""
    idle_held: Counted
    """The site once the players left (their tables still held, in memory and leased)."""

    @property
    def moves(self) -> int:
        """Person moves measured."""
        return len(self.stats.latencies)

    @property
    def per_move(self) -> float | None:
        """Server CPU milliseconds per person move (None: no move)."""
        return (self.stats.server_cpu or 0.0) / self.moves * 1000 if self.moves else None


@dataclass
class Counted:
    """A quiet stretch of a site: its processes' CPU and what its Redis and database did."""

    seconds: float = 0.0
    cpu: list[float] = field(default_factory=list)
    """CPU seconds of each process."""
    counts: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        """The stretch in one line: each process's share of a core, Redis commands and
        database commits a second."""
        if not self.seconds:
            return "not measured"
        each = ", ".join(f"{c / self.seconds:.2%}" for c in self.cpu)
        rate = ", ".join(f"{self.counts.get(k, 0) / self.seconds:.1f} {k}"
                         for k in ("redis commands", "redis evalsha", "redis publish",
                                   "database commits"))
        return f"CPU of a core per process {each}; a second: {rate}"


async def counted(pids: list[int], seconds: float, counters: Counters) -> Counted:
    """The site's processes' CPU and its parts' counts over ``seconds`` of nothing asked."""
    if seconds <= 0:
        return Counted()
    before = await counters()
    cpu = [cpu_seconds(pid) for pid in pids]
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    cpu = [cpu_seconds(pid) - c for pid, c in zip(pids, cpu, strict=True)]
    elapsed = time.perf_counter() - started
    after = await counters()
    return Counted(elapsed, cpu, {k: v - before.get(k, 0) for k, v in after.items()})


def run_site(processes: int, tables: int, args: argparse.Namespace, label: str) -> SiteRun:
    """``tables`` players against a fresh site of ``processes`` processes (a new database,
    and a throwaway Redis unless one was named); the site's quiet CPU and counts are taken
    for ``args.idle`` seconds before any table opens and again after the players left."""
    db = asyncio.run(_create_database(args.database_url, True))
    redis_url, redis = args.redis_url, None
    if redis_url is None:
        redis_url, redis = start_redis()
    servers, bases = start_site(processes, db, redis_url, tables, args)
    pids = [s.pid for s in servers]
    try:
        for base in bases:
            asyncio.run(wait_healthy(base, 60))
        counters = site_counters(redis_url, db, bases)

        async def quiet(settle: float) -> Counted:
            await asyncio.sleep(settle)
            return await counted(pids, args.idle, counters)

        idle_empty = asyncio.run(quiet(1.0))
        prefix = Path(args.profile) / f"p{processes}-t{tables}{label}" if args.profile else None
        stats = asyncio.run(drive(bases, tables, args.duration, args.warmup, args.seed,
                                  args.think, pids, prefix, counters, not args.no_continue,
                                  args.route, args.open_rate))
        idle_held = asyncio.run(quiet(2.0))  # the computers' last turns before it
    finally:
        stop_site(servers)
        asyncio.run(_create_database(db, False))
        if redis is not None:
            redis.kill()
            redis.wait()
    return SiteRun(processes, tables, stats, idle_empty, idle_held)


def report_run(run: SiteRun, args: argparse.Namespace) -> None:
    """Print one run: latency, CPU, what the site did per person move, CPU by thread, and
    the quiet stretches."""
    stats, lat = run.stats, [x * 1000 for x in run.stats.latencies]
    p99 = percentile(lat, 99) if lat else float("inf")
    cpu = stats.server_cpu or 0.0
    ok = p99 <= args.p99_ms and not stats.errors
    print(f"processes {run.processes} tables {run.tables}: {len(lat)} moves "
          f"({len(lat) / stats.elapsed:.0f}/s), p50 "
          f"{percentile(lat, 50) if lat else float('nan'):.1f} ms, p99 {p99:.1f} ms, "
          f"server CPU {cpu / stats.elapsed:.0%} of one core "
          f"({cpu / max(1, len(lat)) * 1000:.2f} ms per person move), client CPU "
          f"{stats.client_cpu / stats.elapsed:.0%}, load "
          f"{os.getloadavg()[0]:.1f}, route {args.route}, tables opened "
          f"{stats.tables} ({stats.open_failures} failed), errors {len(stats.errors)}"
          + (f" (first: {stats.errors[0][:120]})" if stats.errors else "")
          + ("" if ok else "  <- over the target"), flush=True)
    if stats.counts and lat:
        print("  per person move: " + ", ".join(
            f"{n / len(lat):.3f} {what}" for what, n in stats.counts.items()
            if n or not what.startswith("redis ")), flush=True)
    if stats.server_threads and lat:
        for i in range(run.processes):
            mine = {name: c for (k, name), c in stats.server_threads.items() if k == i}
            rest = sorted(((c, n) for n, c in mine.items() if n != "main"), reverse=True)
            print(f"  process {i + 1}: {sum(mine.values()) / stats.elapsed:.0%} of a core, "
                  f"ms per person move (of all): main thread "
                  f"{mine.get('main', 0.0) / len(lat) * 1000:.3f}, other threads "
                  f"{sum(c for c, _ in rest) / len(lat) * 1000:.3f}"
                  + (" (" + ", ".join(f"{n} {c / len(lat) * 1000:.3f}"
                                      for c, n in rest[:3] if c) + ")" if rest else ""),
                  flush=True)
    print(f"  quiet, before any table: {run.idle_empty.line()}", flush=True)
    print(f"  quiet, after the players left ({stats.tables} tables held): "
          f"{run.idle_held.line()}", flush=True)


def scale_out(args: argparse.Namespace) -> int:
    """Every table count against a site of each process count, ``args.runs`` times (the
    process counts alternated, in turned order each run); the most tables each served
    within the p99 target, and each run's CPU per person move against the first process
    count's, with the median over the runs."""
    if not (args.database_url or "").startswith("postgresql"):
        print("--processes needs a PostgreSQL --database-url", file=sys.stderr)
        return 2
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    runs: list[dict[tuple[int, int], SiteRun]] = []
    for r in range(args.runs):
        label = f"-r{r + 1}" if args.runs > 1 else ""
        done: dict[tuple[int, int], SiteRun] = {}
        for tables in sorted(args.tables):
            # Every other run starts with the last process count, so neither count always
            # runs first (the machine's load drifts).
            order = args.processes if r % 2 == 0 else args.processes[::-1]
            for processes in order:
                if args.runs > 1:
                    print(f"run {r + 1}:", end=" ")
                run = run_site(processes, tables, args, label)
                report_run(run, args)
                if args.profile:
                    print(profile_top([Path(f"{args.profile}/p{processes}-t{tables}{label}"
                                            f"-{i}.txt") for i in range(processes)]),
                          flush=True)
                done[processes, tables] = run
        runs.append(done)
    summarize(runs, args)
    return 0


def summarize(runs: list[dict[tuple[int, int], SiteRun]], args: argparse.Namespace) -> None:
    """The most tables within the p99 target (first run), and per table count each run's
    CPU per person move against the first process count's with the median ratio; the
    counted figures (commits, Redis round trips per person move; quiet CPU), median over
    the runs."""
    best: dict[int, int] = {}
    first_run = runs[0]
    for processes in args.processes:
        for tables in sorted(args.tables):
            run = first_run.get((processes, tables))
            if run is None or not run.moves:
                continue
            p99 = percentile([x * 1000 for x in run.stats.latencies], 99)
            ok = p99 <= args.p99_ms and not run.stats.errors
            if ok and best.get(processes, 0) == tables_before(args.tables, tables):
                best[processes] = tables  # every smaller count was within the target too
    print(f"most tables with p99 <= {args.p99_ms:.0f} ms and no errors: " + ", ".join(
        f"{p} process{'es' if p > 1 else ''}: {best.get(p, 0)}" for p in args.processes))
    if len(args.processes) > 1 and best.get(args.processes[0]):
        ratio = best.get(args.processes[-1], 0) / best[args.processes[0]]
        print(f"ratio {args.processes[-1]} to {args.processes[0]}: {ratio:.2f}x")
    first = args.processes[0]

    def med(values: list[float]) -> float:
        return statistics.median(values) if values else float("nan")

    for tables in sorted(args.tables):
        print(f"{tables} tables, medians over {len(runs)} run{'s' if len(runs) > 1 else ''}:")
        for processes in args.processes:
            sites = [d[processes, tables] for d in runs if (processes, tables) in d
                     and d[processes, tables].moves]
            if not sites:
                continue

            def per_move(what: str, sites: list[SiteRun] = sites) -> float:
                return med([s.stats.counts.get(what, 0) / s.moves for s in sites])

            empty = med([c / s.idle_empty.seconds for s in sites if s.idle_empty.seconds
                         for c in s.idle_empty.cpu])
            held = med([c / s.idle_held.seconds for s in sites if s.idle_held.seconds
                        for c in s.idle_held.cpu])
            print(f"  {processes} process{'es' if processes > 1 else ''}: "
                  f"{med([s.per_move or 0.0 for s in sites]):.2f} ms server CPU per person "
                  f"move ({', '.join(f'{s.per_move:.2f}' for s in sites)}); per person move "
                  f"{per_move('database commits'):.3f} commits, "
                  f"{per_move('redis commands'):.3f} Redis commands "
                  f"({per_move('redis evalsha'):.3f} evalsha, {per_move('redis set'):.3f} "
                  f"set, {per_move('redis publish'):.3f} publish), "
                  f"{per_move('relayed messages'):.3f} relayed messages, "
                  f"{per_move('redis bytes in'):.0f} B in and "
                  f"{per_move('redis bytes out'):.0f} B out of Redis; quiet CPU per process "
                  f"{empty:.2%} with no table, {held:.2%} with the tables held")
        for processes in args.processes[1:]:
            ratios = [(d[processes, tables].per_move or 0.0) / (d[first, tables].per_move or 1.0)
                      for d in runs if d.get((processes, tables)) and d.get((first, tables))
                      and d[processes, tables].per_move and d[first, tables].per_move]
            if ratios:
                print(f"  server CPU per person move, {processes} processes against {first}: "
                      + ", ".join(f"{x:.2f}x" for x in ratios)
                      + (f"; median {med(ratios):.2f}x" if len(ratios) > 1 else ""))


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[200],
                        help="concurrent tables (with --processes: each count in turn)")
    parser.add_argument("--processes", type=int, nargs="+", default=None,
                        help="scale-out: sites of these numbers of processes")
    parser.add_argument("--redis-url", default=None,
                        help="with --processes: the site's Redis (default: a throwaway "
                             "redis-server per run)")
    parser.add_argument("--runs", type=int, default=1,
                        help="with --processes: run every site this many times, the process "
                             "counts alternated, and print each run's ratio and the median")
    parser.add_argument("--idle", type=float, default=5.0, metavar="SECONDS",
                        help="with --processes: measure each site's CPU, Redis commands and "
                             "commits this long before any table and after the players left "
                             "(0: not)")
    parser.add_argument("--p99-ms", type=float, default=100.0,
                        help="with --processes: the p99 target of move-to-update")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of play before measuring (tables opening)")
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--hand-pause", type=float, default=0.2)
    parser.add_argument("--database-url", default=None,
                        help="default: a fresh SQLite file in a temporary folder")
    parser.add_argument("--url", default=None, help="use a server already running here")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="with --processes: sample the servers with py-spy while "
                             "measuring, keep the stacks in DIR and print the top costs")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds the simulated person waits before each move")
    parser.add_argument("--route", choices=("table", "opener", "random"), default="table",
                        help="with --processes: table (default): each table's socket to the "
                             "process its id hashes to, as deploy/nginx.conf; opener: to the "
                             "process that opened it (no handover); random: every "
                             "request and socket to any process (sockets relayed)")
    parser.add_argument("--open-rate", type=float, default=100.0,
                        help="players started a second (each opens its table; 0: all at "
                             "once); the warm-up begins once every table is open")
    parser.add_argument("--clients", type=int, default=1,
                        help="client processes the players are split over (one server): "
                             "how much of the latency is one client's own queueing")
    parser.add_argument("--no-continue", action="store_true",
                        help="never send continue: each hand's result is held (4 s at "
                             "practice tables) before the next deal")
    args = parser.parse_args()
    if args.processes:
        return scale_out(args)
    args.tables = args.tables[0]

    server: subprocess.Popen[bytes] | None = None
    cpu: float | None = None
    client_cpu = 0.0
    tmp = tempfile.TemporaryDirectory()
    base = args.url
    if base is None:
        port = free_port()
        db = args.database_url or f"sqlite+aiosqlite:///{tmp.name}/bench.db"
        exe = Path(sys.executable).parent / "euchre"
        cmd = [str(exe), "serve", "--port", str(port), "--bot-delay", str(args.bot_delay),
               "--hand-pause", str(args.hand_pause), "--database-url", db,
               "--log-level", "warning", "--sockets-per-address", str(2 * args.tables + 10),
               "--tables-per-address", str(10 * args.tables + 10)]
        server = subprocess.Popen(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1",
                                            "EUCHRE_METRICS_TOKEN": METRICS_TOKEN})
        base = f"http://127.0.0.1:{port}"
    prefix = None
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
        prefix = Path(args.profile) / f"p1-t{args.tables}"
    try:
        asyncio.run(wait_healthy(base))
        client_cpu = time.process_time()
        common = {"bases": [base], "tables": args.tables, "duration": args.duration,
                  "warmup": args.warmup, "seed": args.seed, "think": args.think,
                  "go_on": not args.no_continue, "open_rate": args.open_rate,
                  "parts": args.clients}
        # The first part reads the server's CPU, /metrics and stacks; every part plays.
        first = {"server_pids": [server.pid] if server is not None else [],
                 "profile": prefix if server is not None else None}
        scrape_base = base if server is not None else None
        if args.clients > 1:
            with multiprocessing.get_context("fork").Pool(args.clients) as pool:
                stats = merged(pool.starmap(drive_part, [
                    ({**common, **(first if k == 0 else {"server_pids": []}), "part": k},
                     scrape_base if k == 0 else None) for k in range(args.clients)]))
        else:
            stats = drive_part({**common, **first}, scrape_base)
        client_cpu = time.process_time() - client_cpu
        elapsed = stats.elapsed
        cpu = stats.server_cpu
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        tmp.cleanup()
    lat = [x * 1000 for x in stats.latencies]
    print(f"tables: {args.tables} concurrent ({stats.tables} opened in {stats.opening:.1f} s, "
          f"{stats.opened_measuring} of them while measuring, {stats.open_failures} "
          f"failed to open, {stats.games} games finished), bot delay {args.bot_delay} s, "
          f"think {args.think} s, {elapsed:.1f} s measured after {args.warmup} s warm-up "
          f"(players started {args.open_rate:g} a second before it)")
    if lat:
        print(f"moves: {len(lat)} ({len(lat) / elapsed:.0f} person moves/s); "
              f"messages received: {stats.messages} ({stats.messages / elapsed:.0f}/s, "
              f"{stats.bytes / elapsed / 1e6:.1f} MB/s)")
        print(f"move -> update latency ms: p50 {percentile(lat, 50):.1f}  "
              f"p90 {percentile(lat, 90):.1f}  p99 {percentile(lat, 99):.1f}  "
              f"max {max(lat):.1f}  mean {statistics.fmean(lat):.1f}")
    if cpu is not None:
        per = f", {cpu / stats.messages * 1000:.2f} ms per message sent" if stats.messages else ""
        if lat:
            per += f", {cpu / len(lat) * 1000:.2f} ms per person move"
        print(f"server CPU: {cpu:.1f} s in {elapsed:.1f} s ({cpu / elapsed:.0%} of one core){per}")
    if args.clients == 1:
        print(f"benchmark client CPU: {client_cpu:.1f} s over the whole run")
    print(f"benchmark client CPU while measuring: {stats.client_cpu / elapsed:.0%} of one core "
          f"({args.clients} process{'es' if args.clients > 1 else ''})")
    if stats.client_lag:
        lag = [x * 1000 for x in stats.client_lag]
        print(f"benchmark client's own loop lag ms (a 5 ms timer, how late it ran; a message "
              f"waits so too): p50 {percentile(lag, 50):.1f}  p90 {percentile(lag, 90):.1f}  "
              f"p99 {percentile(lag, 99):.1f}  max {max(lag):.1f}")
    if stats.scraped is not None:
        for name, what in (("euchre_loop_lag_seconds", "server's loop lag (its own timer "
                                                       "every 100 ms, how late it ran)"),
                           ("euchre_save_seconds", "server's save time (a table's save, "
                                                   "asked to stored, at the table)")):
            line = histogram_line(*stats.scraped, name)
            if line:
                print(f"{what}: {line}")
    load = os.getloadavg()[0]
    print(f"machine load average (1 min) at the end: {load:.1f} on {os.cpu_count()} cores")
    print(f"errors: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors
                                            else ""))
    if prefix is not None:
        print("where the server's CPU went:")
        print(profile_top([Path(f"{prefix}-0.txt")]))
    return 0 if lat and not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
