"""The games' group commit on PostgreSQL: every save that appends lines in one statement.

Through SQLAlchemy a commit of saves that append lines was five round trips (``BEGIN``,
the games' UPDATEs, a SELECT to learn which rows they changed, as asyncpg cannot count an
``executemany``'s rows, the lines' INSERT, ``COMMIT``) and SQLAlchemy's compiling and
parameter building for each. :class:`PgWriter` sends them as one statement on the
asyncpg connection under the pool's: the saves travel as arrays (``unnest``), a CTE
updates each game's row where its fence allows and the lines before the new ones are
stored, another writes the lines of the games updated, and the statement returns, for
each save not written, its row's fence and lines. One statement is atomic by itself, so it
needs no ``BEGIN``/``COMMIT`` of its own: one round trip a commit. asyncpg prepares it
once per connection (its statement cache). Records written whole (a table's first save,
a finished game) still go through SQLAlchemy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from .base import StoredGame
from .sqlite_writer import Refusal, Write

_APPEND = """
WITH v AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int4[], $4::text[], $5::float8[],
                         $6::int8[], $7::int4[], $8::int4[])
        AS v(id, status, version, meta, updated_at, fence, lines, start)
), upd AS (
    UPDATE games AS g SET status = v.status, version = v.version, meta = v.meta,
        updated_at = v.updated_at, fence = v.fence, lines = v.lines
    FROM v WHERE g.id = v.id AND g.fence <= v.fence AND g.lines >= v.start
    RETURNING g.id
), put AS (
    INSERT INTO game_lines (game_id, seq, line)
    SELECT l.game_id, l.seq, l.line
    FROM unnest($9::text[], $10::int4[], $11::text[]) AS l(game_id, seq, line)
    WHERE l.game_id IN (SELECT id FROM upd)
    ON CONFLICT (game_id, seq) DO UPDATE SET line = excluded.line
)
SELECT v.id, g.fence, g.lines FROM v LEFT JOIN games AS g ON g.id = v.id
WHERE v.id NOT IN (SELECT id FROM upd)
"""
"""Each game's latest fields where its fence allows and the lines before its new ones are
stored (the record's base stays), those games' new lines (one left by an undone save is
written over), and each save not written with its row's (fence, lines) as they were (NULL:
no row)."""


class PgWriter:
    """Writes batches of saves that append lines, one statement a batch, on a connection
    of ``engine``'s pool, held from one commit to the next while the writer is busy."""

    def __init__(self, engine: AsyncEngine, meta_text: Callable[[StoredGame], str],
                 refusal: Refusal) -> None:
        """A writer through ``engine``; ``meta_text`` encodes a meta a save did not bring
        encoded, ``refusal`` says why a save was not written."""
        self.engine = engine
        """The engine whose pooled connections the writer borrows."""
        self._meta_text = meta_text
        self._refusal = refusal
        # Held from the pool while commits follow one another (a checkout and its return
        # cost several times the statement's own CPU), given back when the writer rests.
        self._conn: AsyncConnection | None = None
        self._raw: Any = None

    async def release(self) -> None:
        """Give the connection held back to the pool (the writer has nothing to write)."""
        conn, self._conn, self._raw = self._conn, None, None
        if conn is not None:
            await conn.close()

    async def write(self, games: Mapping[str, Write]) -> dict[str, Exception]:
        """Write ``games`` (each with only lines to append) in one statement; why each one
        not written was not (raises, writing nothing, if the statement fails)."""
        ids: list[str] = []
        statuses: list[str] = []
        versions: list[int] = []
        metas: list[str] = []
        updated: list[float] = []
        fences: list[int] = []
        ends: list[int] = []
        starts: list[int] = []
        line_ids: list[str] = []
        seqs: list[int] = []
        lines: list[str] = []
        meta_text = self._meta_text
        for game_id, w in games.items():
            game, tail = w.game, w.tail
            ids.append(game_id)
            statuses.append(game.status)
            versions.append(game.version)
            metas.append(meta_text(game))
            updated.append(game.updated_at)
            fences.append(game.fence)
            ends.append(tail.end)
            starts.append(tail.start)
            seq = tail.start
            for line in tail.lines:
                line_ids.append(game_id)
                seqs.append(seq)
                lines.append(line)
                seq += 1
        if self._conn is None:
            self._conn = await self.engine.connect()
            self._raw = (await self._conn.get_raw_connection()).driver_connection
        try:
            rows = await self._raw.fetch(_APPEND, ids, statuses, versions, metas, updated,
                                         fences, ends, starts, line_ids, seqs, lines)
        except BaseException:
            # The connection may be broken (the server restarted): the pool makes a new
            # one rather than lend this one again.
            conn, self._conn, self._raw = self._conn, None, None
            try:
                await conn.invalidate()
            finally:
                await conn.close()
            raise
        return {r[0]: self._refusal(r[0], games[r[0]],
                                    None if r[1] is None else (int(r[1]), int(r[2])))
                for r in rows}
