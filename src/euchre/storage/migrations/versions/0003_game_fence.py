"""games.fence: the fencing number of the owner that last wrote a game.

Revision ID: 0003_game_fence
Revises: 0002_accounts
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_game_fence"
down_revision = "0002_accounts"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column; games saved before it have fence 0 (one process, no leases)."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("fence", sa.BigInteger, nullable=False,
                                   server_default=sa.text("0")))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("games") as batch:
        batch.drop_column("fence")
