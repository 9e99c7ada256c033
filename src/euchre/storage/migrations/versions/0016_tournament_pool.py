"""tournament_pools and pool_entries: tournaments' coin pools (issue 37, item 5).

Revision ID: 0016_tournament_pool
Revises: 0014_account_lookalikes
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_tournament_pool"
down_revision = "0015_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the two tables and the index."""
    op.create_table(
        "tournament_pools",
        sa.Column("tournament_id", sa.String(64), primary_key=True),
        sa.Column("fee", sa.BigInteger, nullable=False),
        sa.Column("prize_table", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("paid_out", sa.BigInteger, nullable=True),
        sa.Column("house", sa.BigInteger, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("fee > 0", name="ck_tournament_pools_fee_positive"),
    )
    op.create_table(
        "pool_entries",
        sa.Column("tournament_id", sa.String(64),
                  sa.ForeignKey("tournament_pools.tournament_id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("request_id", sa.String(80), nullable=False),
        sa.Column("place", sa.Integer, nullable=True),
        sa.Column("prize", sa.BigInteger, nullable=True),
        sa.Column("entered_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "account_id", name="pk_pool_entries"),
    )
    op.create_index("ix_pool_entries_account", "pool_entries", ["account_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_pool_entries_account", "pool_entries")
    op.drop_table("pool_entries")
    op.drop_table("tournament_pools")
