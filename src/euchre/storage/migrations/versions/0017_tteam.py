"""Team events online: a game length and a rated flag on tournaments, partners on entries,
match results on round tables, and pair invitations (issue 37, team formats).

Revision ID: 0017_tteam
Revises: 0016_tournament_pool
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_tteam"
down_revision = "0016_tournament_pool"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns and the invitations table."""
    with op.batch_alter_table("tournaments") as batch:
        batch.alter_column("format", type_=sa.String(24), existing_type=sa.String(16),
                           existing_nullable=False)
        batch.add_column(sa.Column("game_to", sa.Integer, nullable=False,
                                   server_default="0"))
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("tournament_entries") as batch:
        batch.add_column(sa.Column("partner_id", sa.Integer, nullable=True))
    with op.batch_alter_table("tournament_tables") as batch:
        batch.add_column(sa.Column("match", sa.String(8), nullable=True))
        batch.add_column(sa.Column("points", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column("winner", sa.Integer, nullable=True))
    op.create_table(
        "tournament_invites",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(24), sa.ForeignKey("tournaments.id"),
                  nullable=False),
        sa.Column("from_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournament_invites_tournament", "tournament_invites",
                    ["tournament_id", "status"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_tournament_invites_tournament", "tournament_invites")
    op.drop_table("tournament_invites")
    with op.batch_alter_table("tournament_tables") as batch:
        batch.drop_column("winner")
        batch.drop_column("points")
        batch.drop_column("match")
    with op.batch_alter_table("tournament_entries") as batch:
        batch.drop_column("partner_id")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("rated")
        batch.drop_column("game_to")
        batch.alter_column("format", type_=sa.String(16), existing_type=sa.String(24),
                           existing_nullable=False)
