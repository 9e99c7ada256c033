"""tournaments.round_minutes and round_started_at: a round's time limit, and when the round
being played was seated; tournament_entries.bot_token_id: the bot token an outside bot
registered with (its tables' seats are gated by it) (issue 37).

Revision ID: 0018_tround
Revises: 0017_tteam
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_tround"
down_revision = "0017_tteam"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns; tournaments made before them have no time limit."""
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("round_minutes", sa.Integer, nullable=True))
        batch.add_column(sa.Column("round_started_at", sa.DateTime(timezone=True),
                                   nullable=True))
    with op.batch_alter_table("tournament_entries") as batch:
        batch.add_column(sa.Column("bot_token_id", sa.Integer, nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("bot_token_id")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("round_started_at")
        batch.drop_column("round_minutes")
