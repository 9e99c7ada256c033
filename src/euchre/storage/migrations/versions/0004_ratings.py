"""game_players, rated_games and ratings: people's games, and ratings applied once per game.

Revision ID: 0004_ratings
Revises: 0003_game_fence
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_ratings"
down_revision = "0003_game_fence"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and their indexes."""
    op.create_table(
        "game_players",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="pk_game_players"),
    )
    op.create_index("ix_game_players_account", "game_players", ["account_id", "created_at"])
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("applied_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_rated_games_status", "rated_games", ["status"])
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("ordinal", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ratings_ordinal", "ratings", ["ordinal", "account_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_ratings_ordinal", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_rated_games_status", "rated_games")
    op.drop_table("rated_games")
    op.drop_index("ix_game_players_account", "game_players")
    op.drop_table("game_players")
