"""Accounts for the ratings tests: bare rows, no password, no coins."""

from __future__ import annotations

import datetime as dt
import itertools

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
