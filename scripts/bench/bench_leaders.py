"""The leaderboard's cost as rated games pile up: one SQLite database with ``--people``
accounts and ``--games`` applied rated games (rows written directly, seats drawn at random),
then the time of ``RatingService.leaders`` (a page of 50, as ``GET /api/leaders`` asks, which
also asks ``provisional``) and of ``rank_of`` for one person (``GET /api/me/stats``)::

    .venv/bin/python scripts/bench/bench_leaders.py --people 400 --games 20000

Prints the median of ``--repeat`` calls of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable

from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.ratings import RatingService
from euchre.storage.accounts_models import accounts
from euchre.storage.people_models import rated_games, rating_opponents, ratings
from euchre.storage.sql import make_engine, migrate

T0 = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)


async def fill(engine: AsyncEngine, people: int, games: int, seed: int) -> list[int]:
    """``people`` accounts, each rated, and ``games`` applied rated games among them."""
    rng = random.Random(seed)
    async with engine.begin() as conn:
        await conn.execute(accounts.insert(), [
            {"username": f"p{i}", "username_key": f"p{i}", "password_hash": "x", "balance": 0,
             "created_at": T0} for i in range(people)])
        ids = [int(r.id) for r in await conn.execute(accounts.select())]
        seats = [rng.sample(ids, 4) for _ in range(games)]
        await conn.execute(rated_games.insert(), [
            {"game_id": f"g{g}", "seats": json.dumps(s), "status": "applied", "winner": 0,
             "created_at": T0, "applied_at": T0} for g, s in enumerate(seats)])
        played = {a: 0 for a in ids}
        pairs: set[tuple[int, int]] = set()
        for s in seats:
            for i, a in enumerate(s):
                played[a] += 1
                pairs.update((a, b) for b in s[(i + 1) % 2::2])
        await conn.execute(ratings.insert(), [
            {"account_id": a, "mu": 25.0 + rng.random(), "sigma": 3.0,
             "ordinal": 16.0 + rng.random(), "games": n, "updated_at": T0}
            for a, n in played.items()])
        await conn.execute(rating_opponents.insert(), [
            {"account_id": a, "opponent_id": b} for a, b in sorted(pairs)])
    return ids


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> float:
    """The median wall time of ``call`` in milliseconds."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=400)
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{folder}/leaders.db"
        await asyncio.to_thread(migrate, url)
        engine = make_engine(url)
        try:
            ids = await fill(engine, args.people, args.games, args.seed)
            service = RatingService(engine)

            async def page() -> None:
                await service.leaders(50)
                await service.provisional()

            board = await timed(page, args.repeat)
            rank = await timed(lambda: service.rank_of(ids[0]), args.repeat)
            listed = (await service.leaders(1))[1]
        finally:
            await engine.dispose()
    print(f"{args.people} people, {args.games} applied rated games, {listed} listed: "
          f"a leaderboard page {board:.1f} ms, one person's rank {rank:.1f} ms "
          f"(medians of {args.repeat})")


if __name__ == "__main__":
    asyncio.run(main())
