"""What the leave-race tests share (online stake tables and coin tables against the
computer): accounts on the ledger, a stored table copied under a new id, fake time moved to
the table's next due call, the two racers started in a random order, and the ledger checks
made after each race and at the end."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import itertools
import random
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins.ledger import Ledger
from euchre.storage.accounts_models import accounts, ledger_entries
from euchre.storage.base import StoredGame
from euchre.table.actor.actor import TableActor
from euchre.table.actor.pacing import ManualScheduler

_names = itertools.count()
_CREATED = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)


async def new_racer(engine: AsyncEngine, coins: int) -> int:
    """A new account credited ``coins`` through the ledger (a welcome entry); its id."""
    name = f"racer{next(_names)}"
    async with engine.begin() as conn:
        account_id = int((await conn.execute(
            accounts.insert().values(username=name, username_key=name, password_hash="x",
                                     balance=0, created_at=_CREATED)
            .returning(accounts.c.id))).scalar_one())
    await Ledger(engine).post(account_id, coins, "welcome", f"welcome:{account_id}")
    return account_id


def copy_as(stored: StoredGame, table_id: str) -> StoredGame:
    """The stored table under another id (each race plays its own copy)."""
    meta = {**stored.meta, "config": {**stored.meta["config"], "id": table_id}}
    return dataclasses.replace(stored, id=table_id, meta=meta, meta_text=None)


async def advance(scheduler: ManualScheduler, actor: TableActor) -> None:
    """Move fake time to the table's next due call and let the table handle it."""
    await actor.settle()
    due = scheduler.next_due()
    assert due is not None, "the table stopped"
    scheduler.advance(max(0.0, due - scheduler.now()))
    await actor.settle()


async def race(rng: random.Random, card: Callable[[], Awaitable[None]],
               leave: Callable[[], Awaitable[Any]]) -> Any:
    """Run the deciding card and the leave together, the one started first chosen by
    ``rng`` (the racers' own yields decide the rest); what the leave answered."""
    if rng.random() < 0.5:
        playing, leaving = asyncio.ensure_future(card()), asyncio.ensure_future(leave())
    else:
        leaving, playing = asyncio.ensure_future(leave()), asyncio.ensure_future(card())
    await asyncio.gather(playing, leaving)
    return leaving.result()


async def table_sums(engine: AsyncEngine, table_id: str) -> dict[str, int]:
    """The table's ledger entries summed by reason; no entry key is written twice."""
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(ledger_entries.c.reason, func.sum(ledger_entries.c.amount))
            .where(ledger_entries.c.table_id == table_id)
            .group_by(ledger_entries.c.reason))).all()
        repeated = await conn.scalar(
            select(func.count()).select_from(
                select(ledger_entries.c.key).where(ledger_entries.c.table_id == table_id)
                .group_by(ledger_entries.c.key).having(func.count() > 1).subquery()))
    assert repeated == 0
    return {str(reason): int(total) for reason, total in rows}


async def assert_ledger_balanced(engine: AsyncEngine, racers: list[int]) -> tuple[Any, Any]:
    """Every balance is the sum of its entries (in all, and for each racer, never below
    zero); the totals, to compare later."""
    balances, entries = await Ledger(engine).totals()
    assert balances == entries
    for account in racers:
        balance, total = await Ledger(engine).account_totals(account)
        assert balance == total >= 0
    return balances, entries
