"""Many concurrent charges and payouts with repeated idempotency keys (asyncio.gather).

Whatever the interleaving: no key is applied twice, no balance goes below zero, every
call with one key that succeeded got the same entry, and balances equal the ledger.
"""

from __future__ import annotations

import asyncio
from typing import Any

from coin_helpers import T0, assert_balanced, new_account
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from euchre.coins import CoinsError, CoinService, Ledger
from euchre.storage.accounts_models import ledger_entries
from testdb import create_ledger_tables

# One operation: (account index, amount, key index). Keys repeat on purpose; a key is
# tied to one (account, amount) so a repeat is a true retry.
operations = st.lists(
    st.tuples(st.integers(0, 2), st.integers(-120, 80), st.integers(0, 14)),
    min_size=1,
    max_size=60,
)


async def _run(url: str, ops: list[tuple[int, int, int]]) -> None:
    engine = await create_ledger_tables(url)
    try:
        ledger = Ledger(engine, lambda: T0)
        ids = [await new_account(engine, 100) for _ in range(3)]
        tag = f"{ids[0]}"
        # Tie each key to the first operation that uses it.
        meaning: dict[int, tuple[int, int]] = {}
        for who, amount, k in ops:
            meaning.setdefault(k, (who, amount))
        calls = [(meaning[k][0], meaning[k][1], k) for _, _, k in ops]

        async def one(who: int, amount: int, k: int) -> Any:
            try:
                return await ledger.post(ids[who], amount, "test", f"p:{tag}:{k}")
            except CoinsError as e:
                return e

        results = await asyncio.gather(*(one(*c) for c in calls))
        by_key: dict[int, set[int]] = {}
        for (_, _, k), r in zip(calls, results, strict=True):
            if not isinstance(r, CoinsError):
                by_key.setdefault(k, set()).add(r.id)
        assert all(len(v) == 1 for v in by_key.values()), "a key was applied twice"
        async with engine.connect() as conn:
            count = await conn.scalar(
                select(func.count()).where(ledger_entries.c.key.like(f"p:{tag}:%"))
            )
        assert count == len(by_key)
        expected = [100, 100, 100]
        for k in by_key:
            who, amount = meaning[k]
            expected[who] += amount
        assert [await ledger.balance(i) for i in ids] == expected
        await assert_balanced(engine, *ids)
    finally:
        await engine.dispose()


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(ops=operations)
def test_concurrent_posts_never_double_apply(db_url: str, ops: list[tuple[int, int, int]]) -> None:
    asyncio.run(_run(db_url, ops))


async def test_a_storm_of_coin_games(engine: Any) -> None:
    """Open, finish and leave coin games concurrently, each request sent three times."""
    coins = CoinService(engine, lambda: T0)
    players = [await new_account(engine, 1000) for _ in range(4)]

    async def play(i: int, p: int) -> None:
        table = f"storm-{p}-{i}"
        opened = await asyncio.gather(
            *(coins.open(p, table, 50, request_key=f"r{i}") for _ in range(3)),
            return_exceptions=True,
        )
        assert sum(1 for o in opened if not isinstance(o, Exception) and o.created) == 1
        if i % 2:
            await asyncio.gather(*(coins.finish(table, i % 4 // 2) for _ in range(3)))
        else:
            await asyncio.gather(*(coins.leave(table, p) for _ in range(3)))

    async def player(p: int) -> None:
        for i in range(6):
            await play(i, p)

    await asyncio.gather(*(player(p) for p in players))
    for p in players:
        games = await coins.games(p)
        assert len(games) == 6 and all(g.status != "active" for g in games)
        expected = 1000
        for g in games:
            expected -= 50
            if g.status == "won":
                expected += 100
            elif g.status == "left":
                expected -= 5
        assert await coins.ledger.balance(p) == expected
    await assert_balanced(engine, *players)
