"""games: one row per game, with its table settings and record.

Revision ID: 0001_games
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_games"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the games table."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("meta", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_updated_at", "games", ["updated_at"])


def downgrade() -> None:
    """Drop the games table."""
    op.drop_index("ix_games_updated_at", table_name="games")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_table("games")
