"""The tables behind tournaments' coin pools (SQLAlchemy Core).

``tournament_pools`` has one row per tournament that takes an entry fee: the fee, the prize
table it pays by, and how the pool ended (``paid_out`` to the finishers, ``house`` to
nobody, or refunded). ``pool_entries`` has one row per person who entered: how their
entry ended and what it paid. Every coin that moves is a ledger entry keyed by tournament
and account (``tournament-entry:``, ``tournament-prize:``, ``tournament-refund:``), so for
each pool the fees taken equal the prizes plus the refunds plus ``house``. The Alembic
migration ``0016_tournament_pool`` creates exactly these tables.
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
)

from .accounts_models import metadata

tournament_pools = Table(
    "tournament_pools",
    metadata,
    # The tournament's id as the tournaments' own tables name it.
    Column("tournament_id", String(64), primary_key=True),
    Column("fee", BigInteger, nullable=False),
    # The prize table's whole percentages, first place first: "50,30,20".
    Column("prize_table", String(80), nullable=False),
    # "open" while it takes entries, "running" once the tournament started, then "paid"
    # or "cancelled".
    Column("status", String(16), nullable=False),
    # Coins paid to the finishers, and what went to nobody, once paid (0 and 0 if cancelled).
    Column("paid_out", BigInteger, nullable=True),
    Column("house", BigInteger, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("closed_at", DateTime(timezone=True), nullable=True),
    CheckConstraint("fee > 0", name="ck_tournament_pools_fee_positive"),
)
"""One row per tournament with an entry fee."""

pool_entries = Table(
    "pool_entries",
    metadata,
    Column("tournament_id", String(64), ForeignKey("tournament_pools.tournament_id"),
           nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # "entered", then "left" (the entry forfeit), "finished" or "refunded".
    Column("status", String(16), nullable=False),
    # The request that entered (a double click sends it again and is charged once).
    Column("request_id", String(80), nullable=False),
    # The place and the prize paid, once finished (place null: unranked, prize 0).
    Column("place", Integer, nullable=True),
    Column("prize", BigInteger, nullable=True),
    Column("entered_at", DateTime(timezone=True), nullable=False),
    PrimaryKeyConstraint("tournament_id", "account_id", name="pk_pool_entries"),
)
"""One row per person who entered a tournament with a fee."""

Index("ix_pool_entries_account", pool_entries.c.account_id)
