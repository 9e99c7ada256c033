"""Instructions the whole server spends per person move, counted by callgrind: for comparing
two trees' event-loop work (sockets, uvicorn, uvloop, timers, the tables) where wall-clock
CPU on a shared machine is too noisy.

Starts one ``euchre serve`` (this tree's, on uvloop) under ``valgrind --tool=callgrind``
with instrumentation off while it starts, opens ``--tables`` practice tables (medium
computers) over HTTP and WebSockets from this process (outside valgrind), plays each
table's person with random legal moves from a fixed seed (``continue`` after each hand, as
``bench_load.py`` does), and once ``--warmup`` person moves were made turns instrumentation
on (``callgrind_control -i on``), lets ``--moves`` more person moves be made, and dumps the
counts (``callgrind_control -d``). Prints the server's instructions per person move in that
window, every thread included (the SQLite writer's too, unless ``--database-url memory:``)::

    .venv/bin/python scripts/bench/count_server_moves.py --tables 20 --moves 600

The server's randomness (deals, computers' seeds, jitter, tokens) comes from a fixed
sequence (``os.urandom`` replaced in the server by a seeded generator, through a
``sitecustomize`` on its ``PYTHONPATH``: a benchmark only). The order in which the tables'
sockets and timers are served is not fixed, so which table gets which deal varies, and a
tree's runs still differ by up to a per cent or two; compare trees by two or more runs each,
alternated. ``--no-valgrind``
runs the same play with the server's CPU time per person move instead (quick, noisy).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import httpx
from bench_load import cpu_seconds, folded_table, free_port, wait_healthy
from websockets.asyncio.client import ClientConnection, connect

FIXED_RANDOM = """\
import os, random

_fixed = random.Random(12345)
os.urandom = random._urandom = lambda n: _fixed.randbytes(n)
"""
"""The server's ``sitecustomize``: every secure random byte from a seeded generator."""


class Play:
    """The person moves made so far, and what is done as the window opens and closes."""

    def __init__(self, warmup: int, moves: int, start: Callable[[], None],
                 stop: Callable[[], None]) -> None:
        self.made = 0
        """Person moves sent so far."""
        self.warmup = warmup
        self.end = warmup + moves
        self.start, self.stop = start, stop
        self.over: asyncio.Event = asyncio.Event()  # set once the window closed

    def next_move(self) -> bool:
        """Count a person move about to be sent; False once the window closed (none is
        sent). The window opens before the first move after the warm-up is sent, and closes
        before the one after the last counted is: with one table it holds exactly those
        moves and everything the server did for them."""
        if self.made == self.warmup:
            self.start()
        if self.made == self.end:
            if not self.over.is_set():
                self.stop()
                self.over.set()
            return False
        self.made += 1
        return True


async def play(base: str, http: httpx.AsyncClient, rng: random.Random, state: Play) -> None:
    """Open practice tables one after another and play the person's seat until the
    window closed."""
    while not state.over.is_set():
        r = await http.post(f"{base}/api/tables", json={"kind": "practice"})
        r.raise_for_status()
        table = r.json()
        ws_base = base.replace("http://", "ws://")
        async with connect(ws_base + table["ws"], max_size=2**20, open_timeout=120,
                           ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            if await _play_game(ws, rng, state):
                return


async def _play_game(ws: ClientConnection, rng: random.Random, state: Play) -> bool:
    """Play one game's person; True once the window closed."""
    waiting = False
    while True:
        m = json.loads(await ws.recv())
        if m["type"] == "error":
            raise RuntimeError(m["message"])
        if m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
            waiting = False
        if m["type"] == "event" and m["event"]["kind"] == "hand_over":
            number = m["event"]["summary"]["hand_number"]
            await ws.send(json.dumps({"type": "continue", "hand_number": number}))
        t = folded_table(ws, m)
        if t is None or m["version"] != t["version"] or waiting:
            continue
        if t["game_over"]:
            return False
        legal = t["view"]["legal"] if t["view"] else []
        if legal and m["type"] == "event":
            if not state.next_move():
                return True
            waiting = True
            await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))


async def drive(base: str, args: argparse.Namespace, pid: int, out: Path | None) -> float:
    """Play; the server's instructions (or CPU seconds) per person move in the window."""
    await wait_healthy(base, 600)
    cpu = [0.0]
    spy: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        cpu[0] = -cpu_seconds(pid)
        if args.profile:
            spy.append(subprocess.Popen(
                [str(Path(sys.executable).parent / "py-spy"), "record", "-p", str(pid), "-r",
                 "250", "-f", "raw", "-o", args.profile, "--nonblocking"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        if out is not None:
            subprocess.run(["callgrind_control", "-i", "on", str(pid)], check=True,
                           capture_output=True)

    def stop() -> None:
        if out is not None:
            subprocess.run(["callgrind_control", "-d", str(pid)], check=True,
                           capture_output=True)
        cpu[0] += cpu_seconds(pid)
        for p in spy:
            p.send_signal(signal.SIGINT)
            p.wait(timeout=60)

    state = Play(args.warmup, args.moves, start, stop)
    made: int = args.moves
    limits = httpx.Limits(max_connections=args.tables)
    async with httpx.AsyncClient(timeout=600, limits=limits) as http:
        tasks = []
        for i in range(args.tables):
            rng = random.Random(args.seed * 1000 + i)
            tasks.append(asyncio.create_task(play(base, http, rng, state)))
        await state.over.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    seconds = cpu[0]
    if out is None:
        print(f"{made} person moves: server CPU {seconds:.2f} s, {1000 * seconds / made:.3f} ms "
              f"per person move")
        return seconds / made
    total = collector = 0
    for dump in out.parent.glob(out.name + "*"):
        text = dump.read_text(errors="replace")
        found = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
        if found and re.search(r"^part: ?\d+", text, re.M):
            total += int(found.group(1))
            collector += collected(dump)
            if args.keep:
                shutil.copy(dump, args.keep)
    rest = total - collector
    print(f"{made} person moves: {total:,} instructions, {total / made:,.0f} per person move; "
          f"the cyclic collector {collector / made:,.0f}, the rest {rest / made:,.0f}")
    return total / made


def collected(dump: Path) -> int:
    """The instructions spent in the cyclic garbage collector (inclusive) in a callgrind
    dump. Its collections fall where allocation counts say, so one more or fewer of the
    older generations in a window moves the total: the rest is the steadier figure."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", str(dump)],
                          capture_output=True, text=True).stdout
    most = 0
    for line in text.splitlines():
        if re.search(r"gcmodule\.c:(gc_collect_main|gc_collect_with_callback|"
                     r"gc_collect_generations)\b", line):
            most = max(most, int(line.split()[0].replace(",", "")))
    return most


def main() -> int:
    """Parse the arguments, run one server and play against it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=100, help="person moves before counting")
    parser.add_argument("--moves", type=int, default=600, help="person moves counted")
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--hand-pause", type=float, default=0.2)
    parser.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--no-valgrind", action="store_true")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="with --no-valgrind: py-spy's raw stacks of the window here")
    parser.add_argument("--keep", default=None, metavar="FILE",
                        help="keep the window's callgrind dump here (callgrind_annotate)")
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory()
    port = free_port()
    db = args.database_url or f"sqlite+aiosqlite:///{tmp.name}/count.db"
    exe = Path(sys.executable).parent / "euchre"
    cmd = [str(exe), "serve", "--port", str(port), "--bot-delay", str(args.bot_delay),
           "--hand-pause", str(args.hand_pause), "--database-url", db, "--log-level",
           "warning", "--sockets-per-address", str(2 * args.tables + 10),
           "--tables-per-address", str(100 * args.tables + 10)]
    out = None
    if not args.no_valgrind:
        out = Path(tmp.name) / "cg.out"
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no",
               f"--callgrind-out-file={out}", *cmd]
    Path(tmp.name, "sitecustomize.py").write_text(FIXED_RANDOM)
    path = os.pathsep.join(p for p in (tmp.name, os.environ.get("PYTHONPATH")) if p)
    server = subprocess.Popen(cmd, env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": path},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        asyncio.run(drive(f"http://127.0.0.1:{port}", args, server.pid, out))
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
