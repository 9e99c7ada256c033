"""The coin ledger: append-only entries in whole coins, with idempotency keys.

Every change of a balance goes through :func:`post` inside a transaction:

1. the account's row is locked first (``UPDATE accounts SET balance = balance``): on
   PostgreSQL a row lock, on SQLite the database's write lock, taken before anything is
   read, so concurrent operations on one account run one after the other;
2. if an entry with the same key exists, it is returned as it is (``replayed``) and
   nothing changes, so a retry, a double click or a reconnect never charges twice;
3. the new balance is checked (never below zero: the ``CHECK`` constraint backs this up),
   written, and the entry appended with the balance after it.

So the sum of all balances always equals the sum of all entries.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..storage.accounts_models import accounts, ledger_entries
from .errors import IdempotencyConflictError, InsufficientCoinsError, UnknownAccountError

T = TypeVar("T")

MAX_AMOUNT = 10**12
"""No single entry moves more coins than this."""


def utcnow() -> dt.datetime:
    """The current time in UTC (the default ``now`` of the services)."""
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One ledger entry."""

    id: int
    """The entry's number (increasing)."""
    account_id: int
    """Whose balance it changed."""
    amount: int
    """Whole coins, negative for a charge."""
    reason: str
    """``welcome``, ``topup``, ``stake``, ``payout``, ``fee``, ``refund``; for tournaments'
    pools ``entry``, ``prize`` or ``entry_refund``."""
    key: str
    """The idempotency key."""
    table_id: str | None
    """The coin table it belongs to, if any."""
    balance_after: int
    """The balance right after this entry."""
    created_at: dt.datetime
    """When it was written."""
    replayed: bool = False
    """True when the key had been used already and this is the earlier entry, unchanged."""

    def to_json(self) -> dict[str, Any]:
        """The entry as the API shows it."""
        return {
            "id": self.id,
            "amount": self.amount,
            "reason": self.reason,
            "table": self.table_id,
            "balance_after": self.balance_after,
            "time": iso_utc(self.created_at),
        }


def iso_utc(t: dt.datetime) -> str:
    """A time as ISO 8601 in UTC with a ``Z`` (a naive time is taken to be UTC)."""
    if t.tzinfo is None:
        t = t.replace(tzinfo=dt.UTC)
    return t.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _entry(row: Any, replayed: bool = False) -> LedgerEntry:
    return LedgerEntry(
        id=row.id,
        account_id=row.account_id,
        amount=int(row.amount),
        reason=row.reason,
        key=row.key,
        table_id=row.table_id,
        balance_after=int(row.balance_after),
        created_at=row.created_at,
        replayed=replayed,
    )


async def lock_account(conn: AsyncConnection, account_id: int) -> int:
    """Lock an account's row for this transaction and return its balance."""
    result = await conn.execute(
        update(accounts)
        .where(accounts.c.id == account_id)
        .values(balance=accounts.c.balance)
    )
    if result.rowcount != 1:
        raise UnknownAccountError("no such account")
    balance = await conn.scalar(select(accounts.c.balance).where(accounts.c.id == account_id))
    assert balance is not None
    return int(balance)


async def find_entry(conn: AsyncConnection, key: str) -> LedgerEntry | None:
    """The entry with an idempotency key, if any."""
    row = (await conn.execute(select(ledger_entries).where(ledger_entries.c.key == key))).first()
    return None if row is None else _entry(row, replayed=True)


async def post(
    conn: AsyncConnection,
    account_id: int,
    amount: int,
    reason: str,
    key: str,
    now: dt.datetime,
    *,
    table_id: str | None = None,
    up_to_balance: bool = False,
) -> LedgerEntry:
    """Append one entry and change the balance, inside the caller's transaction.

    ``amount`` is whole coins (negative charges). With ``up_to_balance`` a charge takes
    at most the balance (a leaving fee never drives it below zero). A key used before
    returns the earlier entry with ``replayed=True`` and changes nothing; a key used for
    another account or amount raises :class:`IdempotencyConflictError`.
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise TypeError("amount must be a whole number of coins")
    if abs(amount) > MAX_AMOUNT:
        raise ValueError("amount is out of range")
    balance = await lock_account(conn, account_id)
    earlier = await find_entry(conn, key)
    if earlier is not None:
        same = earlier.account_id == account_id and (
            earlier.amount == amount or (up_to_balance and amount <= earlier.amount <= 0)
        )
        if not same:
            raise IdempotencyConflictError("that request was already made for something else")
        return earlier
    if up_to_balance and amount < 0:
        amount = -min(-amount, balance)
    after = balance + amount
    if after < 0:
        raise InsufficientCoinsError(
            f"not enough coins: this needs {-amount} and the balance is {balance}"
        )
    await conn.execute(update(accounts).where(accounts.c.id == account_id).values(balance=after))
    result = await conn.execute(
        ledger_entries.insert()
        .values(
            account_id=account_id,
            amount=amount,
            reason=reason,
            key=key,
            table_id=table_id,
            balance_after=after,
            created_at=now,
        )
        .returning(ledger_entries.c.id)
    )
    return LedgerEntry(result.scalar_one(), account_id, amount, reason, key, table_id, after, now)


async def in_transaction(
    engine: AsyncEngine, work: Callable[[AsyncConnection], Awaitable[T]], attempts: int = 5
) -> T:
    """Run ``work`` in one transaction, retrying when a concurrent one got there first.

    A unique-key clash (two first uses of one key racing) or a lock timeout is retried:
    the retry then sees the other transaction's committed rows.
    """
    for attempt in range(attempts):
        try:
            async with engine.begin() as conn:
                return await work(conn)
        except (IntegrityError, OperationalError) as e:
            if attempt == attempts - 1 or not _retryable(e):
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _retryable(e: Exception) -> bool:
    text = str(e).lower()
    return any(
        word in text
        for word in ("unique", "duplicate", "locked", "deadlock", "serializ", "busy")
    )


class Ledger:
    """The ledger over one database: post entries, read balances and history."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """A ledger on ``engine``; ``now`` gives the time written on entries."""
        self.engine = engine
        """The database."""
        self.now = now
        """The clock for entry times."""

    async def post(
        self,
        account_id: int,
        amount: int,
        reason: str,
        key: str,
        *,
        table_id: str | None = None,
        up_to_balance: bool = False,
    ) -> LedgerEntry:
        """Post one entry in its own transaction (see :func:`post`)."""

        async def work(conn: AsyncConnection) -> LedgerEntry:
            return await post(
                conn, account_id, amount, reason, key, self.now(),
                table_id=table_id, up_to_balance=up_to_balance,
            )

        return await in_transaction(self.engine, work)

    async def balance(self, account_id: int) -> int:
        """An account's balance."""
        async with self.engine.connect() as conn:
            value = await conn.scalar(
                select(accounts.c.balance).where(accounts.c.id == account_id)
            )
        if value is None:
            raise UnknownAccountError("no such account")
        return int(value)

    async def entries(
        self, account_id: int, limit: int = 100, before: int | None = None
    ) -> list[LedgerEntry]:
        """An account's entries, newest first (``before``: only entries with a smaller id)."""
        query = select(ledger_entries).where(ledger_entries.c.account_id == account_id)
        if before is not None:
            query = query.where(ledger_entries.c.id < before)
        query = query.order_by(ledger_entries.c.id.desc()).limit(limit)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_entry(r) for r in rows]

    async def net_by_table(self, account_id: int, table_ids: Sequence[str]) -> dict[str, int]:
        """The account's coins won or lost at each of those tables (the sum of its entries
        there: stake, payout, fee, refund); a table with no entry is left out."""
        if not table_ids:
            return {}
        query = (select(ledger_entries.c.table_id, func.sum(ledger_entries.c.amount))
                 .where(ledger_entries.c.account_id == account_id,
                        ledger_entries.c.table_id.in_(list(table_ids)))
                 .group_by(ledger_entries.c.table_id))
        async with self.engine.connect() as conn:
            return {str(t): int(n) for t, n in await conn.execute(query)}

    async def totals(self) -> tuple[int, int]:
        """(sum of all balances, sum of all entries): always equal."""
        async with self.engine.connect() as conn:
            balances = await conn.scalar(select(func.coalesce(func.sum(accounts.c.balance), 0)))
            entries = await conn.scalar(
                select(func.coalesce(func.sum(ledger_entries.c.amount), 0))
            )
        return int(balances or 0), int(entries or 0)

    async def account_totals(self, account_id: int) -> tuple[int, int]:
        """(balance, sum of the account's entries): always equal."""
        async with self.engine.connect() as conn:
            balance = await conn.scalar(
                select(accounts.c.balance).where(accounts.c.id == account_id)
            )
            total = await conn.scalar(
                select(func.coalesce(func.sum(ledger_entries.c.amount), 0)).where(
                    ledger_entries.c.account_id == account_id
                )
            )
        return int(balance or 0), int(total or 0)
