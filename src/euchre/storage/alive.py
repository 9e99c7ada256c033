"""Checking a pooled database connection is alive before it is used, only when it has
been idle.

SQLAlchemy's ``pool_pre_ping`` pings at every checkout; with asyncpg a ping is three round
trips (a transaction begun, an empty statement, a rollback), and the group-commit writer
checks a connection out for every commit, so under load the pings cost as much as the
commits. A connection checked in a moment ago has just worked; one idle longer (or fresh
from a database that restarted meanwhile) is pinged, and a failed ping makes the pool
discard it and connect again, as ``pool_pre_ping`` does.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event, exc
from sqlalchemy.ext.asyncio import AsyncEngine

IDLE_BEFORE_PING = 1.0
"""Seconds a connection may rest in the pool and be used without a ping."""

_RESTED = "euchre_checked_in_at"


def ping_when_idle(engine: AsyncEngine, idle: float = IDLE_BEFORE_PING) -> None:
    """Ping ``engine``'s connections at checkout when they rested in its pool over ``idle``
    seconds (the engine must not use ``pool_pre_ping`` too)."""
    pool = engine.sync_engine.pool
    dialect = engine.sync_engine.dialect

    @event.listens_for(pool, "connect")
    def _fresh(dbapi_connection: Any, record: Any) -> None:
        record.info[_RESTED] = time.monotonic()  # just connected: alive

    @event.listens_for(pool, "checkin")
    def _rest(dbapi_connection: Any, record: Any) -> None:
        record.info[_RESTED] = time.monotonic()

    @event.listens_for(pool, "checkout")
    def _check(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        if time.monotonic() - record.info.get(_RESTED, 0.0) <= idle:
            return
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as e:
            # The pool discards this connection and checks out a new one.
            raise exc.DisconnectionError(f"the pooled connection is gone: {e}") from e
