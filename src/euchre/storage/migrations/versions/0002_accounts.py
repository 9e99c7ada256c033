"""accounts, ledger_entries, sessions, coin_games: accounts and the play-coin ledger.

Revision ID: 0002_accounts
Revises: 0001_games
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_accounts"
down_revision = "0001_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the account, ledger, session and coin-game tables."""
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False, server_default=sa.text("0")),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("balance >= 0", name="ck_accounts_balance_not_negative"),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("table_id", sa.String(64), nullable=True),
        sa.Column("balance_after", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("balance_after >= 0", name="ck_ledger_balance_after_not_negative"),
    )
    op.create_index("ix_ledger_entries_account", "ledger_entries", ["account_id", "id"])
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "coin_games",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("stake", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("request_key", sa.String(80), nullable=True),
        sa.Column("seat_token", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("stake > 0", name="ck_coin_games_stake_positive"),
        sa.UniqueConstraint("account_id", "request_key", name="uq_coin_games_request"),
    )
    op.create_index(
        "ux_coin_games_one_active", "coin_games", ["account_id"], unique=True,
        sqlite_where=sa.text("status = 'active'"),
        postgresql_where=sa.text("status = 'active'"),
    )
    op.create_index("ix_coin_games_account", "coin_games", ["account_id", "created_at"])


def downgrade() -> None:
    """Drop them (the ledger's history is lost)."""
    op.drop_index("ix_coin_games_account", table_name="coin_games")
    op.drop_index("ux_coin_games_one_active", table_name="coin_games")
    op.drop_table("coin_games")
    op.drop_index("ix_sessions_account", table_name="sessions")
    op.drop_table("sessions")
    op.drop_index("ix_ledger_entries_account", table_name="ledger_entries")
    op.drop_table("ledger_entries")
    op.drop_table("accounts")
