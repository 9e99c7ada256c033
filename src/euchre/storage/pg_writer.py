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
its first after a handover) go the same way in a statement of their own: the rows upserted
where the fence allows, their lines written and the lines after them removed.
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


_WHOLE = """
WITH v AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int4[], $5::text[],
                         $6::text[], $7::float8[], $8::float8[], $9::int8[], $10::int4[])
        AS v(id, kind, status, version, meta, record, created_at, updated_at, fence, lines)
), up AS (
    INSERT INTO games AS g (id, kind, status, version, meta, record, created_at, updated_at,
                            fence, lines)
    SELECT id, kind, status, version, meta, record, created_at, updated_at, fence, lines
    FROM v
    ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, status = excluded.status,
        version = excluded.version, meta = excluded.meta, record = excluded.record,
        updated_at = excluded.updated_at, fence = excluded.fence, lines = excluded.lines
    WHERE g.fence <= excluded.fence
    RETURNING g.id
), put AS (
    INSERT INTO game_lines (game_id, seq, line)
    SELECT l.game_id, l.seq, l.line
    FROM unnest($11::text[], $12::int4[], $13::text[]) AS l(game_id, seq, line)
    WHERE l.game_id IN (SELECT id FROM up)
    ON CONFLICT (game_id, seq) DO UPDATE SET line = excluded.line
), cut AS (
    DELETE FROM game_lines AS d USING v
    WHERE d.game_id = v.id AND d.seq >= v.lines AND v.id IN (SELECT id FROM up)
)
SELECT v.id, g.fence, g.lines FROM v LEFT JOIN games AS g ON g.id = v.id
WHERE v.id NOT IN (SELECT id FROM up)
"""
"""Each game's row written whole (inserted, or replaced where its fence allows), the lines
after the new base written and any left after them (an older base's) removed, and each
save not written with its row's (fence, lines) as they were. The lines written and those
removed are different rows, so the statement's parts never meet."""


_ROWS_NOW = "SELECT id, fence, lines FROM games WHERE id = ANY($1::text[])"
"""The rows of the games named, as committed now (a statement, and so a snapshot, of its
own)."""


class PgWriter:
    """Writes batches of saves that append lines, one statement a batch, on a connection
    of ``engine``'s pool, held from one commit to the next while the writer is busy."""

    def __init__(self, engine: AsyncEngine, meta_text: Callable[[StoredGame], str],
                 record_text: Callable[[StoredGame], str], refusal: Refusal) -> None:
        """A writer through ``engine``; ``meta_text`` and ``record_text`` encode what a
        save did not bring encoded, ``refusal`` says why a save was not written."""
        self.engine = engine
        """The engine whose pooled connections the writer borrows."""
        self._meta_text = meta_text
        self._record_text = record_text
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
        return await self._refused(games, await self._fetch(
            _APPEND, ids, statuses, versions, metas, updated, fences, ends, starts, line_ids,
            seqs, lines))

    async def write_whole(self, games: Mapping[str, Write]) -> dict[str, Exception]:
        """Write ``games`` (each with its record whole, and any lines after it) in one
        statement; why each one not written was not (raises, writing nothing, if the
        statement fails)."""
        columns: tuple[list[Any], ...] = tuple([] for _ in range(10))
        ids, kinds, statuses, versions, metas, records, created, updated, fences, ends = columns
        line_ids: list[str] = []
        seqs: list[int] = []
        lines: list[str] = []
        for game_id, w in games.items():
            game, whole, tail = w.game, w.whole, w.tail
            assert whole is not None
            ids.append(game_id)
            kinds.append(game.kind)
            statuses.append(game.status)
            versions.append(game.version)
            metas.append(self._meta_text(game))
            records.append(self._record_text(whole))
            created.append(game.created_at)
            updated.append(game.updated_at)
            fences.append(game.fence)
            ends.append(tail.end)
            for i, line in enumerate(tail.lines):
                line_ids.append(game_id)
                seqs.append(tail.start + i)
                lines.append(line)
        return await self._refused(games, await self._fetch(_WHOLE, *columns, line_ids, seqs,
                                                            lines))

    async def _refused(self, games: Mapping[str, Write], rows: Any) -> dict[str, Exception]:
        """Why each save of ``rows`` (the statement's saves not written) was not."""
        found: dict[str, tuple[int, int] | None] = {
            r[0]: None if r[1] is None else (int(r[1]), int(r[2])) for r in rows}
        # A statement reads one snapshot: another owner's claim committed while the write
        # waited on the row stops the write, but the statement's own read still shows the
        # row before it. Rows that do not say why are read again, as they are now.
        again = [i for i, row in found.items()
                 if row is None or (row[0] <= games[i].game.fence
                                    and row[1] >= games[i].tail.start)]
        if again:
            for r in await self._fetch(_ROWS_NOW, again):
                found[r[0]] = (int(r[1]), int(r[2]))
        return {i: self._refusal(i, games[i], row) for i, row in found.items()}

    async def _fetch(self, query: str, *args: Any) -> Any:
        """The rows of ``query`` on the connection held (taken from the pool if none)."""
        if self._conn is None:
            self._conn = await self.engine.connect()
            self._raw = (await self._conn.get_raw_connection()).driver_connection
        try:
            return await self._raw.fetch(query, *args)
        except BaseException:
            # The connection may be broken (the server restarted): the pool makes a new
            # one rather than lend this one again.
            conn, self._conn, self._raw = self._conn, None, None
            try:
                await conn.invalidate()
            finally:
                await conn.close()
            raise
