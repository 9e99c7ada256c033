"""The table behind open online tables (SQLAlchemy Core).

``open_tables`` holds one row per online table before its start (and a while after, so the
people seated are told it started and spectators find it): the table as JSON in ``data``,
the columns the lobby searches on beside it, and ``version``, raised by every change and
compared by every write (:mod:`euchre.storage.open_tables`); a partial unique index keeps
one waiting quick-play table with a free seat per match key. The Alembic migration
``0005_open_tables`` creates exactly this table.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, Index, Integer, String, Table, Text, text

from .accounts_models import metadata

open_tables = Table(
    "open_tables",
    metadata,
    Column("id", String(64), primary_key=True),
    # "open", "started" or "cancelled".
    Column("status", String(16), nullable=False),
    # Whether Play now may seat people here, and what it matches on.
    Column("quick", Boolean, nullable=False),
    Column("match_key", String(120), nullable=False),
    Column("seated", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("version", Integer, nullable=False),
    Column("data", Text, nullable=False),
)
"""One row per online table before its start."""

Index("ix_open_tables_status", open_tables.c.status, open_tables.c.created_at)
Index("ix_open_tables_match", open_tables.c.match_key, open_tables.c.status,
      open_tables.c.created_at)

QUICK_MATCH_WAITING = "status = 'open' AND quick = true AND seated < 4"
"""Rows of the unique index on ``match_key``: waiting quick tables with a free seat."""

# At most one waiting quick-play table with a free seat per match key: two processes that
# find none at the same moment cannot both open one (the second INSERT is refused and that
# request takes a seat at the first).
Index("ux_open_tables_quick_match", open_tables.c.match_key, unique=True,
      sqlite_where=text(QUICK_MATCH_WAITING), postgresql_where=text(QUICK_MATCH_WAITING))
