"""Accounts for the ratings tests: bare rows, no password, no coins."""

from __future__ import annotations

import datetime as dt
import itertools
import random

from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.storage.accounts_models import accounts

_names = itertools.count()

T0 = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
"""A fixed time for rows."""


async def new_account(engine: AsyncEngine, name: str | None = None) -> int:
    """A bare account (no password, no coins); its id."""
    name = name or f"person{next(_names)}"
    async with engine.begin() as conn:
        result = await conn.execute(accounts.insert().values(
            username=name, username_key=name.lower(), password_hash="x", balance=0,
            created_at=T0).returning(accounts.c.id))
        return int(result.scalar_one())


async def league(engine: AsyncEngine, ids: list[int], rounds: int, prefix: str = "L") -> None:
    """``rounds`` rated games for each of ``ids`` (a multiple of four people), seated afresh
    each round so everyone meets many different people; the side with the earlier id in
    ``ids`` wins, so the earlier a person, the stronger."""
    from euchre.ratings import RatingService

    service = RatingService(engine)
    n = len(ids)
    assert n % 4 == 0 and n >= 8
    for r in range(rounds):
        order = list(ids)
        random.Random(f"{prefix}{r}").shuffle(order)  # seated afresh, the same every run
        for t in range(0, n, 4):
            four = order[t:t + 4]
            strongest = min(four, key=ids.index)
            game = f"{prefix}{r}-{t}"
            await service.register(game, four)
            await service.apply(game, four.index(strongest) % 2)
