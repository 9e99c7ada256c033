"""Does a SQLite group commit's time grow with its statements while the event loop's thread
runs Python? Prints, for commits of several sizes, the wall time and the writer thread's CPU
of this tree's ``SqliteWriter`` with no other thread, and with a thread that holds the
interpreter's lock as a busy loop does (Python for ``--busy-ms``, then idle for
``--idle-ms``, as at ``epoll``); and how long 200 one-row statements take beside a thread
that never gives the lock up; and, with ``--paced N``, the wall times of N commits of 20
games each, 10 ms apart, through the writer's ``write`` on an event loop (its
checkpoints of the write-ahead log included)::

    .venv/bin/python scripts/bench_commit_gil.py [--games 12 100 500] [--reps 12] [--paced 600]

Run it in two trees (say main and a branch) one after the other to compare their writers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import threading
import time
from pathlib import Path

from euchre.storage.base import StoredGame
from euchre.storage.journal import RecordTail
from euchre.storage.sql import _meta_text, _record_text, _refusal, _Write, migrate
from euchre.storage.sqlite_writer import SqliteWriter

META = {"kind": "practice", "seats": ["you", "bot", "bot", "bot"], "state": "x" * 300}
"""A table's meta about the size of a practice table's."""


class Busy:
    """A thread running Python for ``busy`` seconds, then sleeping ``idle`` (0: never)."""

    def __init__(self, busy: float, idle: float) -> None:
        self.busy, self.idle, self.stop = busy, idle, False
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        while not self.stop:
            until = time.perf_counter() + self.busy
            while time.perf_counter() < until:
                pass
            if self.idle:
                time.sleep(self.idle)

    def __enter__(self) -> Busy:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop = True
        self.thread.join()


def commits(path: Path, games: int, reps: int) -> tuple[list[float], list[float]]:
    """Wall and writer-thread CPU seconds of ``reps`` commits of ``games`` games' appends
    to a new SQLite file at ``path``."""
    migrate(f"sqlite+aiosqlite:///{path}")
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO games (id, kind, status, version, meta, record, created_at, "
            "updated_at, fence, lines) VALUES (?, 'practice', 'playing', 0, '{}', '{}', 1.0, "
            "1.0, 1, 0)", [(f"g{i}",) for i in range(games)])
    writer = SqliteWriter(str(path), _meta_text, _record_text, _refusal)
    meta_text = json.dumps(META, separators=(",", ":"))
    walls: list[float] = []
    cpus: list[float] = []

    def run() -> None:
        for v in range(1, reps + 1):
            batch = {f"g{i}": _Write(StoredGame(
                id=f"g{i}", kind="practice", status="playing", version=v, meta=META,
                meta_text=meta_text, record={}, created_at=1.0, updated_at=1.0 + v, fence=1),
                None, RecordTail(2 * (v - 1), ("0 play QH", "1 play 9H")))
                for i in range(games)}
            began, cpu = time.perf_counter(), time.thread_time()
            assert writer._transaction(batch) == {}
            walls.append(time.perf_counter() - began)
            cpus.append(time.thread_time() - cpu)
            time.sleep(0.01)
        writer._close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return walls, cpus


def statements_beside_a_spinner() -> tuple[float, float]:
    """Seconds 200 one-row INSERTs take alone, and beside a thread that never yields."""
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute("CREATE TABLE t (x)")

    def inserts() -> float:
        began = time.perf_counter()
        for _ in range(200):
            db.execute("INSERT INTO t VALUES (1)")
        return time.perf_counter() - began

    alone = inserts()
    with Busy(1.0, 0):
        time.sleep(0.01)
        beside = inserts()
    return alone, beside


def _batch(games: list[str], version: int, meta_text: str) -> dict[str, _Write]:
    """Each of ``games``' save at ``version``: two lines appended."""
    return {game_id: _Write(StoredGame(
        id=game_id, kind="practice", status="playing", version=version, meta=META,
        meta_text=meta_text, record={}, created_at=1.0, updated_at=1.0 + version, fence=1),
        None, RecordTail(0, ("0 play QH", "1 play 9H"))) for game_id in games}


def paced(path: Path, commits: int) -> list[float]:
    """Wall seconds of ``commits`` commits of 20 of 1,000 games, 10 ms apart, on a loop."""
    migrate(f"sqlite+aiosqlite:///{path}")
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO games (id, kind, status, version, meta, record, created_at, "
            "updated_at, fence, lines) VALUES (?, 'practice', 'playing', 0, '{}', '{}', 1.0, "
            "1.0, 1, 0)", [(f"g{i}",) for i in range(1000)])
    meta_text = json.dumps(META, separators=(",", ":"))

    async def run() -> list[float]:
        writer = SqliteWriter(str(path), _meta_text, _record_text, _refusal)
        walls = []
        for c in range(commits):
            batch = _batch([f"g{(c * 20 + k) % 1000}" for k in range(20)], c + 1, meta_text)
            began = time.perf_counter()
            assert await writer.write(batch) == {}
            walls.append(time.perf_counter() - began)
            await asyncio.sleep(0.01)
        await writer.close()
        return walls

    return asyncio.run(run())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[12, 100, 500])
    parser.add_argument("--reps", type=int, default=12)
    parser.add_argument("--busy-ms", type=float, default=8.0)
    parser.add_argument("--idle-ms", type=float, default=2.0)
    parser.add_argument("--paced", type=int, default=0)
    args = parser.parse_args()
    if args.paced:
        with tempfile.TemporaryDirectory() as folder:
            walls = sorted(paced(Path(folder) / "paced.db", args.paced))

        def at(p: float) -> float:
            return walls[min(len(walls) - 1, int(p / 100 * len(walls)))] * 1e3

        print(f"{args.paced} commits of 20 games, 10 ms apart: wall p50 {at(50):.1f} p90 "
              f"{at(90):.1f} p99 {at(99):.1f} max {walls[-1] * 1e3:.1f} ms")
        return
    alone, beside = statements_beside_a_spinner()
    print(f"200 one-row INSERTs: alone {alone * 1e3:.2f} ms, beside a thread that never "
          f"yields {beside * 1e3:.2f} ms")
    with tempfile.TemporaryDirectory() as folder:
        for games in args.games:
            for label in ("alone", "busy loop"):
                path = Path(folder) / f"{games}-{label.replace(' ', '-')}.db"
                if label == "alone":
                    walls, cpus = commits(path, games, args.reps)
                else:
                    with Busy(args.busy_ms / 1e3, args.idle_ms / 1e3):
                        walls, cpus = commits(path, games, args.reps)
                print(f"{games:4d} games, {label:9}: commit wall p50 "
                      f"{statistics.median(walls) * 1e3:6.1f} ms, max {max(walls) * 1e3:6.1f} ms;"
                      f" writer CPU p50 {statistics.median(cpus) * 1e3:5.2f} ms", flush=True)


if __name__ == "__main__":
    main()
