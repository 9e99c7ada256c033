"""Load benchmark: many practice tables played over real WebSockets against one server process.

Starts ``euchre serve`` (uvicorn, one worker) on a free loopback port with a short bot
delay, opens N practice tables (medium computers), plays the person's seat of each with
random legal moves, and measures the time from sending a move to receiving the event
that applies it. Prints p50/p90/p99/max latency and moves per second. Bounded in time.

Usage: python scripts/bench_load.py [--tables 200] [--duration 30] [--bot-delay 0.05]
       [--database-url URL] [--url http://127.0.0.1:PORT (use a running server)]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


async def play_table(base: str, http: httpx.AsyncClient, stats: Stats, stop_at: float,
                     rng: random.Random, think: float) -> None:
    """Open practice tables one after another and play the person's seat until time is up."""
    ws_base = base.replace("http://", "ws://")
    while time.monotonic() < stop_at:
        r = await http.post(f"{base}/api/tables", json={"kind": "practice"})
        r.raise_for_status()
        table = r.json()
        stats.tables += 1
        async with connect(ws_base + table["ws"], max_size=2**20) as ws:
            await ws.send(json.dumps({"type": "join", "token": table["token"]}))
            sent_at: float | None = None
            while time.monotonic() < stop_at:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop_at -
                                                                        time.monotonic()))
                except TimeoutError:
                    return
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
                t = m.get("table")
                if t is None or m["version"] != t["version"] or sent_at is not None:
                    continue
                if t["game_over"]:
                    stats.games += stats.measuring
                    break
                legal = t["view"]["legal"] if t["view"] else []
                if legal and m["type"] == "event":
                    if think > 0:
                        pause = think * rng.uniform(0.5, 1.5)
                        await asyncio.sleep(min(pause, max(0.0, stop_at - time.monotonic())))
                    sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))


async def drive(base: str, tables: int, duration: float, warmup: float, seed: int,
                think: float, server_pid: int | None) -> Stats:
    """Run ``tables`` players; count only the ``duration`` seconds after ``warmup``."""
    stats = Stats()
    stop_at = time.monotonic() + warmup + duration
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        players = asyncio.gather(
            *(play_table(base, http, stats, stop_at, random.Random(seed + i), think)
              for i in range(tables)),
            return_exceptions=True,
        )
        await asyncio.sleep(warmup)
        cpu_before = cpu_seconds(server_pid) if server_pid is not None else 0.0
        started = time.perf_counter()
        stats.measuring = True
        await asyncio.sleep(duration)
        stats.measuring = False
        stats.elapsed = time.perf_counter() - started
        if server_pid is not None:
            stats.server_cpu = cpu_seconds(server_pid) - cpu_before
        results = await players
    for res in results:
        if isinstance(res, BaseException):
            stats.errors.append(repr(res))
    return stats


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank)."""
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def main() -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=5.0,
                        help="seconds of play before measuring (tables opening)")
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--hand-pause", type=float, default=0.2)
    parser.add_argument("--database-url", default=None,
                        help="default: a fresh SQLite file in a temporary folder")
    parser.add_argument("--url", default=None, help="use a server already running here")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds the simulated person waits before each move")
    args = parser.parse_args()

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
        server = subprocess.Popen(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        base = f"http://127.0.0.1:{port}"
    try:
        asyncio.run(wait_healthy(base))
        client_cpu = time.process_time()
        stats = asyncio.run(drive(base, args.tables, args.duration, args.warmup, args.seed,
                                  args.think, server.pid if server is not None else None))
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
    print(f"tables: {args.tables} concurrent ({stats.tables} opened, {stats.games} games "
          f"finished), bot delay {args.bot_delay} s, think {args.think} s, "
          f"{elapsed:.1f} s measured after {args.warmup} s warm-up")
    if lat:
        print(f"moves: {len(lat)} ({len(lat) / elapsed:.0f} person moves/s); "
              f"messages received: {stats.messages} ({stats.messages / elapsed:.0f}/s, "
              f"{stats.bytes / elapsed / 1e6:.1f} MB/s)")
        print(f"move -> update latency ms: p50 {percentile(lat, 50):.1f}  "
              f"p90 {percentile(lat, 90):.1f}  p99 {percentile(lat, 99):.1f}  "
              f"max {max(lat):.1f}  mean {statistics.fmean(lat):.1f}")
    if cpu is not None:
        per = f", {cpu / stats.messages * 1000:.2f} ms per message sent" if stats.messages else ""
        print(f"server CPU: {cpu:.1f} s in {elapsed:.1f} s ({cpu / elapsed:.0%} of one core){per}")
    print(f"benchmark client CPU: {client_cpu:.1f} s over the whole run")
    load = os.getloadavg()[0]
    print(f"machine load average (1 min) at the end: {load:.1f} on {os.cpu_count()} cores")
    print(f"errors: {len(stats.errors)}" + (f" (first: {stats.errors[0]})" if stats.errors
                                            else ""))
    return 0 if lat and not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
