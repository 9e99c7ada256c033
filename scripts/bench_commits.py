"""What a commit costs the server process on PostgreSQL, with a ping at every checkout of a
pooled connection (SQLAlchemy's ``pool_pre_ping``) and with the store's ping after a rest
(:func:`euchre.storage.alive.ping_when_idle`), alternated.

Makes a fresh database on the server of ``--database-url``, then commits ``--commits``
single-row upserts one after another through each engine, and prints process CPU and wall
time a commit (in-process, so a busy machine disturbs it less than a live benchmark) and the
transactions the server counted a commit (``pg_stat_database``: a ping is one of its own),
which no load changes.

Usage: python scripts/bench_commits.py --database-url postgresql+asyncpg://postgres@HOST:PORT/postgres
       [--commits 400] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import time

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from euchre.storage.alive import ping_when_idle


def engine_for(url: str, how: str) -> AsyncEngine:
    """An engine that pings at every checkout (``pre_ping``) or after a rest (``idle``)."""
    if how == "pre_ping":
        return create_async_engine(url, pool_pre_ping=True)
    engine = create_async_engine(url)
    ping_when_idle(engine)
    return engine


async def commits(url: str, how: str, n: int) -> tuple[float, float]:
    """CPU and wall milliseconds a commit over ``n`` commits."""
    engine = engine_for(url, how)
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE IF NOT EXISTS t (id int PRIMARY KEY, v int)"))
        cpu, wall = time.process_time(), time.perf_counter()
        for i in range(n):
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO t VALUES (:i, 1) ON CONFLICT (id) "
                                        "DO UPDATE SET v = t.v + 1"), {"i": i % 50})
        return ((time.process_time() - cpu) / n * 1000,
                (time.perf_counter() - wall) / n * 1000)
    finally:
        await engine.dispose()


async def transactions(admin: AsyncEngine, name: str) -> int:
    """Transactions (committed and rolled back) the server counted in database ``name``."""
    async with admin.connect() as conn:
        await conn.execute(text("SELECT pg_stat_clear_snapshot()"))
        return int(await conn.scalar(text(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = :n"),
            {"n": name}) or 0)


async def run(server: str, n: int, rounds: int) -> None:
    """Alternate both engines ``rounds`` times on a fresh database, then drop it."""
    url = make_url(server)
    name = f"euchre_bench_commits_{secrets.token_hex(4)}"
    admin = create_async_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    db = url.set(database=name).render_as_string(hide_password=False)
    try:
        for _ in range(rounds):
            for how in ("pre_ping", "idle"):
                before = await transactions(admin, name)
                cpu, wall = await commits(db, how, n)
                await asyncio.sleep(1.5)  # the engine's connections closed: their counts in
                made = await transactions(admin, name) - before
                print(f"{how:8}: {cpu:.3f} ms CPU, {wall:.3f} ms wall, {made / n:.2f} server "
                      f"transactions a commit", flush=True)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


def main() -> int:
    """Parse the arguments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", required=True, help="a PostgreSQL server's URL")
    parser.add_argument("--commits", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if not args.database_url.startswith("postgresql"):
        print("--database-url must be PostgreSQL", file=sys.stderr)
        return 2
    asyncio.run(run(args.database_url, args.commits, args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
