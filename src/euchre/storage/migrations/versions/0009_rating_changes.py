"""rating_changes: each person's rating before and after each rated game.

Revision ID: 0009_rating_changes
Revises: 0008_bot_tokens
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_rating_changes"
down_revision = "0008_bot_tokens"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its index."""
    op.create_table(
        "rating_changes",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "account_id", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_account", "rating_changes", ["account_id", "created_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_rating_changes_account", "rating_changes")
    op.drop_table("rating_changes")
