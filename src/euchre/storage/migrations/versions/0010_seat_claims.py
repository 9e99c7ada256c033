"""seat_claims: a seat taken as a guest, bound to the account its person signed in to.

Revision ID: 0010_seat_claims
Revises: 0009_rating_changes
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_seat_claims"
down_revision = "0009_rating_changes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its index."""
    op.create_table(
        "seat_claims",
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seat", name="pk_seat_claims"),
    )
    op.create_index("ix_seat_claims_account", "seat_claims", ["account_id", "table_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_seat_claims_account", "seat_claims")
    op.drop_table("seat_claims")
