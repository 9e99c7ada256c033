"""tournaments, tournament_entries, tournament_tables: online progressive tournaments.

Revision ID: 0015_tournaments
Revises: 0014_account_lookalikes
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_tournaments"
down_revision = "0014_account_lookalikes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and their indexes."""
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(24), primary_key=True),
        sa.Column("creator_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("preset", sa.String(32), nullable=False),
        sa.Column("rules", sa.JSON, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("seconds_per_move", sa.Float, nullable=False),
        sa.Column("movement", sa.String(16), nullable=False),
        sa.Column("loner_bonus", sa.Boolean, nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("allow_bots", sa.Boolean, nullable=False),
        sa.Column("late_comers", sa.Boolean, nullable=False),
        sa.Column("entry_fee", sa.Integer, nullable=False),
        sa.Column("fill_to", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("current_round", sa.Integer, nullable=False),
        sa.Column("field", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("rounds >= 1", name="ck_tournaments_rounds"),
        sa.CheckConstraint("hands >= 1", name="ck_tournaments_hands"),
        sa.CheckConstraint("entry_fee >= 0", name="ck_tournaments_entry_fee"),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts_at"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("owner_id", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("number", sa.Integer, nullable=True),
        sa.Column("from_round", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "account_id",
                            name="uq_tournament_entries_account"),
    )
    op.create_index("ix_tournament_entries_account", "tournament_entries", ["account_id"])
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("table_id", sa.String(24), nullable=False, unique=True),
        sa.Column("seat0", sa.Integer, nullable=False),
        sa.Column("seat1", sa.Integer, nullable=False),
        sa.Column("seat2", sa.Integer, nullable=False),
        sa.Column("seat3", sa.Integer, nullable=False),
        sa.Column("hands", sa.JSON, nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no",
                                name="pk_tournament_tables"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("tournament_tables")
    op.drop_index("ix_tournament_entries_account", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
