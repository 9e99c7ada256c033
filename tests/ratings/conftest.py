"""Fixtures for the ratings and statistics tests: a migrated database (SQLite, and
PostgreSQL when ``EUCHRE_TEST_DATABASE_URL`` names a server)."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.storage.accounts_models import accounts
from euchre.storage.sql import make_engine, migrate
from ledger_fixtures import db_url

__all__ = ["db_url", "migrated", "new_account"]

_names = itertools.count()

T0 = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
"""A fixed time for rows."""


@pytest.fixture
async def migrated(db_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a fresh database brought up by the migrations (0004 included)."""
    await asyncio.to_thread(migrate, db_url)
    engine = make_engine(db_url)
    try:
        yield engine
    finally:
        await engine.dispose()


async def new_account(engine: AsyncEngine, name: str | None = None) -> int:
    """A bare account (no password, no coins); its id."""
    name = name or f"person{next(_names)}"
    async with engine.begin() as conn:
        result = await conn.execute(accounts.insert().values(
            username=name, username_key=name.lower(), password_hash="x", balance=0,
            created_at=T0).returning(accounts.c.id))
        return int(result.scalar_one())
