"""The tables behind outside bots (SQLAlchemy Core).

An outside bot is an account of its own (its name is a username, so nobody else may take
it; its ratings and statistics are its own), with no password, made by a person's account:
``bots`` says which accounts are bots and whose. ``bot_tokens`` holds the secrets a bot's
program signs in with: only the SHA-256 of each, with the first characters to recognise it
by, and when it was revoked. The Alembic migration ``0008_bot_tokens`` creates exactly
these tables.
"""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Index, Integer, String, Table

from .accounts_models import metadata

bots = Table(
    "bots",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    # The person's account that made the bot (and alone may make or revoke its tokens).
    Column("owner_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""One row per bot account."""

Index("ix_bots_owner", bots.c.owner_id)

bot_tokens = Table(
    "bot_tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("bot_id", Integer, ForeignKey("bots.account_id"), nullable=False),
    # SHA-256 (hex) of the token; the token itself is shown once and never stored.
    Column("token_hash", String(64), nullable=False, unique=True),
    # The token's first characters, so its owner can tell tokens apart in a list.
    Column("prefix", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_used_at", DateTime(timezone=True), nullable=True),
    Column("revoked_at", DateTime(timezone=True), nullable=True),
)
"""One row per bot token, live until ``revoked_at`` is set."""

Index("ix_bot_tokens_bot", bot_tokens.c.bot_id)
