"""The tables behind euchre nights in a room (host mode), SQLAlchemy Core.

``nights`` holds one evening: its host, its settings and how far it has gone;
``night_people`` the names the host registered (no accounts), numbered from 0 in order;
``night_tables`` each round's tables as :func:`euchre.tournament.schedule` seats them, with
the short code a table's phone scores by. ``night_entries`` is a log that is only ever added
to: every hand entered at a table and every correction by the host is a row with who made it,
and the newest row for a hand is the one that counts. ``night_confirms`` logs the other
pair's confirmations, each naming the newest entry it saw, so a later entry needs confirming
again. The Alembic migrations ``0012_nights`` and ``0013_night_movement`` create exactly
these tables.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
)

from .accounts_models import metadata

nights = Table(
    "nights",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("host_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("name", String(80), nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("loner_bonus", Boolean, nullable=False),
    # "rotating" (partners from the schedule) or "kings" (king's table, from the results);
    # added by 0013_night_movement.
    Column("movement", String(16), nullable=False, server_default="rotating"),
    # "registering", then "playing", then "finished".
    Column("status", String(16), nullable=False),
    # The round being played (0 while registering).
    Column("current_round", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("rounds >= 1", name="ck_nights_rounds"),
    CheckConstraint("hands >= 1", name="ck_nights_hands"),
    Index("ix_nights_host", "host_id"),
)
"""One row per euchre night."""

night_people = Table(
    "night_people",
    metadata,
    Column("night_id", String(24), ForeignKey("nights.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("name", String(40), nullable=False),
    PrimaryKeyConstraint("night_id", "number", name="pk_night_people"),
)
"""The names in the room, numbered from 0."""

night_tables = Table(
    "night_tables",
    metadata,
    Column("night_id", String(24), ForeignKey("nights.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    # Person numbers in seats 0-3 (0 and 2 partners against 1 and 3).
    Column("seat0", Integer, nullable=False),
    Column("seat1", Integer, nullable=False),
    Column("seat2", Integer, nullable=False),
    Column("seat3", Integer, nullable=False),
    Column("code", String(12), nullable=False, unique=True),
    PrimaryKeyConstraint("night_id", "round", "table_no", name="pk_night_tables"),
)
"""Each round's tables and their scoring codes."""

night_entries = Table(
    "night_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("night_id", String(24), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("hand", Integer, nullable=False),
    # 0: the pair in seats 0 and 2 made trump; 1: seats 1 and 3.
    Column("makers", Integer, nullable=False),
    Column("tricks", Integer, nullable=False),
    # The seat that went alone, if any.
    Column("lone_seat", Integer, nullable=True),
    # "entry" (from the table's phone) or "correction" (by the host).
    Column("kind", String(16), nullable=False),
    Column("by", String(120), nullable=False),
    # 0 or 1: the pair that entered it from the table (None for the host).
    Column("by_pair", Integer, nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["night_id", "round", "table_no"],
                         ["night_tables.night_id", "night_tables.round",
                          "night_tables.table_no"], name="fk_night_entries_table"),
    CheckConstraint("makers IN (0, 1)", name="ck_night_entries_makers"),
    CheckConstraint("tricks >= 0 AND tricks <= 5", name="ck_night_entries_tricks"),
    Index("ix_night_entries_table", "night_id", "round", "table_no"),
)
"""Every entry and correction, never changed or removed."""

night_confirms = Table(
    "night_confirms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("night_id", String(24), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_no", Integer, nullable=False),
    Column("by", String(120), nullable=False),
    Column("by_pair", Integer, nullable=False),
    # The newest entry of the table when it was confirmed.
    Column("entry_id", Integer, ForeignKey("night_entries.id"), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    ForeignKeyConstraint(["night_id", "round", "table_no"],
                         ["night_tables.night_id", "night_tables.round",
                          "night_tables.table_no"], name="fk_night_confirms_table"),
    Index("ix_night_confirms_table", "night_id", "round", "table_no"),
)
"""The other pair's confirmations of a table's card."""
