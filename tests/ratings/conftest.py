"""Fixtures for the ratings and statistics tests: a migrated database (SQLite, and
PostgreSQL when ``EUCHRE_TEST_DATABASE_URL`` names a server)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.storage.sql import make_engine, migrate
from ledger_fixtures import db_url

__all__ = ["db_url", "migrated"]


@pytest.fixture
async def migrated(db_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a fresh database brought up by the migrations (0004 included)."""
    await asyncio.to_thread(migrate, db_url)
    engine = make_engine(db_url)
    try:
        yield engine
    finally:
        await engine.dispose()
