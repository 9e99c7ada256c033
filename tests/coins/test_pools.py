"""Tournaments' coin pools on the ledger (SQLite, and PostgreSQL when set): an entry fee
charged once, forfeits on leaving, prizes paid once by the prize table, refunds on a
cancel, and for every pool fees taken = prizes + refunds + house."""

from __future__ import annotations

import asyncio

import pytest
from coin_helpers import T0, assert_balanced, new_account
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins import CoinsError, Ledger, Pool, PoolService, PotService
from euchre.coins.errors import (
    IdempotencyConflictError,
    InsufficientCoinsError,
    NotActiveError,
)
from euchre.storage.accounts_models import ledger_entries
from euchre.storage.pool_models import pool_entries
from euchre.tournament import place_prizes
from testdb import create_ledger_tables


async def _moved(engine: AsyncEngine, kind: str, tournament: str) -> tuple[int, int]:
    """(coins, entries) of the ledger rows of one kind for a tournament."""
    async with engine.connect() as conn:
        row = (await conn.execute(
            select(func.coalesce(func.sum(ledger_entries.c.amount), 0), func.count())
            .where(ledger_entries.c.key.like(f"tournament-{kind}:{tournament}:%")))).one()
    return int(row[0]), int(row[1])


async def assert_pool_balanced(engine: AsyncEngine, pool: Pool) -> None:
    """Every coin in the ledger: fees taken = prizes + refunds + house."""
    taken, charges = await _moved(engine, "entry", pool.tournament_id)
    assert -taken == pool.total and charges == len(pool.entries)
    prizes, _ = await _moved(engine, "prize", pool.tournament_id)
    refunds, _ = await _moved(engine, "refund", pool.tournament_id)
    if pool.status in ("open", "running"):
        assert prizes == refunds == 0
        return
    assert pool.paid_out == prizes
    assert -taken == prizes + refunds + (pool.house or 0)
    assert prizes == sum(e.prize or 0 for e in pool.entries)


async def _balances(engine: AsyncEngine, accounts: list[int]) -> list[int]:
    ledger = Ledger(engine)
    return [await ledger.balance(a) for a in accounts]


async def test_an_entry_is_charged_once_whatever_repeats_it(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    ann = await new_account(engine)
    await service.open("t1", 100)
    entry = await service.enter("t1", ann, "click-1")
    assert entry.status == "entered" and not entry.replayed
    again = await service.enter("t1", ann, "click-1")  # a retry
    other = await service.enter("t1", ann, "click-2")  # a second click, a new request
    assert again.replayed and other.replayed and other.request_id == "click-1"
    assert await _balances(engine, [ann]) == [900]
    pool = await service.get("t1")
    assert pool is not None and pool.total == 100 and len(pool.entries) == 1
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, ann)


async def test_concurrent_entries_by_one_person_charge_once(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    ann = await new_account(engine)
    bob = await new_account(engine)
    await service.open("t1", 50)
    entries = await asyncio.gather(*(service.enter("t1", who, f"r{i}")
                                     for i in range(8) for who in (ann, bob)))
    assert sum(not e.replayed for e in entries) == 2
    assert await _balances(engine, [ann, bob]) == [950, 950]
    pool = await service.get("t1")
    assert pool is not None
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, ann, bob)


async def test_a_balance_that_cannot_pay_is_refused_and_nothing_moves(
        engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    poor = await new_account(engine, 40)
    await service.open("t1", 50)
    with pytest.raises(InsufficientCoinsError,
                       match="the entry fee is 50 coins and your balance is 40"):
        await service.enter("t1", poor, "r")
    assert await _balances(engine, [poor]) == [40]
    pool = await service.get("t1")
    assert pool is not None and pool.entries == ()
    # The leaving fees of games in play are kept back (cover.py): 160 coins, a 100-coin
    # stake in play keeps 10 of the 60 left, so 55 cannot be paid, 50 can.
    people = {seat: await new_account(engine, 160) for seat in range(4)}
    await PotService(engine, lambda: T0).escrow("table", 100, people, {})
    await service.open("t2", 55)
    with pytest.raises(InsufficientCoinsError, match="10 of it covers the leaving fees"):
        await service.enter("t2", people[0], "r")
    await service.open("t3", 50)
    assert (await service.enter("t3", people[0], "r")).status == "entered"
    await assert_balanced(engine, poor, *people.values())


async def test_the_pool_pays_by_its_table_once(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    people = [await new_account(engine) for _ in range(6)]
    await service.open("t1", 101, (50, 30, 20))
    for who in people:
        await service.enter("t1", who, f"r{who}")
    left = people[5]
    await service.leave("t1", left)  # the entry is forfeit: it stays in the pool
    await service.leave("t1", left)
    with pytest.raises(NotActiveError, match="its entry was forfeit"):
        await service.enter("t1", left, "again")
    with pytest.raises(CoinsError, match=f"account {left} is not in this tournament"):
        await service.pay_out("t1", [(left, 1)])
    # Pool 606: 1st 303, 2nd 181, 3rd 121 (+1 rounding to 1st: 304). Two level 2nd share
    # 2nd and 3rd: 302, 151 each.
    a, b, c, d, e = people[:5]
    ranks = [(a, 1), (b, 2), (c, 2), (d, 4), (e, 5)]
    pool = await service.pay_out("t1", ranks)
    assert pool.status == "paid" and pool.total == 606
    assert {x.account_id: x.prize for x in pool.entries} == {
        a: 304, b: 151, c: 151, d: 0, e: 0, left: None}
    assert pool.paid_out == 606 and pool.house == 0
    assert await _balances(engine, people) == [1203, 1050, 1050, 899, 899, 899]
    again = await service.pay_out("t1", [(d, 1)])  # a second call pays nothing more
    assert again == pool
    with pytest.raises(NotActiveError, match="already paid out"):
        await service.cancel("t1")
    with pytest.raises(NotActiveError, match="takes no more entries"):
        await service.enter("t1", await new_account(engine), "late")
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, *people)


async def test_places_nobody_holds_are_the_house_share(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    people = [await new_account(engine) for _ in range(3)]
    await service.open("t1", 10, (60, 30))
    for who in people:
        await service.enter("t1", who, "r")
    # Second place went to a computer: the caller leaves it out.
    pool = await service.pay_out("t1", [(people[0], 1), (people[1], 3)])
    assert pool.paid_out == 18 and pool.house == 12  # 10% of 30 and 2nd's 9
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, *people)


async def test_concurrent_pay_outs_pay_once(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    people = [await new_account(engine) for _ in range(4)]
    await service.open("t1", 100)
    for who in people:
        await service.enter("t1", who, "r")
    ranks = [(who, place + 1) for place, who in enumerate(people)]
    pools = await asyncio.gather(*(service.pay_out("t1", ranks) for _ in range(6)))
    assert all(p == pools[0] for p in pools)
    assert await _balances(engine, people) == [1100, 1020, 980, 900]
    _, prize_rows = await _moved(engine, "prize", "t1")
    assert prize_rows == 3
    await assert_pool_balanced(engine, pools[0])
    await assert_balanced(engine, *people)


async def test_a_cancel_refunds_everyone_once(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    people = [await new_account(engine) for _ in range(3)]
    await service.open("t1", 70)
    for who in people:
        await service.enter("t1", who, "r")
    await service.leave("t1", people[2])
    pools = await asyncio.gather(*(service.cancel("t1") for _ in range(4)))
    pool = pools[0]
    assert all(p == pool for p in pools)
    assert pool.status == "cancelled" and pool.paid_out == 0 and pool.house == 0
    assert {e.status for e in pool.entries} == {"refunded"}
    assert await _balances(engine, people) == [1000, 1000, 1000]  # the leaver's too
    with pytest.raises(NotActiveError, match="was cancelled"):
        await service.pay_out("t1", [(people[0], 1)])
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, *people)


async def test_a_cancel_racing_a_pay_out_moves_one_of_them(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    people = [await new_account(engine) for _ in range(4)]
    await service.open("t1", 100)
    for who in people:
        await service.enter("t1", who, "r")
    ranks = [(who, place + 1) for place, who in enumerate(people)]
    outcomes = await asyncio.gather(service.pay_out("t1", ranks), service.cancel("t1"),
                                    return_exceptions=True)
    refused = [o for o in outcomes if isinstance(o, NotActiveError)]
    assert len(refused) == 1
    pool = await service.get("t1")
    assert pool is not None and pool.status in ("paid", "cancelled")
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, *people)


async def test_closing_entries_at_the_start_fixes_who_is_in(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    people = [await new_account(engine) for _ in range(6)]
    await service.open("t1", 40)
    await service.enter("t1", people[0], "r")
    # The start races five more entries: each is in the closed pool, or refused and
    # charged nothing.
    outcomes = await asyncio.gather(
        *(service.enter("t1", who, "r") for who in people[1:3]), service.close_entries("t1"),
        *(service.enter("t1", who, "r") for who in people[3:]), return_exceptions=True)
    closed = outcomes[2]
    assert isinstance(closed, Pool) and closed.status == "running"
    inside = {e.account_id for e in closed.entries}
    for who, outcome in zip([*people[1:3], *people[3:]], outcomes[:2] + outcomes[3:],
                            strict=True):
        if isinstance(outcome, NotActiveError):
            assert who not in inside
        else:
            assert who in inside
    assert await _balances(engine, people) == [960 if who in inside else 1000
                                               for who in people]
    assert await service.close_entries("t1") == closed
    with pytest.raises(NotActiveError, match="takes no more entries"):
        await service.enter("t1", await new_account(engine), "late")
    # Leaving after the start forfeits too; the rest are paid from the running pool.
    await service.leave("t1", people[0])
    staying = sorted(inside - {people[0]})
    pool = await service.pay_out("t1", [(who, 1) for who in staying])
    # Level at the top, they share the first places the table pays (those beyond them are
    # the house's).
    assert pool.status == "paid" and pool.total == 40 * len(inside)
    assert pool.paid_out == sum(place_prizes(pool.total, pool.table)[:len(staying)])
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, *people)


async def test_a_running_tournament_cancelled_refunds_everyone(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    people = [await new_account(engine) for _ in range(4)]
    await service.open("t1", 100)
    for who in people:
        await service.enter("t1", who, "r")
    await service.close_entries("t1")
    await service.leave("t1", people[1])
    pool = await service.cancel("t1")
    assert pool.status == "cancelled"
    assert await _balances(engine, people) == [1000] * 4
    assert await service.close_entries("t1") == pool  # nothing more happens
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, *people)


async def test_opening_is_idempotent_and_checked(engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    pools = await asyncio.gather(*(service.open("t1", 20, (70, 30)) for _ in range(4)))
    assert all(p == pools[0] for p in pools) and pools[0].table == (70, 30)
    with pytest.raises(IdempotencyConflictError, match="entry fee of 20 coins and the table "
                                                       "70/30"):
        await service.open("t1", 30)
    with pytest.raises(CoinsError, match="an entry fee is a whole number"):
        await service.open("t2", 0)
    with pytest.raises(CoinsError, match="at most 100%"):
        await service.open("t2", 10, (60, 60))
    with pytest.raises(CoinsError, match="a tournament id must be text"):
        await service.open("", 10)
    with pytest.raises(NotActiveError, match="takes no entry fee"):
        await service.enter("nope", await new_account(engine), "r")
    with pytest.raises(CoinsError, match="a request id must be text"):
        await service.enter("t1", await new_account(engine), "")
    assert await service.get("t2") is None
    async with engine.connect() as conn:
        assert await conn.scalar(select(func.count()).select_from(pool_entries)) == 0


# One step: (kind, person). Kinds: enter, leave, close entries, pay out, cancel; each sent
# twice at once.
steps = st.lists(st.tuples(st.sampled_from(["enter", "leave", "close", "pay", "cancel"]),
                           st.integers(0, 4)), min_size=1, max_size=14)


async def _storm(url: str, plan: list[tuple[str, int]]) -> None:
    engine = await create_ledger_tables(url)
    try:
        service = PoolService(engine, lambda: T0)
        people = [await new_account(engine, 60) for _ in range(5)]
        tournament = f"storm-{people[0]}"
        await service.open(tournament, 25, (70, 30))

        async def step(kind: str, who: int) -> object:
            try:
                if kind == "enter":
                    return await service.enter(tournament, people[who], f"r{who}")
                if kind == "leave":
                    return await service.leave(tournament, people[who])
                if kind == "cancel":
                    return await service.cancel(tournament)
                if kind == "close":
                    return await service.close_entries(tournament)
                pool = await service.get(tournament)
                assert pool is not None
                staying = [e.account_id for e in pool.entries if e.status == "entered"]
                return await service.pay_out(tournament, [(a, 1 + i % 2 * i)
                                                          for i, a in enumerate(staying)])
            except CoinsError as e:
                return e

        for kind, who in plan:
            await asyncio.gather(step(kind, who), step(kind, who))
        pool = await service.get(tournament)
        assert pool is not None
        await assert_pool_balanced(engine, pool)
        await assert_balanced(engine, *people)
        # Nobody paid a fee twice; each balance is the start, less a fee if entered, plus
        # what came back.
        for who in people:
            entry = pool.entry(who)
            back = 0 if entry is None else (
                pool.fee if entry.status == "refunded" else entry.prize or 0)
            fee = 0 if entry is None else pool.fee
            assert await Ledger(engine).balance(who) == 60 - fee + back
    finally:
        await engine.dispose()


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(plan=steps)
def test_any_order_of_requests_keeps_every_coin(db_url: str, plan: list[tuple[str, int]]) -> None:
    """Enters, leaves, starts, pay-outs and cancels in any order, each sent twice at once."""
    asyncio.run(_storm(db_url, plan))


async def test_a_computer_level_with_a_person_takes_its_share_for_the_house(
        engine: AsyncEngine) -> None:
    service = PoolService(engine, lambda: T0)
    ann = await new_account(engine)
    bob = await new_account(engine)
    await service.open("t9", 100, (70, 30))
    for who in (ann, bob):
        await service.enter("t9", who, f"r{who}")
    # A pool of 200: ann ties a computer at the top (places 1 and 2 shared: 140 + 60, 100
    # each, the computer's 100 the house's); bob is fourth, behind a second computer.
    pool = await service.pay_out("t9", [(ann, 1), (bob, 4)], unpaid=[1, 3])
    mine = pool.entry(ann)
    assert mine is not None and mine.prize == 100
    assert pool.paid_out == 100 and pool.house == 100
    assert await _balances(engine, [ann, bob]) == [1000, 900]
    await assert_pool_balanced(engine, pool)
    await assert_balanced(engine, ann, bob)
