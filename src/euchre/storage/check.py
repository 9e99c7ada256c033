"""Start-up checks of the database: a broken one is refused with one line naming it.

SQLite: the file is an SQLite database (or empty, or not there yet, with a folder that can
hold it), passes ``PRAGMA quick_check``, and can be written (a write is tried and rolled
back: a read-only file, folder or journal is refused). PostgreSQL: a connection is made and
answers. A URL whose driver this server does not speak is refused before anything is
tried. :class:`DatabaseUnusable` says which database and why, in one line.
"""

from __future__ import annotations

import asyncio
import importlib.util
import sqlite3
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file."""

DRIVERS = ("sqlite+aiosqlite", "postgresql+asyncpg")
"""The database drivers the server speaks (and ``memory:``)."""

DRIVER_MODULES = {"sqlite+aiosqlite": ("aiosqlite", "server"),
                  "postgresql+asyncpg": ("asyncpg", "postgres")}
"""Each driver's Python module, and the extra of euchre that installs it."""

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for PostgreSQL to answer."""


class DatabaseUnusable(Exception):
    """The database cannot be used; the message names it and says why, in one line."""


def shown(url: str) -> str:
    """The URL to show a person: no password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def missing_driver(drivername: str) -> str | None:
    """Why the driver of ``drivername`` cannot be loaded (its module is not installed, and
    which extra installs it), in a few words, or None when it can."""
    module, extra = DRIVER_MODULES[drivername]
    try:
        found = importlib.util.find_spec(module)
    except ImportError:
        found = None
    if found is not None:
        return None
    extras = "server" if extra == "server" else f"server,{extra}"
    return (f"its driver {module!r} is not installed: install euchre's {extra} extra "
            f"(pip install 'euchre[{extras}]', or scripts/setup dev)")


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split()) or type(error).__name__
    return text[:300]


def _check_sqlite(path: Path) -> None:
    try:
        _check_sqlite_file(path)
    except PermissionError as e:  # a folder on the way this user may not enter
        raise DatabaseUnusable(f"cannot reach it: {e.strerror or _one_line(e)}") from None


def _check_sqlite_file(path: Path) -> None:
    if path.is_dir():
        raise DatabaseUnusable("it is a folder, not a file")
    for above in path.parents:
        if above.exists():
            if not above.is_dir():
                raise DatabaseUnusable(f"{str(above)!r} is a file, not a folder")
            break
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DatabaseUnusable(f"cannot make the folder {str(path.parent)!r}: "
                               f"{e.strerror or _one_line(e)}") from None
    if path.exists():
        try:
            with path.open("rb") as f:
                head = f.read(len(SQLITE_HEADER))
        except OSError as e:
            raise DatabaseUnusable(f"cannot read it: {e.strerror or _one_line(e)}") from None
        if head and head != SQLITE_HEADER:
            raise DatabaseUnusable("it is not an SQLite database")
    try:
        conn = sqlite3.connect(path, timeout=5, isolation_level=None)
    except sqlite3.Error as e:
        raise DatabaseUnusable(f"cannot open it: {_one_line(e)}") from None
    try:
        problems = [str(row[0]) for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise DatabaseUnusable(f"it is corrupt (quick_check: {problems[0]})")
        # A real write, rolled back: the write lock alone is granted on a read-only file.
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("ROLLBACK")
    except sqlite3.DatabaseError as e:
        message = _one_line(e)
        if "not a database" in message:
            raise DatabaseUnusable("it is not an SQLite database") from None
        if "malformed" in message or "corrupt" in message:
            raise DatabaseUnusable(f"it is corrupt ({message})") from None
        raise DatabaseUnusable(f"cannot write to it: {message}") from None
    finally:
        conn.close()


async def _check_postgres(url: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url, connect_args={"timeout": CONNECT_TIMEOUT})
    try:
        async with asyncio.timeout(CONNECT_TIMEOUT * 2):
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
    except TimeoutError:
        raise DatabaseUnusable("no answer within "
                               f"{CONNECT_TIMEOUT * 2:g} seconds") from None
    except Exception as e:
        cause = getattr(e, "orig", None) or e
        raise DatabaseUnusable(f"cannot connect: {_one_line(cause)}") from None
    finally:
        await engine.dispose()


async def check_database(url: str) -> None:
    """Raise :class:`DatabaseUnusable` ("database URL: why") if the database at ``url``
    cannot be used; ``memory:`` always can."""
    if url in ("memory", "memory:"):
        return
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseUnusable(f"database {url}: not a database URL") from None
    if parsed.drivername not in DRIVERS:
        raise DatabaseUnusable(
            f"database {shown(url)}: the driver {parsed.drivername!r} is not one this server "
            f"speaks (use {' or '.join(d + '://' for d in DRIVERS)}, or memory:)")
    missing = missing_driver(parsed.drivername)
    if missing is not None:
        raise DatabaseUnusable(f"database {shown(url)}: {missing}")
    try:
        backend = parsed.get_backend_name()
        if backend == "sqlite":
            database = parsed.database or ""
            if database and database != ":memory:" and not database.startswith("file:"):
                await asyncio.to_thread(_check_sqlite, Path(database))
        elif backend == "postgresql":
            await _check_postgres(url)
    except DatabaseUnusable as e:
        raise DatabaseUnusable(f"database {shown(url)}: {e}") from None


def check_database_now(url: str) -> None:
    """:func:`check_database` outside an event loop (the command line, before serving)."""
    asyncio.run(check_database(url))


def unusable_reason(url: str) -> str | None:
    """The one line saying why the database at ``url`` cannot be used, or None."""
    try:
        check_database_now(url)
    except DatabaseUnusable as e:
        return str(e)
    return None

