"""account_lookalikes: each account name's confusable skeletons (issue 34, item 6).

Created empty: the accounts service fills the keys of the names made before it at start
(the skeletons come from a layer above storage's).

Revision ID: 0014_account_lookalikes
Revises: 0013_night_movement
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_account_lookalikes"
down_revision = "0013_night_movement"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its index on the key."""
    op.create_table(
        "account_lookalikes",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("key", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "key", name="pk_account_lookalikes"),
    )
    op.create_index("ix_account_lookalikes_key", "account_lookalikes", ["key"])


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ix_account_lookalikes_key", "account_lookalikes")
    op.drop_table("account_lookalikes")
