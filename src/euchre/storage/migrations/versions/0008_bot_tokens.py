"""bots and bot_tokens: outside bots, their owners and their revocable tokens.

Revision ID: 0008_bot_tokens
Revises: 0007_game_lines
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_bot_tokens"
down_revision = "0007_game_lines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the two tables and their indexes."""
    op.create_table(
        "bots",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("owner_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_bots_owner", "bots", ["owner_id"])
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("bot_id", sa.Integer, sa.ForeignKey("bots.account_id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_bot_tokens_bot", "bot_tokens", ["bot_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_bot_tokens_bot", "bot_tokens")
    op.drop_table("bot_tokens")
    op.drop_index("ix_bots_owner", "bots")
    op.drop_table("bots")
