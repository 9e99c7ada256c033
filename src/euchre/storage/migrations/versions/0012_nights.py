"""nights, night_people, night_tables, night_entries, night_confirms: euchre nights in a room.

Revision ID: 0012_nights
Revises: 0011_rating_opponents
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_nights"
down_revision = "0011_rating_opponents"
branch_labels = None
depends_on = None

_TABLE_KEY = (["night_id", "round", "table_no"],
              ["night_tables.night_id", "night_tables.round", "night_tables.table_no"])


def upgrade() -> None:
    """Create the five tables and their indexes."""
    op.create_table(
        "nights",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("host_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("loner_bonus", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("current_round", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("rounds >= 1", name="ck_nights_rounds"),
        sa.CheckConstraint("hands >= 1", name="ck_nights_hands"),
    )
    op.create_index("ix_nights_host", "nights", ["host_id"])
    op.create_table(
        "night_people",
        sa.Column("night_id", sa.String(24), sa.ForeignKey("nights.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.PrimaryKeyConstraint("night_id", "number", name="pk_night_people"),
    )
    op.create_table(
        "night_tables",
        sa.Column("night_id", sa.String(24), sa.ForeignKey("nights.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("seat0", sa.Integer, nullable=False),
        sa.Column("seat1", sa.Integer, nullable=False),
        sa.Column("seat2", sa.Integer, nullable=False),
        sa.Column("seat3", sa.Integer, nullable=False),
        sa.Column("code", sa.String(12), nullable=False, unique=True),
        sa.PrimaryKeyConstraint("night_id", "round", "table_no", name="pk_night_tables"),
    )
    op.create_table(
        "night_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("night_id", sa.String(24), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("hand", sa.Integer, nullable=False),
        sa.Column("makers", sa.Integer, nullable=False),
        sa.Column("tricks", sa.Integer, nullable=False),
        sa.Column("lone_seat", sa.Integer, nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("by", sa.String(120), nullable=False),
        sa.Column("by_pair", sa.Integer, nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(*_TABLE_KEY, name="fk_night_entries_table"),
        sa.CheckConstraint("makers IN (0, 1)", name="ck_night_entries_makers"),
        sa.CheckConstraint("tricks >= 0 AND tricks <= 5", name="ck_night_entries_tricks"),
    )
    op.create_index("ix_night_entries_table", "night_entries",
                    ["night_id", "round", "table_no"])
    op.create_table(
        "night_confirms",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("night_id", sa.String(24), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("by", sa.String(120), nullable=False),
        sa.Column("by_pair", sa.Integer, nullable=False),
        sa.Column("entry_id", sa.Integer, sa.ForeignKey("night_entries.id"), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(*_TABLE_KEY, name="fk_night_confirms_table"),
    )
    op.create_index("ix_night_confirms_table", "night_confirms",
                    ["night_id", "round", "table_no"])


def downgrade() -> None:
    """Drop them, the logs first."""
    for table in ("night_confirms", "night_entries", "night_tables", "night_people", "nights"):
        op.drop_table(table)
