"""The tables behind accounts, sessions and the coin ledger (SQLAlchemy Core).

Coins are whole numbers. ``accounts.balance`` is never negative (a CHECK constraint,
besides the service's own check), every change of a balance is one row of
``ledger_entries`` with a UNIQUE idempotency key, and the sum of all balances equals the
sum of all entries. The Alembic migration ``0002_accounts`` creates exactly these tables.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    UniqueConstraint,
    text,
)

from .models import Base

metadata = Base.metadata
"""The one metadata of every euchre table (shared with :mod:`euchre.storage.models`)."""

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(32), nullable=False),
    # The username as typed; ``username_key`` (lower case) is what must be unique.
    Column("username_key", String(32), nullable=False, unique=True),
    Column("password_hash", String(255), nullable=False),
    Column("balance", BigInteger, nullable=False, server_default=text("0")),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("balance >= 0", name="ck_accounts_balance_not_negative"),
)
"""One row per person: the sign-in name, the argon2 hash, the coin balance."""

account_lookalikes = Table(
    "account_lookalikes",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # One of the name's confusable skeletons (``euchre.table.kinds.lookalike.lookalike_keys``):
    # a new name sharing one with an account looks like its name and is refused.
    Column("key", String(128), nullable=False),
    PrimaryKeyConstraint("account_id", "key", name="pk_account_lookalikes"),
    Index("ix_account_lookalikes_key", "key"),
)
"""The look-alike keys of every account's name (a person's or a bot's)."""

ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # Whole coins; negative for a charge. Zero is allowed (a leaving fee on an empty balance).
    Column("amount", BigInteger, nullable=False),
    # "welcome", "topup", "stake", "payout", "fee", "refund".
    Column("reason", String(16), nullable=False),
    # Idempotency key such as "stake:{table}": a retry with the same key changes nothing.
    Column("key", String(160), nullable=False, unique=True),
    Column("table_id", String(64), nullable=True),
    Column("balance_after", BigInteger, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    CheckConstraint("balance_after >= 0", name="ck_ledger_balance_after_not_negative"),
)
"""Append-only: one row per change of a balance."""

Index("ix_ledger_entries_account", ledger_entries.c.account_id, ledger_entries.c.id)

sessions = Table(
    "sessions",
    metadata,
    # SHA-256 (hex) of the random session id the cookie holds; the id itself is never stored.
    Column("id_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # The CSRF token the client echoes in the X-CSRF-Token header.
    Column("csrf", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)
"""Server-side sessions."""

Index("ix_sessions_account", sessions.c.account_id)

coin_games = Table(
    "coin_games",
    metadata,
    Column("table_id", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("seat", Integer, nullable=False, server_default=text("0")),
    Column("stake", BigInteger, nullable=False),
    # "active", then one of "won", "lost", "left", "refunded".
    Column("status", String(16), nullable=False),
    # The client's idempotency key of the request that opened the table (a double click
    # on "join" sends the same key and gets the same table).
    Column("request_key", String(80), nullable=True),
    # The seat's token, so the signed-in owner can return to the table from any browser
    # (only ever shown to the owner's session).
    Column("seat_token", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=True),
    CheckConstraint("stake > 0", name="ck_coin_games_stake_positive"),
    UniqueConstraint("account_id", "request_key", name="uq_coin_games_request"),
)
"""One row per coin table: whose it is, the stake, and how it ended."""

Index(
    "ux_coin_games_one_active",
    coin_games.c.account_id,
    unique=True,
    sqlite_where=coin_games.c.status == "active",
    postgresql_where=coin_games.c.status == "active",
)
Index("ix_coin_games_account", coin_games.c.account_id, coin_games.c.created_at)
