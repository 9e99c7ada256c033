"""The game store's CPU per save, alone: group commits of many tables' one-line saves.

Opens a :class:`SqlStore` (a fresh SQLite file, or ``--database-url``), writes ``--tables``
games whole, then ``--rounds`` rounds in which every table saves its next record line at
once (so each group commit carries one save per table, as a busy server's do); each save
brings its meta encoded, as a table's saver does. Prints the process's CPU time (every
thread: the database driver's too) and the wall time per save. No tables, computers or
sockets: only what a save costs the store. Uses only the storage layer's public names, so
it runs against older trees:

    PYTHONPATH=/some/older/tree/src .venv/bin/python scripts/bench/bench_store.py --tables 20

``--flow`` plays tables as a busy server's do instead: each table saves, waits for its save,
pauses a random while (up to twice ``--think`` seconds: its computers and its person) and
saves again, with the store's own commit window; it prints the commits made, the saves a
commit carried, and the CPU per save of the event loop's thread and of the rest (the
database driver's or writer's threads).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import tempfile
import time

from euchre.storage.base import PLAYING, StoredGame
from euchre.storage.journal import RecordTail
from euchre.storage.sql import SqlStore

_META = {"config": {"id": "t", "kind": "practice", "seats": ["you", "medium", "medium",
                                                             "medium"]},
         "policy": {"turn": 30.0, "grace": 60.0}, "shuffle": {"next_seed": "ab" * 16,
                                                              "pending": {}},
         "people": {"0": {"token": "cd" * 16, "name": "you"}}}


async def run(url: str, tables: int, rounds: int) -> None:
    """Write ``rounds`` group commits of ``tables`` one-line saves; print the cost."""
    store = await SqlStore.open(url, commit_window=0)
    games = [StoredGame(id=f"t{i}", kind="practice", status=PLAYING, version=0,
                        meta=_META, meta_text=json.dumps(_META), record={"hands": []},
                        created_at=1.0, updated_at=1.0)
             for i in range(tables)]
    await asyncio.gather(*(store.save(g) for g in games))
    cpu, wall = time.process_time(), time.perf_counter()
    for r in range(rounds):
        await asyncio.gather(*(store.save(dataclasses.replace(
            g, version=r + 1, updated_at=2.0 + r, journal=RecordTail(r, (f"0 play {r}",))))
            for g in games))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    saves = tables * rounds
    print(f"{saves} saves in {rounds} group commits of {tables}: CPU per save "
          f"{1e6 * cpu / saves:.0f} us, wall per save {1e6 * wall / saves:.0f} us")
    await store.close()


async def flow(url: str, tables: int, rounds: int, think: float,
               linger: float | None) -> None:
    """Each of ``tables`` saves ``rounds`` one-line saves, pausing up to ``2 * think``
    seconds after each; print the commits and the CPU per save by thread."""
    store = await (SqlStore.open(url) if linger is None
                   else SqlStore.open(url, commit_linger=linger))
    games = [StoredGame(id=f"t{i}", kind="practice", status=PLAYING, version=0,
                        meta=_META, meta_text=json.dumps(_META), record={"hands": []},
                        created_at=1.0, updated_at=1.0)
             for i in range(tables)]
    await asyncio.gather(*(store.save(g) for g in games))
    rng = random.Random(1)
    commits = getattr(store, "commits", None)

    async def play(g: StoredGame) -> None:
        await asyncio.sleep(rng.uniform(0, 2 * think))
        for r in range(rounds):
            await store.save(dataclasses.replace(
                g, version=r + 1, updated_at=2.0 + r, journal=RecordTail(r, (f"0 play {r}",))))
            await asyncio.sleep(rng.uniform(0, 2 * think))

    cpu, loop_cpu, wall = time.process_time(), time.thread_time(), time.perf_counter()
    await asyncio.gather(*(play(g) for g in games))
    cpu, loop_cpu = time.process_time() - cpu, time.thread_time() - loop_cpu
    wall = time.perf_counter() - wall
    saves = tables * rounds
    made = "" if commits is None else (
        f"{store.commits - commits} commits, {saves / (store.commits - commits):.1f} saves "
        "a commit; ")
    wait = wall / rounds - think  # a round: a pause (think on average) and a save
    print(f"{saves} saves by {tables} tables in {wall:.1f} s (a save's wait about "
          f"{1e3 * wait:.0f} ms): {made}CPU per save "
          f"{1e6 * cpu / saves:.0f} us (event loop {1e6 * loop_cpu / saves:.0f}, other "
          f"threads {1e6 * (cpu - loop_cpu) / saves:.0f})")
    await store.close()


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--database-url", default=None,
                        help="default: a fresh SQLite file in a temporary folder")
    parser.add_argument("--flow", action="store_true",
                        help="tables save on their own, pausing between saves")
    parser.add_argument("--think", type=float, default=0.05,
                        help="with --flow: a table's mean pause between saves (seconds)")
    parser.add_argument("--linger", type=float, default=None,
                        help="with --flow: the store's commit_linger (default: its own)")
    args = parser.parse_args()

    def go(url: str) -> None:
        if args.flow:
            asyncio.run(flow(url, args.tables, args.rounds, args.think, args.linger))
        else:
            asyncio.run(run(url, args.tables, args.rounds))

    if args.database_url:
        go(args.database_url)
        return
    with tempfile.TemporaryDirectory() as tmp:
        go(f"sqlite+aiosqlite:///{tmp}/store.db")


if __name__ == "__main__":
    main()
