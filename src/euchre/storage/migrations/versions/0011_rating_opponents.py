"""rating_opponents: who has played against whom in applied rated games.

Filled here from the rated games applied before it (their seats), so the count of a
person's different opponents is the same before and after.

Revision ID: 0011_rating_opponents
Revises: 0010_seat_claims
Create Date: 2026-12-02
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0011_rating_opponents"
down_revision = "0010_seat_claims"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and fill it from the applied rated games."""
    op.create_table(
        "rating_opponents",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("opponent_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "opponent_id", name="pk_rating_opponents"),
    )
    pairs: set[tuple[int, int]] = set()
    for (seats,) in op.get_bind().execute(
            sa.text("SELECT seats FROM rated_games WHERE status = 'applied'")):
        accounts = [int(a) for a in json.loads(seats)]
        for i, account in enumerate(accounts):
            pairs.update((account, other) for other in accounts[(i + 1) % 2::2])
    if pairs:
        table = sa.table("rating_opponents", sa.column("account_id", sa.Integer),
                         sa.column("opponent_id", sa.Integer))
        op.bulk_insert(table, [{"account_id": a, "opponent_id": b} for a, b in sorted(pairs)])


def downgrade() -> None:
    """Drop it."""
    op.drop_table("rating_opponents")
