"""nights.movement: rotating partners from the schedule, or king's table from the results.

Revision ID: 0013_night_movement
Revises: 0012_nights
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_night_movement"
down_revision = "0012_nights"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column; nights made before it rotate partners, as they did."""
    with op.batch_alter_table("nights") as batch:
        batch.add_column(sa.Column("movement", sa.String(16), nullable=False,
                                   server_default="rotating"))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("nights") as batch:
        batch.drop_column("movement")
