"""Coin settlement is fenced: an owner that lost its table's lease settles nothing."""

from __future__ import annotations

import asyncio

import pytest
from coin_helpers import FakeNow, assert_balanced, new_account
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins import CoinService
from euchre.coins.ledger import find_entry
from euchre.storage import PLAYING, StaleFenceError, StoredGame
from euchre.storage.sql import SqlStore


def stored(table_id: str, fence: int) -> StoredGame:
    """The coin table's game row as its owner holding ``fence`` saves it."""
    return StoredGame(id=table_id, kind="coin", status=PLAYING, version=1, meta={},
                      record={}, created_at=1.0, updated_at=1.0, fence=fence)


async def test_the_old_owner_cannot_settle_after_the_new_owner_claimed(engine: AsyncEngine):
    coins = CoinService(engine, FakeNow())
    store = SqlStore(engine)
    a = await new_account(engine, 1000)
    await coins.open(a, "t1", 100)
    await store.save(stored("t1", 1))
    await store.claim("t1", 2)  # a new process took the table over
    with pytest.raises(StaleFenceError) as refused:
        await coins.finish("t1", 0, fence=1)  # the old one ends "its" game: a win
    assert refused.value.stored_fence == 2
    game = await coins.get("t1")
    assert game is not None and game.status == "active"
    assert await coins.ledger.balance(a) == 900
    settled = await coins.finish("t1", 1, fence=2)  # the new owner's game: a loss
    assert settled.game.status == "lost"
    with pytest.raises(StaleFenceError):
        await coins.finish("t1", 0, fence=1)
    assert (await coins.finish("t1", 1, fence=2)).game.status == "lost"  # repeats are no-ops
    assert await coins.ledger.balance(a) == 900
    await assert_balanced(engine, a)


async def test_a_settlement_racing_a_takeover_happens_once_or_not_at_all(engine: AsyncEngine):
    """The old owner settles while the new one claims: either the settlement commits before
    the claim (it still owned the row) or it is refused; never two payouts."""
    coins = CoinService(engine, FakeNow())
    store = SqlStore(engine)
    tables = [f"t{i}" for i in range(8)]
    players = [await new_account(engine, 1000) for _ in tables]
    for player, table in zip(players, tables, strict=True):
        await coins.open(player, table, 100)
        await store.save(stored(table, 1))

    async def old_owner(table: str) -> str:
        try:
            return (await coins.finish(table, 0, fence=1)).game.status
        except StaleFenceError:
            return "refused"

    async def new_owner(table: str) -> str:
        await store.claim(table, 2)
        return (await coins.finish(table, 1, fence=2)).game.status

    outcomes = await asyncio.gather(*(asyncio.gather(old_owner(t), new_owner(t))
                                      for t in tables))
    for table, (old, new) in zip(tables, outcomes, strict=True):
        assert (old, new) in (("won", "won"), ("refused", "lost")), table
        async with engine.connect() as conn:
            payout = await find_entry(conn, f"payout:{table}")
        assert (payout is not None) == (old == "won")
    await assert_balanced(engine, *players)
