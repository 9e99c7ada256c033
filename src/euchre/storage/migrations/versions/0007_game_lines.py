"""game_lines and games.lines: a save appends the record's new lines, not the whole record.

Revision ID: 0007_game_lines
Revises: 0006_stake_pots
Create Date: 2026-12-01
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0007_game_lines"
down_revision = "0006_stake_pots"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the lines table and the count; games saved before it are all base, no lines."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("lines", sa.Integer, nullable=False,
                                   server_default=sa.text("0")))
    op.create_table(
        "game_lines",
        sa.Column("game_id", sa.String(64), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("line", sa.Text, nullable=False),
    )


def downgrade() -> None:
    """Fold every game's lines into its record, then drop the table and the count."""
    from euchre.storage.journal import fold_lines

    conn = op.get_bind()
    games = conn.execute(sa.text("SELECT id, record, lines FROM games WHERE lines > 0")).all()
    for game_id, record, count in games:
        lines = [row[0] for row in conn.execute(
            sa.text("SELECT line FROM game_lines WHERE game_id = :id AND seq < :n "
                    "ORDER BY seq"), {"id": game_id, "n": count})]
        folded = fold_lines(json.loads(record), lines)
        conn.execute(sa.text("UPDATE games SET record = :r WHERE id = :id"),
                     {"r": json.dumps(folded, separators=(",", ":")), "id": game_id})
    op.drop_table("game_lines")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("lines")
