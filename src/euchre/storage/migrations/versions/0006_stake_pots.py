"""stake_pots and stake_seats: coin stakes against people at online tables.

Revision ID: 0006_stake_pots
Revises: 0005_open_tables
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_stake_pots"
down_revision = "0005_open_tables"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the two tables and the index."""
    op.create_table(
        "stake_pots",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("stake", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("paid_out", sa.BigInteger, nullable=True),
        sa.Column("house", sa.BigInteger, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("settled_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("stake > 0", name="ck_stake_pots_stake_positive"),
    )
    op.create_table(
        "stake_seats",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("stake_pots.table_id"),
                  nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("fee", sa.BigInteger, nullable=True),
        sa.Column("payout", sa.BigInteger, nullable=True),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_stake_seats"),
    )
    op.create_index("ix_stake_seats_account", "stake_seats", ["account_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_stake_seats_account", "stake_seats")
    op.drop_table("stake_seats")
    op.drop_table("stake_pots")
