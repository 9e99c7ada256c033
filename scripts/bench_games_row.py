"""What a save costs the SQLite writer with the games row as it is, and with its cold parts
moved out: CPU microseconds per save for the writer's own statements (an ``executemany`` of
the append UPDATE, then the new lines' INSERT, one transaction a commit) on a WAL file with
the writer's pragmas::

    .venv/bin/python scripts/bench_games_row.py --games 300 --per-commit 40

Three layouts, each on a fresh file: the record (``--record-min`` to ``--record-max`` bytes)
and a ``--meta`` byte meta in the row (as now); the record in a table of its own; and that
with a ``--small-meta`` byte meta (the settings, which never change, kept out too). SQLite
rewrites a whole row on every UPDATE, so what the row carries is paid on every save.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time
from pathlib import Path

from euchre.storage.sqlite_writer import WAL_CHECKPOINT_PAGES, WRITER_CACHE_KIB

_SCHEMA = [
    "CREATE TABLE games (id TEXT PRIMARY KEY, kind TEXT, status TEXT, version INT, meta TEXT,"
    " record TEXT, created_at REAL, updated_at REAL, fence INT, lines INT)",
    "CREATE INDEX ix_games_updated_at ON games (updated_at)",
    "CREATE INDEX ix_games_status ON games (status)",
    "CREATE TABLE game_lines (game_id TEXT, seq INT, line TEXT, PRIMARY KEY (game_id, seq))",
    "CREATE TABLE game_records (id TEXT PRIMARY KEY, record TEXT)",
]
_APPEND = ("UPDATE games SET version = ?, meta = ?, updated_at = ?, fence = ?, lines = ? "
           "WHERE id = ? AND fence <= ? AND lines >= ? AND status = ?")
_LINE = ("INSERT INTO game_lines VALUES (?, ?, ?) "
         "ON CONFLICT (game_id, seq) DO UPDATE SET line = excluded.line")


def per_save(path: Path, args: argparse.Namespace, record_in_row: bool, meta: int) -> float:
    """CPU microseconds per save over ``args.commits`` commits of ``args.per_commit`` saves."""
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=WAL", f"wal_autocheckpoint={WAL_CHECKPOINT_PAGES}",
                   f"cache_size=-{WRITER_CACHE_KIB}"):
        db.execute(f"PRAGMA {pragma}")
    for statement in _SCHEMA:
        db.execute(statement)
    rng = random.Random(args.seed)
    ids = [f"g{i:06d}" for i in range(args.games)]
    for game_id in ids:
        record = "r" * rng.randint(args.record_min, args.record_max)
        db.execute("INSERT INTO games VALUES (?, 'practice', 'playing', 0, ?, ?, 0, 0, 0, 0)",
                   (game_id, "m" * meta, record if record_in_row else ""))
        if not record_in_row:
            db.execute("INSERT INTO game_records VALUES (?, ?)", (game_id, record))
    lines = dict.fromkeys(ids, 0)
    started = time.process_time()
    for version in range(1, args.commits + 1):
        batch = rng.sample(ids, args.per_commit)
        db.execute("BEGIN IMMEDIATE")
        db.executemany(_APPEND, [(version, "m" * meta, time.time(), 0, lines[g] + 1, g, 0,
                                  lines[g], "playing") for g in batch])
        db.executemany(_LINE, [(g, lines[g], "p 0 9C") for g in batch])
        db.execute("COMMIT")
        for g in batch:
            lines[g] += 1
    spent = time.process_time() - started
    db.close()
    return float(spent / (args.commits * args.per_commit) * 1e6)


def main() -> None:
    """Parse the arguments, time the three layouts, print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--per-commit", type=int, default=40, help="saves a commit")
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--meta", type=int, default=1100, help="bytes of meta (now)")
    parser.add_argument("--small-meta", type=int, default=200, help="bytes without settings")
    parser.add_argument("--record-min", type=int, default=1000)
    parser.add_argument("--record-max", type=int, default=6000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    layouts = [("record and meta in the row (now)", True, args.meta),
               ("record in a table of its own", False, args.meta),
               ("record apart, meta without the settings", False, args.small_meta)]
    for name, record_in_row, meta in layouts:
        with tempfile.TemporaryDirectory() as tmp:
            cost = per_save(Path(tmp) / "games.db", args, record_in_row, meta)
        print(f"{name}: {cost:.1f} microseconds of CPU per save")


if __name__ == "__main__":
    main()
