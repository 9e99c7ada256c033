"""Seats taken as a guest and bound to an account at sign-in, kept in the database (so every
process finds them): the table's stored seat keeps its token; the claim adds the account."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from ..coins.ledger import utcnow
from ..storage.people_models import seat_claims


class SeatClaims:
    """The ``seat_claims`` rows."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """Claims on ``engine`` (migrated)."""
        self.engine = engine
        """The database (the accounts')."""
        self.now = now
        """The clock for row times."""
        self._insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert

    async def claim(self, table_id: str, seat: int, account_id: int) -> bool:
        """Bind ``seat`` at ``table_id`` to the account; True if it is that account's now
        (a seat already claimed by another account stays theirs)."""
        async with self.engine.begin() as conn:
            await conn.execute(self._insert(seat_claims).values(
                table_id=table_id, seat=seat, account_id=account_id, created_at=self.now()
            ).on_conflict_do_nothing(index_elements=["table_id", "seat"]))
            owner = await conn.scalar(select(seat_claims.c.account_id).where(
                seat_claims.c.table_id == table_id, seat_claims.c.seat == seat))
        return owner == account_id

    async def seats_of(self, account_id: int, table_id: str) -> tuple[int, ...]:
        """The seats at ``table_id`` the account claimed."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(seat_claims.c.seat).where(
                seat_claims.c.account_id == account_id, seat_claims.c.table_id == table_id
            ).order_by(seat_claims.c.seat))
            return tuple(int(r.seat) for r in rows)
