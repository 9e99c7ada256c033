"""The tables behind stakes against people (SQLAlchemy Core): a pot per online table.

``stake_pots`` has one row per stake table that started: the stake, and how the pot was
shared once the game ended (``paid_out`` to the winners, the rest, ``house``, to nobody).
``stake_seats`` has one row per person who staked: how their part ended and what it cost
or paid. Every coin that moves is a ledger entry (``stake:``, ``fee:``, ``payout:``,
``refund:`` keys per table and seat), so for each settled pot the stakes taken equal the
payouts plus the refunds plus ``house``. The Alembic migration ``0006_stake_pots`` creates
exactly these tables.
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

stake_pots = Table(
    "stake_pots",
    metadata,
    Column("table_id", String(64), primary_key=True),
    Column("stake", BigInteger, nullable=False),
    # "active" while the game runs, then "settled" or "refunded".
    Column("status", String(16), nullable=False),
    # The winning side (0: seats 0 & 2), once settled.
    Column("winner", Integer, nullable=True),
    # Coins paid to the winners, and what went to nobody (a computer's share, rounding).
    Column("paid_out", BigInteger, nullable=True),
    Column("house", BigInteger, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("settled_at", DateTime(timezone=True), nullable=True),
    CheckConstraint("stake > 0", name="ck_stake_pots_stake_positive"),
)
"""One row per stake table that started."""

stake_seats = Table(
    "stake_seats",
    metadata,
    Column("table_id", String(64), ForeignKey("stake_pots.table_id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    # "active", then "won", "lost", "left" (stake forfeit, fee charged) or "refunded".
    Column("status", String(16), nullable=False),
    # The leaving fee charged (it never takes the balance below zero) and the payout.
    Column("fee", BigInteger, nullable=True),
    Column("payout", BigInteger, nullable=True),
    PrimaryKeyConstraint("table_id", "seat", name="pk_stake_seats"),
)
"""One row per person who staked at a table."""

Index("ix_stake_seats_account", stake_seats.c.account_id)
