"""open_tables: online tables before their start, kept across restarts and processes.

Revision ID: 0005_open_tables
Revises: 0004_ratings
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_open_tables"
down_revision = "0004_ratings"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table and its indexes."""
    op.create_table(
        "open_tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("quick", sa.Boolean, nullable=False),
        sa.Column("match_key", sa.String(120), nullable=False),
        sa.Column("seated", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    op.create_index("ix_open_tables_status", "open_tables", ["status", "created_at"])
    op.create_index("ix_open_tables_match", "open_tables",
                    ["match_key", "status", "created_at"])
    waiting = sa.text("status = 'open' AND quick = true AND seated < 4")
    op.create_index("ux_open_tables_quick_match", "open_tables", ["match_key"], unique=True,
                    sqlite_where=waiting, postgresql_where=waiting)


def downgrade() -> None:
    """Drop it."""
    op.drop_index("ux_open_tables_quick_match", "open_tables")
    op.drop_index("ix_open_tables_match", "open_tables")
    op.drop_index("ix_open_tables_status", "open_tables")
    op.drop_table("open_tables")
