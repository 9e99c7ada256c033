"""The Alembic migration creates exactly the account and ledger tables, constraints included."""

from __future__ import annotations

import asyncio

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from coin_helpers import T0
from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError

from euchre.storage.accounts_models import metadata
from euchre.storage.sql import make_engine, migrate


def _diff(conn: Connection) -> list[object]:
    context = MigrationContext.configure(conn)
    return list(compare_metadata(context, metadata))


async def _check(url: str) -> None:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            diff = await conn.run_sync(_diff)
        assert diff == []
        async with engine.begin() as conn:
            await conn.execute(
                text("INSERT INTO accounts (username, username_key, password_hash, balance, "
                     "created_at) VALUES ('a', 'a', 'x', 0, :t)"), {"t": T0})
        with pytest.raises(IntegrityError):
            async with engine.begin() as conn:
                await conn.execute(text("UPDATE accounts SET balance = -1"))
        with pytest.raises(IntegrityError):
            async with engine.begin() as conn:
                await conn.execute(
                    text("INSERT INTO coin_games (table_id, account_id, seat, stake, status, "
                         "seat_token, created_at) VALUES ('t', 1, 0, 0, 'active', 'k', :t)"),
                    {"t": T0})
        async with engine.begin() as conn:
            for table in ("t1", "t2"):
                await conn.execute(
                    text("INSERT INTO coin_games (table_id, account_id, seat, stake, status, "
                         "seat_token, created_at) VALUES (:id, 1, 0, 10, 'lost', 'k', :t)"),
                    {"id": table, "t": T0})
        with pytest.raises(IntegrityError):  # one active coin game per account
            async with engine.begin() as conn:
                for table in ("t3", "t4"):
                    await conn.execute(
                        text("INSERT INTO coin_games (table_id, account_id, seat, stake, "
                             "status, seat_token, created_at) "
                             "VALUES (:id, 1, 0, 10, 'active', 'k', :t)"),
                        {"id": table, "t": T0})
    finally:
        await engine.dispose()


def test_the_migration_matches_the_models(db_url: str) -> None:
    migrate(db_url)
    migrate(db_url)  # a second run is a no-op
    asyncio.run(_check(db_url))
