"""The ledger tests' database fixtures, shared by tests/accounts and tests/coins: every test
runs on SQLite, and on PostgreSQL when the ``EUCHRE_TEST_DATABASE_URL`` server is there
(a fresh database per test). Each of those folders' conftest imports them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
from sqlalchemy.ext.asyncio import AsyncEngine

from testdb import (
    create_ledger_tables,
    drop_postgres,
    fresh_postgres,
    postgres_url,
    sqlite_url,
)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: object) -> Iterator[str]:
    """The URL of an empty database (SQLite file, or a new PostgreSQL database)."""
    if request.param == "sqlite":
        yield sqlite_url(f"{tmp_path}/ledger.db")
        return
    server = postgres_url()
    if server is None:
        pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
    url = asyncio.run(fresh_postgres(server))
    try:
        yield url
    finally:
        asyncio.run(drop_postgres(url))


@pytest.fixture
async def engine(db_url: str) -> AsyncIterator[AsyncEngine]:
    """An engine on a fresh database with the tables created."""
    eng = await create_ledger_tables(db_url)
    try:
        yield eng
    finally:
        await eng.dispose()
