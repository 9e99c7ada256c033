"""Alembic environment (async template, batch mode so SQLite can alter tables)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection

from euchre.storage import (  # noqa: F401  (add tables to Base)
    accounts_models,
    bot_models,
    lobby_models,
    night_models,
    people_models,
    pool_models,
    stake_models,
    tournament_models,
)
from euchre.storage.models import Base
from euchre.storage.sql import make_engine

config = context.config
target_metadata = Base.metadata


def run_migrations_offline() -> None:
    """Emit SQL without a database."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


MIGRATION_LOCK = 0x6575636872650001
"""The PostgreSQL advisory lock key that serialises migrations ("euchre" and 1)."""


def do_run_migrations(connection: Connection) -> None:
    """Run the migrations on one connection. On PostgreSQL, processes of one site starting
    together take turns (an advisory lock held for the session): the first migrates,
    the others then find nothing to do."""
    locked = connection.dialect.name == "postgresql"
    if locked:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        connection.commit()  # the lock is the session's; Alembic starts a fresh transaction
    try:
        context.configure(connection=connection, target_metadata=target_metadata,
                          render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    finally:
        if locked:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            connection.commit()


async def run_async_migrations() -> None:
    """Connect with the async engine and migrate."""
    engine = make_engine(str(config.get_main_option("sqlalchemy.url")))
    async with engine.connect() as connection:
        await connection.run_sync(do_run_migrations)
    await engine.dispose()


def run_migrations_online() -> None:
    """Migrate a live database."""
    asyncio.run(run_async_migrations())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
