"""``euchre db upgrade``: run the database migrations (``euchre serve`` also runs them at
start unless given ``--no-upgrade``)."""

from __future__ import annotations

import argparse
import sys

from ..server.core.database_url import default_database_url


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``euchre db``."""
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    upgrade = sub.add_parser("upgrade", help="migrate the database to the newest schema")
    upgrade.add_argument("--database-url", default=None,
                         help="SQLAlchemy URL (default $EUCHRE_DATABASE_URL or "
                              "sqlite+aiosqlite:///./var/euchre.db)")


def run(args: argparse.Namespace) -> int:
    """Run the migrations; prints what was migrated."""
    from ..storage.sql import migrate

    url = args.database_url or default_database_url()
    if url.startswith("memory"):
        print("euchre db upgrade: a memory store has no schema to migrate", file=sys.stderr)
        return 2
    if url.startswith("sqlite") and ":///" in url:
        from pathlib import Path

        path = url.split(":///", 1)[1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    migrate(url)
    print(f"migrated {_safe(url)} to the newest schema")
    return 0


def _safe(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
