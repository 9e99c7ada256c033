"""Pooled PostgreSQL connections are pinged only after resting in the pool: a connection
used again at once is not pinged (a ping is three round trips with asyncpg), and one that
rested is, so a connection the server dropped meanwhile is replaced, not used."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from euchre.storage.alive import ping_when_idle

pytestmark = pytest.mark.skipif(not os.environ.get("EUCHRE_TEST_DATABASE_URL"),
                                reason="PostgreSQL: set EUCHRE_TEST_DATABASE_URL to run")


@pytest.fixture
async def database() -> AsyncIterator[str]:
    """A fresh PostgreSQL database's URL."""
    from testdb import drop_postgres, fresh_postgres

    url = await fresh_postgres(os.environ["EUCHRE_TEST_DATABASE_URL"])
    yield url
    await drop_postgres(url)


def counting_pings(engine: AsyncEngine) -> list[int]:
    """Count the engine's pings (one entry each)."""
    dialect = engine.sync_engine.dialect
    pings: list[int] = []
    real = dialect.do_ping

    def do_ping(dbapi_connection: object) -> bool:
        pings.append(1)
        return real(dbapi_connection)

    dialect.do_ping = do_ping  # type: ignore[method-assign]
    return pings


async def backend_pid(engine: AsyncEngine) -> int:
    """The server process of the connection the pool hands out next."""
    async with engine.begin() as conn:
        return int(await conn.scalar(text("SELECT pg_backend_pid()")))


async def drop_backend(url: str, pid: int) -> None:
    """The server ends the connection served by ``pid`` (as a restart would)."""
    other = create_async_engine(url)
    try:
        async with other.begin() as conn:
            assert await conn.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    finally:
        await other.dispose()


async def test_a_connection_used_again_at_once_is_not_pinged(database):
    engine = create_async_engine(database, pool_size=1)
    ping_when_idle(engine, idle=3600.0)
    pings = counting_pings(engine)
    try:
        pids = {await backend_pid(engine) for _ in range(20)}
        assert len(pids) == 1  # one pooled connection, reused for every transaction
        assert pings == []
    finally:
        await engine.dispose()


async def test_a_rested_connection_is_pinged_and_replaced_when_the_server_dropped_it(database):
    engine = create_async_engine(database, pool_size=1)
    ping_when_idle(engine, idle=0.0)  # every checkout counts as after a rest
    pings = counting_pings(engine)
    try:
        first = await backend_pid(engine)
        await drop_backend(database, first)
        second = await backend_pid(engine)  # the ping fails, the pool connects again
        assert second != first
        assert len(pings) >= 2
    finally:
        await engine.dispose()


async def test_without_a_ping_a_dropped_connection_fails_its_next_use(database):
    # What the ping is for: the same drop, with the connection not rested long enough.
    engine = create_async_engine(database, pool_size=1)
    ping_when_idle(engine, idle=3600.0)
    try:
        first = await backend_pid(engine)
        await drop_backend(database, first)
        with pytest.raises(Exception):  # noqa: B017 - asyncpg's or SQLAlchemy's own error
            await backend_pid(engine)
        assert await backend_pid(engine) != first  # discarded: the next use reconnects
    finally:
        await engine.dispose()
