"""Helpers for the ledger tests."""

from __future__ import annotations

import datetime as dt
import itertools

from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins.ledger import Ledger
from euchre.storage.accounts_models import accounts

_names = itertools.count()

T0 = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
"""A fixed time for entries."""


class FakeNow:
    """A settable clock for the services."""

    def __init__(self, t: dt.datetime = T0) -> None:
        self.t = t

    def __call__(self) -> dt.datetime:
        return self.t

    def advance(self, **delta: float) -> None:
        """Move time forward."""
        self.t += dt.timedelta(**delta)


async def new_account(engine: AsyncEngine, coins: int = 1000) -> int:
    """An account holding ``coins`` (one welcome entry), without a password."""
    name = f"player{next(_names)}"
    async with engine.begin() as conn:
        result = await conn.execute(
            accounts.insert()
            .values(username=name, username_key=name, password_hash="x", balance=0,
                    created_at=T0)
            .returning(accounts.c.id)
        )
        account_id = int(result.scalar_one())
    if coins:
        await Ledger(engine, lambda: T0).post(account_id, coins, "welcome",
                                              f"welcome:{account_id}")
    return account_id


async def assert_balanced(engine: AsyncEngine, *account_ids: int) -> None:
    """The ledger invariant: balances equal the sums of entries, and none is negative."""
    ledger = Ledger(engine)
    balances, entries = await ledger.totals()
    assert balances == entries
    for account_id in account_ids:
        balance, total = await ledger.account_totals(account_id)
        assert balance == total
        assert balance >= 0
