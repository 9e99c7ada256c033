"""Game stores: the memory store and the SQL store keep the same things the same way."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from euchre.storage import FINISHED, PLAYING, GameStore, MemoryStore, StoredGame
from euchre.storage.sql import SqlStore


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[GameStore]:
    """Each kind of store, empty."""
    if request.param == "memory":
        yield MemoryStore()
        return
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/games.db"
    else:
        server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
        if not server:
            pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
        from testdb import drop_postgres, fresh_postgres

        url = await fresh_postgres(server)
    s = await SqlStore.open(url)
    try:
        yield s
    finally:
        await s.close()
        if request.param == "postgres":
            await drop_postgres(url)


def game(game_id: str, status: str = PLAYING, t: float = 1.0, version: int = 3) -> StoredGame:
    """A stored game with some nested JSON."""
    return StoredGame(
        id=game_id, kind="practice", status=status, version=version,
        meta={"config": {"seats": [{"kind": "human", "token_hash": "ab"}]}, "n": [1, 2.5, None]},
        record={"format": "euchre-record", "hands": [{"actions": [[0, "play JH"]]}]},
        created_at=t, updated_at=t + 1,
    )


async def test_round_trip(store: GameStore) -> None:
    g = game("a")
    await store.save(g)
    assert await store.get("a") == g
    assert await store.get("missing") is None


async def test_save_replaces(store: GameStore) -> None:
    await store.save(game("a"))
    later = game("a", FINISHED, version=9)
    await store.save(later)
    assert await store.get("a") == later
    assert await store.unfinished() == []


async def test_unfinished_oldest_first_and_recent_newest_first(store: GameStore) -> None:
    await store.save(game("new", t=30.0))
    await store.save(game("old", t=10.0))
    await store.save(game("done", FINISHED, t=20.0))
    assert [g.id for g in await store.unfinished()] == ["old", "new"]
    assert [g.id for g in await store.recent()] == ["new", "done", "old"]
    assert [g.id for g in await store.recent(status=FINISHED)] == ["done"]
    assert [g.id for g in await store.recent(limit=1)] == ["new"]


async def test_sqlite_connections_get_the_pragmas(tmp_path: Path) -> None:
    from sqlalchemy import text

    s = await SqlStore.open(f"sqlite+aiosqlite:///{tmp_path}/p.db")
    try:
        async with s.engine.connect() as conn:
            mode = (await conn.execute(text("PRAGMA journal_mode"))).scalar()
            busy = (await conn.execute(text("PRAGMA busy_timeout"))).scalar()
            fks = (await conn.execute(text("PRAGMA foreign_keys"))).scalar()
        assert (mode, busy, fks) == ("wal", 5000, 1)
    finally:
        await s.close()


async def test_migrations_run_twice_harmlessly(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/m.db"
    first = await SqlStore.open(url)
    await first.save(game("kept"))
    await first.close()
    second = await SqlStore.open(url)
    try:
        assert (await second.get("kept")) == game("kept")
    finally:
        await second.close()
