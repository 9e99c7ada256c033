"""Who has played against whom: kept as each rated game is applied (``rating_opponents``),
filled by its migration from the games applied before it, and the leaderboard read from it
lists, ranks and counts exactly as reading every rated game's seats did."""

from __future__ import annotations

import asyncio
import json
import random

from account_rows import T0, new_account
from alembic import command
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.ratings import RatingService
from euchre.storage.people_models import rated_games, rating_opponents
from euchre.storage.sql import alembic_config, make_engine


def _opponents_from_seats(games: list[list[int]]) -> dict[int, set[int]]:
    """Each person's different opponents, read from games' seats (the old way)."""
    met: dict[int, set[int]] = {}
    for seats in games:
        for i, account in enumerate(seats):
            met.setdefault(account, set()).update(seats[(i + 1) % 2::2])
    return met


async def test_the_migration_fills_who_met_whom_from_the_games_applied_before_it(
        db_url: str) -> None:
    config = alembic_config(db_url)
    await asyncio.to_thread(command.upgrade, config, "0010_seat_claims")
    engine = make_engine(db_url)
    try:
        ids = [await new_account(engine, f"old{i}") for i in range(6)]
        games = {"g1": ([ids[0], ids[1], ids[2], ids[3]], "applied"),
                 "g2": ([ids[0], ids[4], ids[2], ids[5]], "applied"),
                 "g3": ([ids[1], ids[0], ids[3], ids[2]], "applied"),  # the same people again
                 "g4": ([ids[5], ids[4], ids[3], ids[1]], "pending"),  # not applied: no count
                 "g5": ([ids[5], ids[0], ids[3], ids[1]], "void")}
        async with engine.begin() as conn:
            for game_id, (seats, status) in games.items():
                await conn.execute(rated_games.insert().values(
                    game_id=game_id, seats=json.dumps(seats), status=status, created_at=T0))
        await asyncio.to_thread(command.upgrade, config, "head")
        async with engine.connect() as conn:
            pairs = {(int(a), int(b)) for a, b in await conn.execute(select(rating_opponents))}
        expected = _opponents_from_seats([s for s, status in games.values()
                                          if status == "applied"])
        assert pairs == {(a, b) for a, others in expected.items() for b in others}
        counts = await RatingService(engine).opponents(ids)
        assert counts == {a: len(expected.get(a, ())) for a in ids}
        assert counts[ids[0]] == 4 and counts[ids[5]] == 2  # old1, old3, old4, old5; old0, old2
        # Going down and up again gives the same rows (nothing counted twice).
        await asyncio.to_thread(command.downgrade, config, "0010_seat_claims")
        await asyncio.to_thread(command.upgrade, config, "head")
        async with engine.connect() as conn:
            again = {(int(a), int(b)) for a, b in await conn.execute(select(rating_opponents))}
        assert again == pairs
    finally:
        await engine.dispose()


async def test_the_leaderboard_from_the_kept_pairs_is_the_one_read_from_every_game(
        migrated: AsyncEngine) -> None:
    rng = random.Random(19)
    people = [await new_account(migrated, f"p{i}") for i in range(14)]
    service = RatingService(migrated, games_needed=4, opponents_needed=5)
    played: list[list[int]] = []
    for g in range(45):
        # Mostly a small circle playing itself (never enough opponents), some mixing.
        pool = people[:5] if g % 3 else people
        seats = rng.sample(pool, 4)
        await service.register(f"g{g}", seats)
        await service.apply(f"g{g}", rng.randrange(2))
        played.append(seats)
    await service.register("later", people[10:14])  # registered, never applied
    met = _opponents_from_seats(played)
    assert await service.opponents(people) == {a: len(met.get(a, ())) for a in people}

    async with migrated.connect() as conn:
        rows = list(await conn.execute(text(
            "SELECT account_id, mu, ordinal, games FROM ratings")))
    # highest rating (mu) first, then the higher ordinal, then the older account
    listed = sorted(((float(m), float(o), int(a)) for a, m, o, g in rows
                     if g >= 4 and len(met.get(int(a), ())) >= 5),
                    key=lambda x: (-x[0], -x[1], x[2]))
    expected = [a for _, _, a in listed]
    assert 0 < len(expected) < len(rows)  # some listed, some provisional

    everyone, total = await service.leaders(100)
    assert [x.account_id for x in everyone] == expected and total == len(expected)
    assert [x.rank for x in everyone] == list(range(1, len(expected) + 1))
    page, total = await service.leaders(3, offset=2)
    assert [x.account_id for x in page] == expected[2:5] and [x.rank for x in page] == [3, 4, 5]
    assert total == len(expected)
    assert await service.provisional() == len(rows) - len(expected)
    assert await service.provisional(total) == len(rows) - len(expected)  # (counted once)
    for account in people:
        rank = await service.rank_of(account)
        assert rank == (expected.index(account) + 1 if account in expected else None)
