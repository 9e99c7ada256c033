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
    # The number people read comes from mu: highest mu first, then ordinal, then the older.
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


async def test_bots_count_as_their_owner_and_ones_own_bots_as_nobody(
        migrated: AsyncEngine) -> None:
    """Issue 34 item 3: throw-away outside bots are not different people. An opponent that
    is a bot counts as its owner; one's own bots (or, for a bot, its owner) count not at
    all; a ring of one person's accounts and bots cannot make up the six people."""
    from euchre.storage.bot_models import bots

    main, other = await new_account(migrated, "main"), await new_account(migrated, "other")
    mine = [await new_account(migrated, f"mine{i}") for i in range(6)]
    theirs = [await new_account(migrated, f"theirs{i}") for i in range(2)]
    async with migrated.begin() as conn:
        for owner, made in ((main, mine), (other, theirs)):
            for bot in made:
                await conn.execute(bots.insert().values(account_id=bot, owner_id=owner,
                                                        created_at=T0))
    service = RatingService(migrated, games_needed=3, opponents_needed=2)
    games = [[main, mine[0], other, mine[1]],  # main meets its own bots: nobody
             [main, mine[2], mine[3], mine[4]],
             [main, theirs[0], mine[5], theirs[1]],  # other's bots: other, once
             [main, other, mine[0], theirs[0]]]  # other again, and other's bot: still one
    for g, seats in enumerate(games):
        await service.register(f"b{g}", seats)
        await service.apply(f"b{g}", 0)
    met = await service.opponents([main, other, mine[0], theirs[0]])
    assert met == {main: 1, other: 1, mine[0]: 1, theirs[0]: 1}  # each met only main
    assert (await service.standing(main)).provisional  # 4 games, but one person met
    assert await service.leaders(10) == ([], 0)


async def test_a_ring_of_four_accounts_and_any_number_of_bots_stays_provisional(
        migrated: AsyncEngine) -> None:
    """Issue 34 item 3: four accounts (four addresses: four people as far as the tables can
    tell) and ten bots each play 60 rated games among themselves: each meets three people
    at most, so none comes off provisional (six different people are needed), however many
    games they play."""
    from euchre.storage.bot_models import bots

    rng = random.Random(344)
    ring = [await new_account(migrated, f"ring{i}") for i in range(4)]
    owned = {a: [await new_account(migrated, f"ring{i}bot{b}") for b in range(10)]
             for i, a in enumerate(ring)}
    async with migrated.begin() as conn:
        for owner, made in owned.items():
            for bot in made:
                await conn.execute(bots.insert().values(account_id=bot, owner_id=owner,
                                                        created_at=T0))
    service = RatingService(migrated)
    everyone = ring + [b for made in owned.values() for b in made]
    for g in range(60):
        # One seat per person each game (a rated table seats one of a person's identities);
        # the main account, ring0, always plays itself.
        seats = [owner if owner == ring[0] else rng.choice([owner, *owned[owner]])
                 for owner in rng.sample(ring, 4)]
        await service.register(f"ring{g}", seats)
        await service.apply(f"ring{g}", rng.randrange(2))
    met = await service.opponents(everyone)
    assert max(met.values()) <= 3 and met[ring[0]] == 3
    assert (await service.standing(ring[0])).games == 60
    for account in everyone:
        assert (await service.standing(account)).provisional, account
    assert await service.leaders(10) == ([], 0)
