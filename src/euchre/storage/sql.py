"""A :class:`GameStore` in SQL through SQLAlchemy's asyncio engine.

SQLite (aiosqlite) by default, PostgreSQL (asyncpg) when given such a URL. The schema is
brought up to date with Alembic when the store opens. Every SQLite connection gets
``journal_mode=WAL``, ``wal_autocheckpoint=4000``, ``busy_timeout=5000`` and
``foreign_keys=ON``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import bindparam, delete, event, func, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine

from .alive import ping_when_idle
from .base import PLAYING, GameStore, StaleFenceError, StoredGame
from .journal import RecordTail, fold_lines
from .models import GameLineRow, GameRow
from .pg_writer import PgWriter
from .sqlite_writer import SqliteWriter, set_pragmas

MIGRATIONS = Path(__file__).parent / "migrations"
"""The Alembic script folder."""

COMMIT_WINDOW = 0.02
"""Default seconds a save waits for others to share its transaction (group commit)."""
COMMIT_SAVES = 64
"""Default budget of a commit: once this many games' saves wait, the writer stops waiting
for more and commits."""
COMMIT_LINES = 1024
"""Default budget of a commit in record lines (a record written whole counts as
:data:`WHOLE_LINES`): once this many wait, the writer commits."""
COMMIT_LINGER = 0.01
"""Default seconds the writer waits after a commit for more saves to join the next (within
the commit window since that commit began)."""
WHOLE_LINES = 64
"""What a record written whole counts for in :data:`COMMIT_LINES`."""


class Timers(Protocol):
    """A clock with a way to be called back later (``euchre.table.actor.pacing.Scheduler`` has
    this shape; tests pass a fake one)."""

    def now(self) -> float:
        """The current time in seconds (monotonic)."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Any:
        """Call ``callback`` once, ``delay`` seconds from now; returns a handle with
        ``cancel()``."""
        ...


class _LoopTimers:
    """The running asyncio loop's clock and timers."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Any:
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)


def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    set_pragmas(dbapi_connection)


def make_engine(url: str) -> AsyncEngine:
    """An async engine for ``url`` (SQLite connections get the PRAGMAs)."""
    if make_url(url).get_backend_name() == "sqlite":
        engine = create_async_engine(url)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    else:  # a server that may restart: its pooled connections pinged after a rest
        engine = create_async_engine(url)
        ping_when_idle(engine)
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


_COLUMNS = ("id", "kind", "status", "version", "meta", "record", "created_at", "updated_at",
            "fence", "lines")
_FENCE_PG = "SELECT fence FROM games WHERE id = $1"
"""A game's fence on asyncpg, sent as it is: one round trip where SQLAlchemy's connection
adds a ``BEGIN`` and a ``ROLLBACK`` around it."""
_CLAIM_PG = ("UPDATE games SET fence = $2 WHERE id = $1 AND fence <= $2 RETURNING id, kind, "
             "status, version, meta, record, created_at, updated_at, fence, lines")
"""A claim's fence raised on asyncpg, returning the row as written (none: refused)."""
_LINES_PG = "SELECT line FROM game_lines WHERE game_id = $1 AND seq < $2 ORDER BY seq"
"""A game's lines that count, in order, on asyncpg."""
_TAIL_COLUMNS = ("status", "version", "meta", "updated_at", "fence", "lines")
"""What a save with a journal writes to the games row (the record's base stays)."""


@dataclass(slots=True)
class _Write:
    """A save waiting for the writer: the game's latest fields, its record written whole
    (``whole``, or None: only lines), and the lines to write."""

    game: StoredGame
    whole: StoredGame | None
    tail: RecordTail

    def then(self, later: _Write) -> _Write:
        """This save followed by ``later``, as one."""
        if later.whole is not None:
            return later
        return _Write(later.game, self.whole, self.tail.then(later.tail))


def _write(game: StoredGame) -> _Write:
    if game.journal is None:
        return _Write(game, game, RecordTail(0, ()))
    return _Write(game, None, game.journal)


def _meta_text(game: StoredGame) -> str:
    return game.meta_text or json.dumps(game.meta, separators=(",", ":"))


def _record_text(whole: StoredGame) -> str:
    return whole.record_text or json.dumps(whole.record, separators=(",", ":"))


def _values(w: _Write) -> dict[str, Any]:
    game = w.game
    values = {
        "id": game.id, "kind": game.kind, "status": game.status, "version": game.version,
        "meta": _meta_text(game), "created_at": game.created_at,
        "updated_at": game.updated_at, "fence": game.fence, "lines": w.tail.end,
    }
    if w.whole is not None:
        values["record"] = _record_text(w.whole)
    return values


def _refusal(game_id: str, w: _Write, row: tuple[int, int] | None) -> Exception:
    """Why the save ``w`` of ``game_id`` was not written, given the row's (fence, lines)
    as stored (None: no row)."""
    if row is None:
        return LookupError(f"no stored game {game_id} to add record lines to")
    fence, lines = row
    if fence > w.game.fence:
        return StaleFenceError(game_id, w.game.fence, int(fence))
    return ValueError(f"game {game_id}: journal lines {lines} to {w.tail.start - 1} "
                      "are missing")


def _tail_values(w: _Write) -> dict[str, Any]:
    values = _values(w)
    return {"b_id": values["id"], "b_start": w.tail.start,
            **{f"b_{c}": values[c] for c in _TAIL_COLUMNS}}


def _game(row: Any, lines: list[str] | tuple[str, ...] = ()) -> StoredGame:
    return StoredGame(
        id=row.id, kind=row.kind, status=row.status, version=row.version,
        meta=json.loads(row.meta), record=fold_lines(json.loads(row.record), lines),
        created_at=row.created_at, updated_at=row.updated_at, fence=row.fence,
    )


async def _lines(conn: Any, *where: Any) -> dict[str, list[str]]:
    """The journal lines that count of the games ``where`` selects, by game id, in order."""
    query = (select(GameLineRow.game_id, GameLineRow.line)
             .join(GameRow, GameRow.id == GameLineRow.game_id)
             .where(GameLineRow.seq < GameRow.lines, *where)
             .order_by(GameLineRow.game_id, GameLineRow.seq))
    out: dict[str, list[str]] = {}
    for game_id, line in await conn.execute(query):
        out.setdefault(game_id, []).append(line)
    return out


def _sqlite_writer(engine: AsyncEngine) -> SqliteWriter | None:
    """A writer of its own for a SQLite file (None for another database, or a SQLite URL
    with options or in memory: the engine writes those)."""
    url = engine.url
    if (url.get_backend_name() != "sqlite" or url.query
            or url.database in (None, "", ":memory:")):
        return None
    assert url.database is not None
    return SqliteWriter(url.database, _meta_text, _record_text, _refusal)


class SqlStore(GameStore):
    """Games in an SQL database.

    Saves are group-committed: the writer waits ``commit_window`` after the first save,
    then writes every waiting save in one transaction (one upsert per game, the latest
    version of each); each ``save`` returns once its transaction has committed. One writer
    means no lock contention on SQLite, and one commit for many tables' moves. Saves that
    arrive while a commit is written wait, after it, ``commit_linger`` more (never past
    the window since that commit began), so a busy writer's commits carry more saves (a
    commit's own cost, its BEGIN, COMMIT, fsync and round trips, is shared by more moves)
    while a save waits at most a window and a commit, as the first after a rest always
    did. A wait ends early once ``commit_saves`` games' saves or ``commit_lines`` record
    lines wait: a commit's budget.

    The upsert changes a row only where the stored fence is not higher than the save's
    (``ON CONFLICT DO UPDATE ... WHERE``, one atomic statement) and returns the ids it
    wrote: a save whose id is missing was fenced out and raises :class:`StaleFenceError`.

    On a SQLite file the commit runs in one call on a connection and thread of its own
    (:class:`~.sqlite_writer.SqliteWriter`); on PostgreSQL (asyncpg) the saves that append
    lines go in one statement (:class:`~.pg_writer.PgWriter`), records written whole
    through the engine.
    """

    def __init__(self, engine: AsyncEngine, commit_window: float = COMMIT_WINDOW, *,
                 commit_saves: int = COMMIT_SAVES, commit_lines: int = COMMIT_LINES,
                 commit_linger: float | None = None, timers: Timers | None = None) -> None:
        """A store on a ready (migrated) engine; saves wait up to ``commit_window`` seconds
        (on ``timers``, the running loop's by default) to share a transaction with others,
        ``commit_linger`` after a commit, until ``commit_saves`` games' saves or
        ``commit_lines`` lines wait."""
        self.commit_window = commit_window
        """Seconds the writer waits after the first save for others to join its commit."""
        self.commit_saves = commit_saves
        """A commit's budget in games: the writer waits no longer once this many wait."""
        self.commit_lines = commit_lines
        """A commit's budget in record lines."""
        self.commit_linger = COMMIT_LINGER if commit_linger is None else commit_linger
        """Seconds the writer waits after a commit for more saves (within the window
        since that commit began)."""
        self.commits = 0
        """Transactions the writer has run (counted, for benchmarks)."""
        self.written = 0
        """Games' saves those transactions carried."""
        self._timers: Timers = timers if timers is not None else _LoopTimers()
        self._lines = 0  # record lines waiting (a whole record counts WHOLE_LINES)
        self._full: asyncio.Future[None] | None = None  # the writer's wait, while it waits
        self.engine = engine
        """The SQLAlchemy engine (other stores may share it)."""
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        """Session factory."""
        insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert
        stmt = insert(GameRow)
        self._upsert = stmt.on_conflict_do_update(
            index_elements=["id"],
            set_={c: stmt.excluded[c] for c in _COLUMNS if c not in ("id", "created_at")},
            where=GameRow.fence <= stmt.excluded.fence,
        ).returning(GameRow.id)
        self._append = update(GameRow).where(
            GameRow.id == bindparam("b_id"), GameRow.fence <= bindparam("b_fence"),
            GameRow.lines >= bindparam("b_start"),  # the lines before them are stored
        ).values({c: bindparam(f"b_{c}") for c in _TAIL_COLUMNS})
        lines = insert(GameLineRow)
        self._put_lines = lines.on_conflict_do_update(
            index_elements=["game_id", "seq"], set_={"line": lines.excluded.line})
        self._trim_lines = delete(GameLineRow).where(
            GameLineRow.game_id == bindparam("b_id"), GameLineRow.seq >= bindparam("b_lines"))
        self._sqlite = _sqlite_writer(engine)
        self._pg = (PgWriter(engine, _meta_text, _record_text, _refusal)
                    if engine.url.get_driver_name() == "asyncpg" else None)
        self._pending: dict[str, _Write] = {}
        # The saves the writer took and is committing: still read (get, fence_of) until
        # their commit ends, as they were while they waited and once they are stored.
        self._writing: dict[str, _Write] = {}
        self._waiters: dict[str, list[tuple[int, asyncio.Future[None]]]] = {}
        # The waiters of the commit under way (taken from _waiters with its saves), until
        # each is told how it ended: close() waits for them too.
        self._committing: dict[str, list[tuple[int, asyncio.Future[None]]]] = {}
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, *, run_migrations: bool = True,
                   commit_window: float = COMMIT_WINDOW, commit_saves: int = COMMIT_SAVES,
                   commit_lines: int = COMMIT_LINES, commit_linger: float | None = None,
                   timers: Timers | None = None) -> SqlStore:
        """Migrate the database (in a worker thread) and open a store on it."""
        if run_migrations:
            await asyncio.to_thread(migrate, url)
        return cls(make_engine(url), commit_window, commit_saves=commit_saves,
                   commit_lines=commit_lines, commit_linger=commit_linger, timers=timers)

    async def save(self, game: StoredGame) -> None:
        """Insert or replace (or append the journal's lines) unless fenced out; returns
        once committed."""
        pending = self._pending.get(game.id)
        if pending is not None and pending.game.fence > game.fence:
            raise StaleFenceError(game.id, game.fence, pending.game.fence)
        # Encoded by the writer: only the latest fields per game, and every line.
        self._pending[game.id] = _write(game) if pending is None else pending.then(_write(game))
        self._lines += WHOLE_LINES if game.journal is None else len(game.journal.lines)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(game.id, []).append((game.fence, done))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_loop())
        self._wake.set()
        full = self._full
        if full is not None and not full.done() and (
                len(self._pending) >= self.commit_saves or self._lines >= self.commit_lines):
            full.set_result(None)  # the commit's budget is reached: no more waiting
        await done

    async def _linger(self, until: float) -> None:
        """Wait until ``until`` (on the timers' clock), or until a commit's budget of saves
        waits."""
        if len(self._pending) >= self.commit_saves or self._lines >= self.commit_lines:
            return
        delay = until - self._timers.now()
        if delay <= 0:
            return
        full = self._full = asyncio.get_running_loop().create_future()

        def over() -> None:
            if not full.done():
                full.set_result(None)

        timer = self._timers.call_later(delay, over)
        try:
            await full
        finally:
            timer.cancel()
            self._full = None

    async def _write_loop(self) -> None:
        window = self.commit_window
        while True:
            await self._wake.wait()
            until = self._timers.now() + window  # the first save after a rest waits a window
            while True:
                if window > 0:
                    await self._linger(until)
                self._wake.clear()
                if not self._pending:
                    if self._pg is not None:  # resting: its connection back to the pool
                        await self._pg.release()
                    break
                # Saves that come while this commit is written wait, after it, up to
                # commit_linger more, within the window since it began.
                began = self._timers.now()
                games, waiters = self._pending, self._waiters
                self._pending, self._waiters, self._lines = {}, {}, 0
                self._writing, self._committing = games, waiters
                self.commits += 1
                self.written += len(games)
                try:
                    if self._sqlite is not None:
                        refused = await self._sqlite.write(games)
                    elif self._pg is not None:
                        refused = await self._write_pg(self._pg, games)
                    else:
                        async with self.engine.begin() as conn:
                            refused = await self._write(conn, games)
                except Exception as e:
                    for _, w in (w for ws in waiters.values() for w in ws):
                        if not w.done():
                            w.set_exception(e)
                    self._committing = {}
                    continue
                finally:
                    self._writing = {}  # committed (rows read now have it) or failed
                    until = min(began + window, self._timers.now() + self.commit_linger)
                for game_id, ws in waiters.items():
                    written_fence = games[game_id].game.fence
                    for fence, w in ws:
                        if w.done():
                            continue
                        error: Exception | None = refused.get(game_id)
                        if fence < written_fence:  # replaced in the queue by a newer owner
                            error = StaleFenceError(game_id, fence, written_fence)
                        if error is None:
                            w.set_result(None)
                        else:
                            w.set_exception(error)
                self._committing = {}

    async def _write_pg(self, pg: PgWriter, games: dict[str, _Write]) -> dict[str, Exception]:
        """Write ``games`` on PostgreSQL (:class:`~.pg_writer.PgWriter`): the saves that
        append lines in one statement, the records written whole in another. Each part is
        atomic; a part that fails fails its own saves (raises if every save failed
        together)."""
        tails = {k: w for k, w in games.items() if w.whole is None}
        wholes = {k: w for k, w in games.items() if w.whole is not None}
        refused: dict[str, Exception] = {}
        if wholes:
            try:
                refused.update(await pg.write_whole(wholes))
            except Exception as e:
                if not tails:
                    raise
                refused.update(dict.fromkeys(wholes, e))
        if tails:
            try:
                refused.update(await pg.write(tails))
            except Exception as e:
                if not wholes:
                    raise
                refused.update(dict.fromkeys(tails, e))
        return refused

    async def _write(self, conn: Any, games: dict[str, _Write]) -> dict[str, Exception]:
        """Write ``games`` in the open transaction: rows written whole are upserted, rows
        with only new lines updated, each where its fence allows; then the lines of the
        games written. Why each game not written was not."""
        wholes = [w for w in games.values() if w.whole is not None]
        tails = [w for w in games.values() if w.whole is None]
        written: set[str] = set()
        if wholes:
            written |= set((await conn.execute(
                self._upsert, [_values(w) for w in wholes])).scalars())
        if tails:
            result = await conn.execute(self._append, [_tail_values(w) for w in tails])
            if conn.dialect.supports_sane_multi_rowcount and result.rowcount == len(tails):
                written |= {w.game.id for w in tails}
            else:  # which were written: each row as it is now says
                now = {r.id: r for r in (await conn.execute(
                    select(GameRow.id, GameRow.fence, GameRow.lines, GameRow.version).where(
                        GameRow.id.in_([w.game.id for w in tails])))).all()}
                written |= {w.game.id for w in tails if w.game.id in now
                            and (now[w.game.id].fence, now[w.game.id].lines,
                                 now[w.game.id].version)
                            == (w.game.fence, w.tail.end, w.game.version)}
        refused: dict[str, Exception] = {}
        if len(written) < len(games):
            rows = {r.id: r for r in (await conn.execute(
                select(GameRow.id, GameRow.fence, GameRow.lines).where(
                    GameRow.id.in_(set(games) - written)))).all()}
            for game_id in set(games) - written:
                row = rows.get(game_id)
                refused[game_id] = _refusal(
                    game_id, games[game_id], None if row is None else (row.fence, row.lines))
        lines = [{"game_id": w.game.id, "seq": w.tail.start + i, "line": line}
                 for w in games.values() if w.game.id in written
                 for i, line in enumerate(w.tail.lines)]
        if lines:
            await conn.execute(self._put_lines, lines)
        trims = [{"b_id": w.game.id, "b_lines": w.tail.end} for w in wholes
                 if w.game.id in written]
        if trims:  # lines after an old base: never read, tidied away
            await conn.execute(self._trim_lines, trims)
        return refused

    async def claim(self, game_id: str, fence: int) -> StoredGame | None:
        """Raise the stored fence to ``fence`` (one conditional UPDATE) and read the game
        in the same transaction; None if there is none, :class:`StaleFenceError` if its
        fence is higher."""
        if self._pg is not None:
            return await self._claim_pg(game_id, fence)
        async with self.engine.begin() as conn:
            await conn.execute(update(GameRow).where(GameRow.id == game_id,
                                                     GameRow.fence <= fence).values(fence=fence))
            row = (await conn.execute(select(GameRow).where(GameRow.id == game_id))).first()
            lines = await _lines(conn, GameRow.id == game_id) if row is not None else {}
        if row is None:
            return None
        if row.fence != fence:
            raise StaleFenceError(game_id, fence, row.fence)
        return _game(row, lines.get(game_id, ()))

    async def _claim_pg(self, game_id: str, fence: int) -> StoredGame | None:
        """:meth:`claim` on asyncpg in two statements sent as they are, each its own
        transaction, where SQLAlchemy's is five round trips (``BEGIN``, the UPDATE, two
        SELECTs, ``COMMIT``): the UPDATE returns the row as it wrote it, and once the fence
        is raised no older owner changes the game, so its lines read next are the row's."""
        async with self.engine.connect() as conn:
            raw: Any = (await conn.get_raw_connection()).driver_connection
            row = await raw.fetchrow(_CLAIM_PG, game_id, fence)
            if row is None:  # no game, or a higher fence than ours
                stored = await raw.fetchval(_FENCE_PG, game_id)
                if stored is None:
                    return None
                raise StaleFenceError(game_id, fence, int(stored))
            lines = ([r[0] for r in await raw.fetch(_LINES_PG, game_id, row["lines"])]
                     if row["lines"] else [])
        return StoredGame(
            id=row["id"], kind=row["kind"], status=row["status"], version=row["version"],
            meta=json.loads(row["meta"]), record=fold_lines(json.loads(row["record"]), lines),
            created_at=row["created_at"], updated_at=row["updated_at"], fence=row["fence"],
        )

    async def max_fence(self) -> int:
        """The highest fence stored (0 if none)."""
        async with self.engine.connect() as conn:
            return int(await conn.scalar(select(func.coalesce(func.max(GameRow.fence), 0))) or 0)

    async def get(self, game_id: str) -> StoredGame | None:
        """The game, or None (a save still being written counts)."""
        pending = self._unstored(game_id)
        if pending is not None and pending.whole is not None:
            record = fold_lines(pending.whole.record, pending.tail.lines)
            return replace(pending.game, record=record, record_text=None, meta_text=None,
                           journal=None)
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(GameRow).where(GameRow.id == game_id))).first()
            lines = await _lines(conn, GameRow.id == game_id) if row is not None else {}
        if row is None:
            return None
        stored = _game(row, lines.get(game_id, ()))
        if pending is None:
            return stored
        tail = lines.get(game_id, [])[:pending.tail.start]
        if len(tail) < pending.tail.start:
            return stored  # the lines before it are missing: its save will fail
        record = fold_lines(json.loads(row.record), [*tail, *pending.tail.lines])
        return replace(pending.game, record=record, created_at=stored.created_at,
                       meta_text=None, journal=None)

    def _unstored(self, game_id: str) -> _Write | None:
        """The game's saves not yet committed, as one: the one being committed followed by
        the one waiting (either may be missing; None if both are)."""
        writing, pending = self._writing.get(game_id), self._pending.get(game_id)
        if writing is None or pending is None:
            return pending or writing
        try:
            return writing.then(pending)
        except ValueError:  # the waiting lines do not follow: that save will be refused
            return writing

    async def fence_of(self, game_id: str) -> int | None:
        """The game's fence (a save still being written counts), read without its record
        or lines: one small query where :meth:`get` is two and decodes the record."""
        pending = self._unstored(game_id)
        async with self.engine.connect() as conn:
            if self._pg is not None:  # one round trip, outside a transaction
                raw: Any = (await conn.get_raw_connection()).driver_connection
                stored = await raw.fetchval(_FENCE_PG, game_id)
            else:
                stored = await conn.scalar(select(GameRow.fence).where(GameRow.id == game_id))
        if pending is None:
            return None if stored is None else int(stored)
        return pending.game.fence if stored is None else max(pending.game.fence, int(stored))

    async def unfinished(self) -> list[StoredGame]:
        """Games in progress, oldest first."""
        where = GameRow.status == PLAYING
        async with self.engine.connect() as conn:
            rows = (await conn.execute(
                select(GameRow).where(where).order_by(GameRow.created_at))).all()
            lines = await _lines(conn, where)
        return [_game(r, lines.get(r.id, ())) for r in rows]

    async def unfinished_ids(self) -> list[tuple[str, str, float]]:
        """(id, kind, updated_at) of the games in progress, oldest first (no records read)."""
        query = select(GameRow.id, GameRow.kind, GameRow.updated_at) \
            .where(GameRow.status == PLAYING).order_by(GameRow.created_at)
        async with self.engine.connect() as conn:
            return [(r.id, r.kind, float(r.updated_at)) for r in await conn.execute(query)]

    async def recent(self, limit: int = 50, status: str | None = None) -> list[StoredGame]:
        """Newest first."""
        query = select(GameRow).order_by(GameRow.updated_at.desc()).limit(limit)
        if status is not None:
            query = query.where(GameRow.status == status)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            with_lines = [r.id for r in rows if r.lines]
            lines = await _lines(conn, GameRow.id.in_(with_lines)) if with_lines else {}
        return [_game(r, lines.get(r.id, ())) for r in rows]

    async def ping(self) -> None:
        """Run ``SELECT 1``: raises if the database cannot be reached."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    async def close(self) -> None:
        """Finish pending saves (the commit under way, and those waiting for the next) and
        dispose of the connection pool."""
        while self._waiters or (self._committing and self._writer is not None
                                and not self._writer.done()):  # (not a writer cancelled)
            await asyncio.gather(*(w for waiters in (self._committing, self._waiters)
                                   for ws in waiters.values() for _, w in ws),
                                 return_exceptions=True)
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self._sqlite is not None:
            await self._sqlite.close()
        if self._pg is not None:
            await self._pg.release()
        await self.engine.dispose()
