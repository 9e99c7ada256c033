"""Fresh databases for tests: a SQLite file, or a uniquely named PostgreSQL database.

PostgreSQL is used when ``EUCHRE_TEST_DATABASE_URL`` names a server (``scripts/test``
sets it); each call of :func:`fresh_postgres` creates a new database there and
:func:`drop_postgres` removes it, so test runs never share state.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import secrets
import shutil
import sqlite3
import tempfile

from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.storage.accounts_models import metadata as accounts_metadata
from euchre.storage.sql import make_engine as make_engine  # the server's engine, PRAGMAs and all

ENV = "EUCHRE_TEST_DATABASE_URL"
"""The environment variable naming the PostgreSQL server for tests."""


def postgres_url() -> str | None:
    """The test PostgreSQL URL from the environment, if set."""
    return os.environ.get(ENV) or None


def sqlite_url(path: str) -> str:
    """The async SQLAlchemy URL of a SQLite file."""
    return f"sqlite+aiosqlite:///{path}"


async def fresh_postgres(server_url: str, template: str = "") -> str:
    """Create a uniquely named database on the server (a copy of ``template`` if given);
    returns its URL."""
    import asyncpg  # type: ignore[import-untyped]

    url = make_url(server_url)
    name = f"euchre_test_{secrets.token_hex(6)}"
    conn = await asyncpg.connect(
        host=url.host, port=url.port, user=url.username, password=url.password,
        database=url.database or "postgres",
    )
    try:
        copy = f' TEMPLATE "{template}"' if template else ""
        await conn.execute(f'CREATE DATABASE "{name}"{copy}')
    finally:
        await conn.close()
    return url.set(database=name).render_as_string(hide_password=False)


_templates: dict[str, str] = {}
"""This process's migrated template database, by server URL (made on first use)."""


async def fresh_migrated_postgres(server_url: str) -> str:
    """A new database already at the newest schema; its URL. This process migrates one
    template database once (the same migrations a server runs at its start, which then
    find nothing to do) and copies it for each call (``CREATE DATABASE ... TEMPLATE``:
    a file copy, where migrating each new database took a second or more)."""
    template = _templates.get(server_url)
    if template is None:
        from euchre.storage.sql import migrate

        template_url = await fresh_postgres(server_url)
        await asyncio.to_thread(migrate, template_url)
        template = make_url(template_url).database or ""
        _templates[server_url] = template
        atexit.register(asyncio.run, drop_postgres(template_url))
    return await fresh_postgres(server_url, template)


def migrated_sqlite(path: str) -> str:
    """The async URL of a SQLite file at ``path`` already at the newest schema: a copy of
    one this process migrated once (SQLite's backup, so the copy is whole)."""
    template = _templates.get("sqlite")
    if template is None:
        from euchre.storage.sql import migrate

        folder = tempfile.mkdtemp(prefix="euchre-template-")
        atexit.register(shutil.rmtree, folder, True)
        template = os.path.join(folder, "template.db")
        migrate(sqlite_url(template))
        _templates["sqlite"] = template
    source, target = sqlite3.connect(template), sqlite3.connect(path)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    return sqlite_url(path)


async def drop_postgres(db_url: str) -> None:
    """Drop a database made by :func:`fresh_postgres`."""
    import asyncpg

    url = make_url(db_url)
    conn = await asyncpg.connect(
        host=url.host, port=url.port, user=url.username, password=url.password,
        database="postgres",
    )
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)')
    finally:
        await conn.close()


async def create_ledger_tables(url: str) -> AsyncEngine:
    """An engine on ``url`` with the account and ledger tables created."""
    engine = make_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(accounts_metadata.create_all)
    return engine
