"""The games' group commit on a SQLite file: every save of a commit in one call on one thread.

Through SQLAlchemy and aiosqlite each statement of a commit was compiled, had its
parameters built, and crossed to aiosqlite's thread and back; a commit carrying twenty
tables' saves made dozens of such trips. :class:`SqliteWriter` keeps its own ``sqlite3``
connection on its own thread and runs a whole commit there in one call: a conditional
upsert per record written whole, the saves that only append lines in one ``executemany`` of
a conditional UPDATE (each save whose row is not changed by it is then written alone, so a
fenced-out save fails alone), then the new lines in one ``executemany``. The statements
are plain SQL text, prepared once by ``sqlite3``'s statement cache. Reads and every other
store still go through SQLAlchemy; SQLite's write lock (and ``busy_timeout``) orders this
connection's writes with theirs.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from itertools import repeat
from typing import Any, Protocol

from .base import StoredGame
from .journal import RecordTail

_UPSERT = (
    "INSERT INTO games (id, kind, status, version, meta, record, created_at, updated_at, "
    "fence, lines) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET "
    "kind = excluded.kind, status = excluded.status, version = excluded.version, "
    "meta = excluded.meta, record = excluded.record, updated_at = excluded.updated_at, "
    "fence = excluded.fence, lines = excluded.lines WHERE games.fence <= excluded.fence")
"""A game written whole: inserted, or replaced where the stored fence allows."""
_APPEND = (
    "UPDATE games SET status = ?, version = ?, meta = ?, updated_at = ?, fence = ?, "
    "lines = ? WHERE id = ? AND fence <= ? AND lines >= ?")
"""A game's latest fields where its fence allows and the lines before the new ones are
stored (the record's base stays)."""
_APPEND_SAME = (
    "UPDATE games SET version = ?, meta = ?, updated_at = ?, fence = ?, lines = ? "
    "WHERE id = ? AND fence <= ? AND lines >= ? AND status = ?")
""":data:`_APPEND` for a save whose status is the row's already (most saves): the status
column is not set, so SQLite leaves its index alone (setting it to the same value deletes
and inserts the index entry)."""
_PUT_LINES = (
    "INSERT INTO game_lines (game_id, seq, line) VALUES (?, ?, ?) "
    "ON CONFLICT (game_id, seq) DO UPDATE SET line = excluded.line")
"""A record line (one left by an undone save is written over)."""
_TRIM_LINES = "DELETE FROM game_lines WHERE game_id = ? AND seq >= ?"
"""The lines after a base written whole (never read again)."""
_ROW = "SELECT fence, lines FROM games WHERE id = ?"
"""What a refused save is told about the row."""


WAL_CHECKPOINT_PAGES = 4000
"""Pages in the write-ahead log after which a commit copies them into the database file
(SQLite's default is 1000). A checkpoint writes each page once however many commits
changed it, and a busy server's commits keep changing the same few hundred pages (the
playing games' rows, the lines' index), so one every 4000 pages writes about as much as
one every 1000 did, a quarter as often. The log file grows to about 16 MB."""


BUSY_TIMEOUT_MS = 5000
"""Milliseconds a statement waits for another connection's write lock before SQLite
answers "database is locked" (the server then answers 503 with a retry hint)."""


WRITER_CACHE_KIB = 16384
"""The writer connection's page cache (SQLite's default is 2 MiB, 500 pages): a commit
reads each playing game's row page and lines' index page, and with a thousand games
playing that set is several times 500 pages, so most commits read dozens back from the
file first."""


SYNCHRONOUS_ENV = "EUCHRE_SQLITE_SYNCHRONOUS"
"""The environment variable that sets SQLite's ``synchronous`` for every connection (OFF,
NORMAL, FULL or EXTRA). Unset: SQLite's own, FULL, where each commit waits for the disk
(about 7 ms on a shared virtual disk). The test suite sets NORMAL (commits are not flushed
one by one, the write-ahead log and its locks are the same), as its PostgreSQL runs with
``fsync`` off: no test is about surviving a power cut."""

SYNCHRONOUS_LEVELS = ("OFF", "NORMAL", "FULL", "EXTRA")
"""The values :data:`SYNCHRONOUS_ENV` may take."""


def synchronous_level() -> str | None:
    """The ``synchronous`` level :data:`SYNCHRONOUS_ENV` asks for (None: SQLite's own);
    :class:`ValueError` naming the choices for anything else."""
    asked = os.environ.get(SYNCHRONOUS_ENV, "").strip().upper()
    if not asked:
        return None
    if asked not in SYNCHRONOUS_LEVELS:
        raise ValueError(f"{SYNCHRONOUS_ENV} must be one of {', '.join(SYNCHRONOUS_LEVELS)}")
    return asked


def set_pragmas(db: Any) -> None:
    """What every connection to a games file runs first (this writer's and SQLAlchemy's):
    write-ahead log, checkpoints every :data:`WAL_CHECKPOINT_PAGES`, waiting for the
    write lock, foreign keys, and the ``synchronous`` level of :data:`SYNCHRONOUS_ENV`."""
    level = synchronous_level()
    cursor = db.cursor()
    if level is not None:
        cursor.execute(f"PRAGMA synchronous={level}")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Write(Protocol):
    """One game's save as the writer takes it (the SQL store's pending save)."""

    @property
    def game(self) -> StoredGame:
        """The game's latest fields."""

    @property
    def whole(self) -> StoredGame | None:
        """The game whose record is written whole, or None (only lines)."""

    @property
    def tail(self) -> RecordTail:
        """The record lines to write."""


Refusal = Callable[[str, Any, "tuple[int, int] | None"], Exception]
"""Why a save was not written, from its game id, the save and the row's (fence, lines)."""


class SqliteWriter:
    """Writes batches of saves to the SQLite file at ``path``, one transaction a batch, on
    a thread of its own."""

    def __init__(self, path: str, meta_text: Callable[[StoredGame], str],
                 record_text: Callable[[StoredGame], str], refusal: Refusal) -> None:
        """A writer to ``path``; ``meta_text`` and ``record_text`` encode what a save did
        not bring encoded, ``refusal`` says why a save was not written."""
        self.path = path
        """The database file."""
        self._meta_text = meta_text
        self._record_text = record_text
        self._refusal = refusal
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="games-writer")
        self._db: sqlite3.Connection | None = None
        self._closed = False

    async def write(self, games: Mapping[str, Write]) -> dict[str, Exception]:
        """Write ``games`` in one transaction; why each one not written was not (raises,
        writing nothing, if the transaction fails)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, self._transaction, games)

    async def close(self) -> None:
        """Close the connection and stop the thread (once: closing again does nothing)."""
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._thread, self._close)
        self._thread.shutdown(wait=False)

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            # autocommit mode: the transaction is begun and ended here, explicitly
            db = sqlite3.connect(self.path, isolation_level=None)
            set_pragmas(db)
            db.execute(f"PRAGMA cache_size=-{WRITER_CACHE_KIB}")
            self._db = db
        return self._db

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _transaction(self, games: Mapping[str, Write]) -> dict[str, Exception]:
        db = self._connect()
        db.execute("BEGIN IMMEDIATE")
        try:
            refused = self._write(db, games)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return refused

    def _write(self, db: sqlite3.Connection, games: Mapping[str, Write]) -> dict[str, Exception]:
        execute = db.execute
        refused: dict[str, Exception] = {}
        written: list[tuple[str, Write]] = []
        appends: list[tuple[str, Write]] = []
        trims: list[tuple[str, int]] = []
        meta_text = self._meta_text
        for game_id, w in games.items():
            if w.whole is None:
                appends.append((game_id, w))
                continue
            game, tail = w.game, w.tail
            if execute(_UPSERT, (
                    game_id, game.kind, game.status, game.version, meta_text(game),
                    self._record_text(w.whole), game.created_at, game.updated_at,
                    game.fence, tail.end)).rowcount:
                written.append((game_id, w))
                trims.append((game_id, tail.end))
            else:
                refused[game_id] = self._refuse(db, game_id, w)
        if appends:
            # One statement for them all; if it changed fewer rows than it was given (a
            # save that changes the status, or one refused), each is written on its own
            # with the status, which writes again the same fields to those it changed.
            if db.executemany(_APPEND_SAME, [
                    (w.game.version, meta_text(w.game), w.game.updated_at, w.game.fence,
                     w.tail.end, game_id, w.game.fence, w.tail.start, w.game.status)
                    for game_id, w in appends]).rowcount == len(appends):
                written += appends
            else:
                for game_id, w in appends:
                    game, tail = w.game, w.tail
                    if execute(_APPEND, (
                            game.status, game.version, meta_text(game), game.updated_at,
                            game.fence, tail.end, game_id, game.fence, tail.start)).rowcount:
                        written.append((game_id, w))
                    else:
                        refused[game_id] = self._refuse(db, game_id, w)
        lines: list[tuple[str, int, str]] = []
        for game_id, w in written:
            tail = w.tail
            if tail.lines:
                lines += zip(repeat(game_id), range(tail.start, tail.end), tail.lines)
        if lines:
            db.executemany(_PUT_LINES, lines)
        if trims:  # lines after an old base: never read, tidied away
            db.executemany(_TRIM_LINES, trims)
        return refused

    def _refuse(self, db: sqlite3.Connection, game_id: str, w: Write) -> Exception:
        """Why ``w`` was not written, from its row as stored."""
        return self._refusal(game_id, w, db.execute(_ROW, (game_id,)).fetchone())
