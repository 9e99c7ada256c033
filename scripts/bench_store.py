"""The game store's CPU per save, alone: group commits of many tables' one-line saves.

Opens a :class:`SqlStore` (a fresh SQLite file, or ``--database-url``), writes ``--tables``
games whole, then ``--rounds`` rounds in which every table saves its next record line at
once (so each group commit carries one save per table, as a busy server's do); each save
brings its meta encoded, as a table's saver does. Prints the process's CPU time (every
thread: the database driver's too) and the wall time per save. No tables, computers or
sockets: only what a save costs the store. Uses only the storage layer's public names, so
it runs against older trees:

    PYTHONPATH=/some/older/tree/src .venv/bin/python scripts/bench_store.py --tables 20
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
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


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--database-url", default=None,
                        help="default: a fresh SQLite file in a temporary folder")
    args = parser.parse_args()
    if args.database_url:
        asyncio.run(run(args.database_url, args.tables, args.rounds))
        return
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(f"sqlite+aiosqlite:///{tmp}/store.db", args.tables, args.rounds))


if __name__ == "__main__":
    main()
