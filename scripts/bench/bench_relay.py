"""Two processes against one where sockets are relayed: online tables whose people reached
different processes.

Starts a site of ``--processes`` ``euchre serve`` processes sharing a fresh PostgreSQL
database and a throwaway redis-server, and plays ``--tables`` online tables at once, each
with four people and one spectator over real sockets, one whole game each (random legal
moves, ``--think`` seconds on average before each). Socket i of a table (seats 0-3, then
the spectator) goes to process ``i % P``. A table runs where its first socket landed
(docs/scaling.md "Handover before relaying"): seat 1 joins first, so with two processes the
table runs at process 1 and the sockets of seats 0 and 2 and the spectator's are relayed to
it through Redis (three of five; with one process, none). Measures, per person move: the
processes' CPU (summed, ``/proc``, from the first socket, every table open and started,
until every game is over; opening the tables is counted apart), the client messages they
relayed (``euchre_relayed_messages_total``), the bytes Redis received and sent (``INFO
stats``) and its own CPU, database commits, and the text the five sockets received (the
WebSocket library's text, UTF-8 bytes, no compression)::

    .venv/bin/python scripts/bench/bench_relay.py --processes 1 2 --tables 40 --runs 3 \\
        --tree /work/wt-before --tree .

``--tree PATH`` (repeatable) serves from that tree's ``.venv/bin/euchre``; the runs alternate
trees and process counts, and the summary compares the medians (each run's lines also give a
move's answer time, p50 and p99). ``--profile DIR`` samples every server with py-spy and
prints where the CPU went. The client speaks the protocol the server's ``/asyncapi.json``
describes: protocol 2 (small versioned events, ``"protocol": 2`` with ``join``; the table
folded with ``Folder``) or the one before it (each event with the seat's whole table, a36b536).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from bench_load import (
    METRICS_TOKEN,
    _create_database,
    cpu_seconds,
    free_port,
    profile_top,
    site_counters,
    start_redis,
    start_spy,
    stop_site,
)
from bench_socket_bytes import wait_healthy  # /healthz: a path both trees serve
from websockets.asyncio.client import ClientConnection, connect

from euchre.table.actor.delta import Folder

ROOT = Path(__file__).resolve().parents[2]
"""This tree (the default ``--tree``)."""

WAIT = 120.0
"""Seconds a socket waits for its next message before its table is called stalled."""

FIRST = 1
"""The seat whose socket joins first, so its process (``FIRST % P``) runs the table."""


@dataclass
class Socket:
    """What one socket received and sent."""

    bytes: int = 0
    messages: int = 0
    moves: int = 0
    answers: list[float] = field(default_factory=list)
    """Seconds from sending each move to the message that answered it."""


@dataclass
class Played:
    """What the clients of every table counted."""

    sockets: list[Socket] = field(default_factory=list)
    games: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def moves(self) -> int:
        """Person moves made."""
        return sum(s.moves for s in self.sockets)


async def receive(ws: ClientConnection, count: Socket) -> dict[str, Any]:
    """The next message (decoded), counted; an ``error`` raises."""
    raw = await asyncio.wait_for(ws.recv(), WAIT)
    text = raw if isinstance(raw, str) else raw.decode()
    count.bytes += len(text.encode())
    count.messages += 1
    m: dict[str, Any] = json.loads(text)
    if m.get("type") == "error":
        raise RuntimeError(f"the server refused: {m}")
    return m


async def person(url: str, token: str, rng: random.Random, think: float, protocol: int,
                 count: Socket, joined: asyncio.Event) -> None:
    """Join with ``token`` (``joined`` is set once the table came) and play random legal
    moves until game over. A move is sent from a table settled at a message's version, once
    the last move was answered: protocol 2 answers with a ``you`` on the move's first
    event, the old protocol with the seat's own ``action`` event."""
    folder = Folder()
    async with connect(url, compression=None, max_size=2**22) as ws:
        join: dict[str, Any] = {"type": "join", "token": token}
        if protocol == 2:
            join["protocol"] = 2
        await ws.send(json.dumps(join))
        answered = True
        sent = 0.0
        table: dict[str, Any] | None = None
        while True:
            m = await receive(ws, count)
            waiting = not answered
            if protocol == 2:
                folder.receive(m)
                table = folder.table
                answered = answered or "you" in m
            elif m["type"] in ("snapshot", "event"):
                table = m["table"]
                event = m.get("event") or {}
                answered = answered or (event.get("kind") == "action"
                                        and event.get("seat") == table["seat"])
            if waiting and answered:
                count.answers.append(time.perf_counter() - sent)
            if table is None:
                continue
            joined.set()
            if m.get("version") != table["version"]:
                continue
            if table["game_over"]:
                return
            legal = table["view"]["legal"] if table["view"] else []
            if legal and answered:
                if think > 0:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
                sent = time.perf_counter()
                count.moves += 1
                answered = False


async def spectator(url: str, protocol: int, count: Socket) -> None:
    """Watch until game over (nothing folded: only counted)."""
    async with connect(url, compression=None, max_size=2**22) as ws:
        watch: dict[str, Any] = {"type": "watch"}
        if protocol == 2:
            watch["protocol"] = 2
        await ws.send(json.dumps(watch))
        while True:
            m = await receive(ws, count)
            if (m.get("event") or {}).get("kind") == "game_over" \
                    or (m["type"] == "snapshot" and m["table"]["game_over"]):
                return


def address(table: int, seat: int) -> str:
    """The loopback address seat ``seat`` of table ``table`` claims from: one of its own,
    so no cap on one address's tables or seats is met, and no table has two people seated
    from one address (which it would not start)."""
    return f"127.{1 + table // 250}.{1 + table % 250}.{1 + seat}"


async def open_table(base: str, k: int) -> tuple[str, list[str]]:
    """Open online table number ``k`` at ``base``, seat four people, start it; its id and
    the four seats' tokens."""
    tokens: list[str] = []
    table_id = ""
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Di")):
        transport = httpx.AsyncHTTPTransport(local_address=address(k, seat))
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
            if seat == 0:
                made = await http.post("/api/tables", json={
                    "kind": "online", "name": name, "preset": "classic",
                    "seconds_per_move": 90})
                made.raise_for_status()
                table_id = made.json()["id"]
                tokens.append(made.json()["token"])
                continue
            got = await http.post(f"/api/tables/{table_id}/seats",
                                  json={"seat": seat, "name": name})
            got.raise_for_status()
            tokens.append(got.json()["token"])
    transport = httpx.AsyncHTTPTransport(local_address=address(k, 0))
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=60) as http:
        started = await http.post(f"/api/tables/{table_id}/start", json={"token": tokens[0]})
        started.raise_for_status()
    return table_id, tokens


async def opened(bases: list[str], k: int, opening: asyncio.Semaphore,
                 played: Played) -> tuple[str, list[str]] | None:
    """Table ``k`` opened and started at the process of seat :data:`FIRST` (None, an error
    noted: it could not be)."""
    try:
        async with opening:
            return await open_table(bases[FIRST % len(bases)], k)
    except Exception as e:  # a table that failed is reported; the others play on
        played.errors.append(f"table {k}: {e!r}")
        return None


async def one_table(bases: list[str], k: int, table_id: str, tokens: list[str], think: float,
                    seed: int, protocol: int, played: Played) -> None:
    """Play table ``k``'s game: seat :data:`FIRST` joins first, then the other three seats
    and the spectator; socket i at process ``i % P``."""
    p = len(bases)
    counts = [Socket() for _ in range(5)]
    played.sockets += counts
    try:
        def url(i: int) -> str:
            return bases[i % p].replace("http", "ws", 1) + f"/ws/tables/{table_id}"

        def seat(i: int, joined: asyncio.Event) -> Any:
            return person(url(i), tokens[i], random.Random(seed * 1000 + k * 10 + i), think,
                          protocol, counts[i], joined)

        first = asyncio.Event()
        tasks = [asyncio.create_task(seat(FIRST, first))]
        waiter = asyncio.create_task(first.wait())
        await asyncio.wait([tasks[0], waiter], return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if tasks[0].done():
            await tasks[0]  # it failed before its table came: raises
        tasks += [asyncio.create_task(seat(i, asyncio.Event())) for i in range(4) if i != FIRST]
        tasks.append(asyncio.create_task(spectator(url(4), protocol, counts[4])))
        await asyncio.gather(*tasks)
        played.games += 1
    except Exception as e:  # a table that failed is reported; the others play on
        played.errors.append(f"table {k}: {e!r}")


async def detect_protocol(base: str) -> int:
    """2 if the server's ``/asyncapi.json`` has a ``protocol`` field (protocol 2's join),
    else 1 (the whole-table protocol before it)."""
    async with httpx.AsyncClient(timeout=60) as http:
        doc = (await http.get(f"{base}/asyncapi.json")).json()

    def has(node: Any) -> bool:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict) and "protocol" in props:
                return True
            return any(has(v) for v in node.values())
        return isinstance(node, list) and any(has(v) for v in node)

    return 2 if has(doc) else 1


def serve(tree: Path, db: str, redis_url: str, tables: int,
          args: argparse.Namespace) -> tuple[subprocess.Popen[bytes], str]:
    """One ``euchre serve`` of ``tree``'s venv (flags both trees have); it and its base."""
    port = free_port()
    cmd = [str(tree / ".venv" / "bin" / "euchre"), "serve", "--port", str(port),
           "--bot-delay", "0", "--hand-pause", str(args.hand_pause), "--database-url", db,
           "--redis-url", redis_url, "--log-level", "warning",
           "--sockets-per-address", str(10 * tables + 20),
           "--tables-per-address", str(10 * tables + 20)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONUNBUFFERED="1", EUCHRE_METRICS_TOKEN=METRICS_TOKEN)
    return subprocess.Popen(cmd, env=env, cwd=tree), f"http://127.0.0.1:{port}"


@dataclass
class Run:
    """One site's run: what the clients and the site's parts counted."""

    tree: str
    processes: int
    protocol: int
    played: Played
    seconds: float
    cpu: list[float]
    """CPU seconds of each process from the first socket (every table open and started)
    until the last game over."""
    redis_cpu: float
    idle: list[float]
    """Each process's share of a core over a quiet second before any table."""
    counts: dict[str, int]
    load: str
    client_cpu: float
    """The client's CPU seconds over the same time (it shares the machine's cores)."""
    setup: float
    """The processes' CPU seconds a table took to open, seat and start (before play: not
    in :attr:`cpu`)."""

    def per_move(self, total: float) -> float:
        """``total`` per person move."""
        return total / max(1, self.played.moves)

    @property
    def cpu_ms(self) -> float:
        """Server CPU milliseconds per person move (every process)."""
        return self.per_move(sum(self.cpu)) * 1000


def load_average() -> str:
    """The machine's 1-, 5- and 15-minute load averages."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def run_site(tree: Path, label: str, processes: int, args: argparse.Namespace) -> Run:
    """Every table's game against a fresh site of ``processes`` processes of ``tree``."""
    db = asyncio.run(_create_database(args.database_url, True))
    redis_url, redis = start_redis()

    def spy_path(i: int) -> Path:
        return Path(args.profile) / f"{label}-p{processes}-{i}-{time.time_ns()}.txt"
    servers: list[subprocess.Popen[bytes]] = []
    try:
        bases = []
        for _ in range(processes):  # one at a time: the first migrates the new database
            server, base = serve(tree, db, redis_url, args.tables, args)
            servers.append(server)
            bases.append(base)
            asyncio.run(wait_healthy(base, timeout=120.0))
        protocol = asyncio.run(detect_protocol(bases[0]))
        counters = site_counters(redis_url, db, bases)
        pids = [s.pid for s in servers]

        async def play() -> Run:
            await asyncio.sleep(1.0)
            idle = [cpu_seconds(pid) for pid in pids]
            await asyncio.sleep(1.0)
            idle = [cpu_seconds(pid) - c for pid, c in zip(pids, idle, strict=True)]
            played = Played()
            opening = asyncio.Semaphore(8)
            cpu = [cpu_seconds(pid) for pid in pids]
            tables = await asyncio.gather(*(opened(bases, k, opening, played)
                                            for k in range(args.tables)))
            setup = sum(cpu_seconds(pid) - c for pid, c in zip(pids, cpu, strict=True))
            before = await counters()
            cpu = [cpu_seconds(pid) for pid in pids]
            redis_cpu = cpu_seconds(redis.pid)
            client_cpu = time.process_time()
            started = time.perf_counter()
            spies = [start_spy(pid, args.profile_seconds, spy_path(i))
                     for i, pid in enumerate(pids)] if args.profile else []
            await asyncio.gather(*(one_table(bases, k, *table, args.think, args.seed,
                                             protocol, played)
                                   for k, table in enumerate(tables) if table is not None))
            seconds = time.perf_counter() - started
            cpu = [cpu_seconds(pid) - c for pid, c in zip(pids, cpu, strict=True)]
            redis_cpu = cpu_seconds(redis.pid) - redis_cpu
            client_cpu = time.process_time() - client_cpu
            after = await counters()
            for spy in spies:
                spy.wait()
            return Run(label, processes, protocol, played, seconds, cpu, redis_cpu, idle,
                       {k: v - before.get(k, 0) for k, v in after.items()}, load_average(),
                       client_cpu, setup / args.tables)

        return asyncio.run(play())
    finally:
        stop_site(servers)
        asyncio.run(_create_database(db, False))
        redis.kill()
        redis.wait()


def report(run: Run) -> None:
    """One run in a few lines."""
    p = run.played
    c = run.counts
    msgs = sum(s.messages for s in p.sockets)
    received = sum(s.bytes for s in p.sockets)
    print(f"{run.tree} P={run.processes} (protocol {run.protocol}): {p.games} games, "
          f"{p.moves} person moves in {run.seconds:.1f} s, {len(p.errors)} tables failed; "
          f"load {run.load}")
    answers = sorted(a * 1000 for s in p.sockets for a in s.answers)
    if answers:
        print(f"  a move's answer: p50 {answers[len(answers) // 2]:.1f} ms, p99 "
              f"{answers[int(len(answers) * 0.99)]:.1f} ms")
    print(f"  server CPU {run.cpu_ms:.2f} ms per person move (each process "
          f"{', '.join(f'{x:.1f} s' for x in run.cpu)}; idle "
          f"{', '.join(f'{x:.0%}' for x in run.idle)} of a core); redis-server "
          f"{run.per_move(run.redis_cpu) * 1000:.3f} ms; the client "
          f"{run.per_move(run.client_cpu) * 1000:.2f} ms; opening a table (not in "
          f"those) {run.setup * 1000:.0f} ms")
    print(f"  per person move: relayed messages {run.per_move(c['relayed messages']):.2f}, "
          f"Redis bytes in {run.per_move(c['redis bytes in']):.0f} and out "
          f"{run.per_move(c['redis bytes out']):.0f}, Redis commands "
          f"{run.per_move(c['redis commands']):.1f}, database commits "
          f"{run.per_move(c['database commits']):.2f}; the clients received "
          f"{run.per_move(msgs):.1f} messages, {run.per_move(received):.0f} bytes", flush=True)
    for error in p.errors[:5]:
        print(f"  {error}")


def summarize(runs: list[Run], trees: list[str], processes: list[int]) -> None:
    """Medians by tree and process count, and each tree's ratio of P processes to one."""
    def med(values: list[float]) -> float:
        return statistics.median(values) if values else float("nan")

    print("\nsummary (medians over runs; per person move)")
    print("| tree | processes | runs | server CPU ms (each run) | to one process | relayed "
          "messages | Redis bytes in | Redis bytes out | Redis CPU ms | client bytes |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for tree in trees:
        one = med([r.cpu_ms for r in runs if r.tree == tree and r.processes == 1])
        for n in processes:
            mine = [r for r in runs if r.tree == tree and r.processes == n]
            cpu = med([r.cpu_ms for r in mine])
            ratio = f"{cpu / one:.2f}" if n != 1 and one == one else ""

            def per(key: str, mine: list[Run] = mine) -> float:
                return med([r.per_move(r.counts[key]) for r in mine])

            client = med([r.per_move(sum(s.bytes for s in r.played.sockets)) for r in mine])
            redis_ms = med([r.per_move(r.redis_cpu) * 1000 for r in mine])
            each = ", ".join(f"{r.cpu_ms:.2f}" for r in mine)
            print(f"| {tree} | {n} | {len(mine)} | {cpu:.2f} ({each}) | {ratio} | "
                  f"{per('relayed messages'):.2f} | {per('redis bytes in'):.0f} | "
                  f"{per('redis bytes out'):.0f} | {redis_ms:.3f} | {client:.0f} |")


def tree_label(tree: Path) -> str:
    """The tree's commit (short), or its folder's name."""
    try:
        out = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return tree.name


def main() -> int:
    """Run every tree and process count ``--runs`` times, alternated; print the summary."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--tables", type=int, default=30, help="online tables played at once")
    parser.add_argument("--runs", type=int, default=1,
                        help="runs of every tree and process count, alternated")
    parser.add_argument("--tree", action="append", default=None, metavar="PATH",
                        help="serve from PATH/.venv/bin/euchre (repeat for several trees; "
                             "default: this tree)")
    parser.add_argument("--think", type=float, default=0.1,
                        help="mean seconds a person waits before a move (uniform 0 to twice)")
    parser.add_argument("--hand-pause", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url",
                        default=os.environ.get("EUCHRE_TEST_DATABASE_URL",
                                               "postgresql+asyncpg://postgres@127.0.0.1:5433/"
                                               "postgres"),
                        help="a PostgreSQL server (a fresh database is made on it per run)")
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="sample every server with py-spy from the first table on, keep "
                             "the stacks in DIR and print where the CPU went")
    parser.add_argument("--profile-seconds", type=float, default=40.0,
                        help="with --profile: seconds sampled (keep it under a run's length)")
    args = parser.parse_args()
    if args.profile:
        Path(args.profile).mkdir(parents=True, exist_ok=True)
    trees = [Path(t).resolve() for t in (args.tree or [str(ROOT)])]
    for tree in trees:
        if not (tree / ".venv" / "bin" / "euchre").exists():
            parser.error(f"{tree} has no .venv/bin/euchre")
    labels = [tree_label(t) for t in trees]
    runs: list[Run] = []
    for _ in range(args.runs):
        for tree, label in zip(trees, labels, strict=True):
            for n in args.processes:
                runs.append(run_site(tree, label, n, args))
                report(runs[-1])
    summarize(runs, labels, args.processes)
    if args.profile:
        for label in labels:
            for n in args.processes:
                print(f"\nwhere {label}'s {n} processes' CPU went (py-spy, every run):")
                print(profile_top(sorted(Path(args.profile).glob(f"{label}-p{n}-*.txt"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
