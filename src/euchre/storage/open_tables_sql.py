"""Open online tables in SQL (SQLite or PostgreSQL): every change a conditional UPDATE."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import and_, delete, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .lobby_models import open_tables
from .open_tables import (
    CANCELLED,
    OPEN,
    STARTED,
    MatchTaken,
    OpenTableRow,
    OpenTableStore,
    SeatCheck,
)

_T = open_tables.c


def _values(row: OpenTableRow) -> dict[str, Any]:
    return {"id": row.id, "status": row.status, "quick": row.quick, "match_key": row.match_key,
            "seated": row.seated, "created_at": row.created_at, "updated_at": row.updated_at,
            "version": row.version, "data": json.dumps(row.data, separators=(",", ":"))}


def _row(found: Any) -> OpenTableRow:
    m = found._mapping
    return OpenTableRow(id=m["id"], status=m["status"], quick=bool(m["quick"]),
                        match_key=m["match_key"], seated=int(m["seated"]),
                        created_at=float(m["created_at"]), updated_at=float(m["updated_at"]),
                        version=int(m["version"]), data=json.loads(m["data"]))


class SqlOpenTableStore(OpenTableStore):
    """Open tables in the site's database (the engine is shared with the game store)."""

    def __init__(self, engine: AsyncEngine) -> None:
        """A store on a migrated engine."""
        self.engine = engine
        """The database."""

    @contextlib.asynccontextmanager
    async def _transaction(self, check: SeatCheck | None) -> AsyncIterator[AsyncConnection]:
        """A transaction; with ``check``, the person's lock is taken first and the check
        made on what is stored once it is held (refused: nothing written)."""
        if check is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self.engine.connect() as conn:
            if conn.dialect.name == "sqlite":  # the write lock now, not at the first write
                await conn.exec_driver_sql("BEGIN IMMEDIATE")
            else:  # one person's checked writes queue; other people's pass
                await conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                                   {"key": f"seats:{check.person}"})
            try:
                found = await conn.execute(select(open_tables).where(or_(
                    _T.status == OPEN,
                    and_(_T.status == STARTED, _T.updated_at >= check.since))))
                check.check([_row(r) for r in found.all()])
                yield conn
            except BaseException:
                await conn.rollback()
                raise
            await conn.commit()

    async def add(self, row: OpenTableRow, check: SeatCheck | None = None) -> None:
        """One INSERT (the unique index on waiting quick tables may refuse it), after
        ``check`` in the same transaction."""
        try:
            async with self._transaction(check) as conn:
                await conn.execute(insert(open_tables).values(**_values(row)))
        except IntegrityError as e:
            if row.holds_match():
                raise MatchTaken(row.match_key) from e
            raise

    async def get(self, table_id: str) -> OpenTableRow | None:
        """One SELECT."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(open_tables).where(_T.id == table_id))).first()
        return None if found is None else _row(found)

    async def replace(self, row: OpenTableRow, version: int,
                      check: SeatCheck | None = None) -> bool:
        """``UPDATE ... WHERE id = ? AND version = ?``: written only over the version read
        (after ``check``, in the same transaction)."""
        values = _values(row)
        del values["id"]
        try:
            async with self._transaction(check) as conn:
                done = await conn.execute(update(open_tables).where(
                    _T.id == row.id, _T.version == version).values(**values))
        except IntegrityError as e:
            if row.holds_match():
                raise MatchTaken(row.match_key) from e
            raise
        return bool(done.rowcount == 1)

    async def delete(self, table_id: str, version: int) -> bool:
        """``DELETE ... WHERE id = ? AND version = ?``."""
        async with self.engine.begin() as conn:
            done = await conn.execute(delete(open_tables).where(
                _T.id == table_id, _T.version == version))
        return bool(done.rowcount == 1)

    async def with_status(self, status: str, limit: int = 1000) -> list[OpenTableRow]:
        """Oldest first, by the status index."""
        query = select(open_tables).where(_T.status == status).order_by(
            _T.created_at, _T.id).limit(limit)
        async with self.engine.connect() as conn:
            return [_row(r) for r in (await conn.execute(query)).all()]

    async def sweep(self, open_before: float, alone_before: float,
                    started_before: float) -> int:
        """One DELETE of everything too old."""
        async with self.engine.begin() as conn:
            done = await conn.execute(delete(open_tables).where(or_(
                and_(_T.status == STARTED, _T.updated_at < started_before),
                and_(_T.status.in_([OPEN, CANCELLED]), _T.created_at < open_before),
                and_(_T.status == OPEN, _T.seated <= 1, _T.created_at < alone_before),
            )))
        return int(done.rowcount or 0)
