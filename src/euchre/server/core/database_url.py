"""The database a server uses when none is named, apart from the site's modules so that
``euchre serve`` and ``euchre db`` read it without loading the site."""

from __future__ import annotations

import os


def default_database_url() -> str:
    """``$EUCHRE_DATABASE_URL``, else an SQLite file ``./var/euchre.db``."""
    return os.environ.get("EUCHRE_DATABASE_URL") or "sqlite+aiosqlite:///./var/euchre.db"
