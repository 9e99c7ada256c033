"""A :class:`GameStore` in SQL through SQLAlchemy's asyncio engine.

SQLite (aiosqlite) by default, PostgreSQL (asyncpg) when given such a URL. The schema is
brought up to date with Alembic when the store opens. Every SQLite connection gets
``journal_mode=WAL``, ``busy_timeout=5000`` and ``foreign_keys=ON``.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from .base import PLAYING, GameStore, StoredGame
from .models import GameRow

MIGRATIONS = Path(__file__).parent / "migrations"
"""The Alembic script folder."""


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url`` (SQLite connections get the PRAGMAs)."""
    engine = create_async_engine(url, pool_pre_ping=not url.startswith("sqlite"))
    if make_url(url).get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config(url: str) -> Any:
    """An Alembic configuration for this package's migrations and ``url``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (blocking; runs its own loop)."""
    from alembic import command

    command.upgrade(alembic_config(url), "head")


def _row(game: StoredGame) -> GameRow:
    return GameRow(
        id=game.id, kind=game.kind, status=game.status, version=game.version,
        meta=json.dumps(game.meta, separators=(",", ":")),
        record=json.dumps(game.record, separators=(",", ":")),
        created_at=game.created_at, updated_at=game.updated_at,
    )


def _game(row: GameRow) -> StoredGame:
    return StoredGame(
        id=row.id, kind=row.kind, status=row.status, version=row.version,
        meta=json.loads(row.meta), record=json.loads(row.record),
        created_at=row.created_at, updated_at=row.updated_at,
    )


class SqlStore(GameStore):
    """Games in an SQL database."""

    def __init__(self, engine: AsyncEngine) -> None:
        """A store on a ready (migrated) engine."""
        self.engine = engine
        """The SQLAlchemy engine (other stores may share it)."""
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        """Session factory."""

    @classmethod
    async def open(cls, url: str, *, run_migrations: bool = True) -> SqlStore:
        """Migrate the database (in a worker thread) and open a store on it."""
        if run_migrations:
            await asyncio.to_thread(migrate, url)
        return cls(make_engine(url))

    async def save(self, game: StoredGame) -> None:
        """Insert or replace."""
        async with self.sessions.begin() as session:
            await session.merge(_row(game))

    async def get(self, game_id: str) -> StoredGame | None:
        """The game, or None."""
        async with self.sessions() as session:
            row = await session.get(GameRow, game_id)
            return _game(row) if row is not None else None

    async def unfinished(self) -> list[StoredGame]:
        """Games in progress, oldest first."""
        async with self.sessions() as session:
            rows = await session.scalars(
                select(GameRow).where(GameRow.status == PLAYING).order_by(GameRow.created_at)
            )
            return [_game(r) for r in rows]

    async def recent(self, limit: int = 50, status: str | None = None) -> list[StoredGame]:
        """Newest first."""
        query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
        if status is not None:
            query = query.where(GameRow.status == status)
        async with self.sessions() as session:
            return [_game(r) for r in await session.scalars(query)]

    async def close(self) -> None:
        """Dispose of the connection pool."""
        await self.engine.dispose()
