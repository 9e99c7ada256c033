"""The ledger: whole coins, never below zero, idempotency keys, balances equal entries."""

from __future__ import annotations

import pytest
from coin_helpers import T0, assert_balanced, new_account
from sqlalchemy import text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins import (
    IdempotencyConflictError,
    InsufficientCoinsError,
    Ledger,
    UnknownAccountError,
)
from euchre.storage.accounts_models import accounts


async def test_credit_and_charge_change_the_balance(engine: AsyncEngine) -> None:
    ledger = Ledger(engine, lambda: T0)
    a = await new_account(engine, 100)
    e = await ledger.post(a, -30, "stake", "stake:t1", table_id="t1")
    assert (e.amount, e.balance_after, e.table_id, e.replayed) == (-30, 70, "t1", False)
    await ledger.post(a, 60, "payout", "payout:t1", table_id="t1")
    assert await ledger.balance(a) == 130
    entries = await ledger.entries(a)
    assert [x.reason for x in entries] == ["payout", "stake", "welcome"]
    assert entries[0].to_json()["time"] == "2026-05-01T12:00:00Z"
    await assert_balanced(engine, a)


async def test_a_replayed_key_changes_nothing(engine: AsyncEngine) -> None:
    ledger = Ledger(engine, lambda: T0)
    a = await new_account(engine, 100)
    first = await ledger.post(a, -50, "stake", "stake:t2")
    again = await ledger.post(a, -50, "stake", "stake:t2")
    assert again.replayed and again.id == first.id and again.balance_after == 50
    assert await ledger.balance(a) == 50
    assert len(await ledger.entries(a)) == 2
    await assert_balanced(engine, a)


async def test_a_key_reused_for_something_else_is_refused(engine: AsyncEngine) -> None:
    ledger = Ledger(engine, lambda: T0)
    a = await new_account(engine, 100)
    b = await new_account(engine, 100)
    await ledger.post(a, -10, "stake", "stake:t3")
    with pytest.raises(IdempotencyConflictError):
        await ledger.post(a, -20, "stake", "stake:t3")
    with pytest.raises(IdempotencyConflictError):
        await ledger.post(b, -10, "stake", "stake:t3")
    assert (await ledger.balance(a), await ledger.balance(b)) == (90, 100)
    await assert_balanced(engine, a, b)


async def test_a_charge_above_the_balance_is_refused(engine: AsyncEngine) -> None:
    ledger = Ledger(engine, lambda: T0)
    a = await new_account(engine, 40)
    with pytest.raises(InsufficientCoinsError, match="balance is 40"):
        await ledger.post(a, -41, "stake", "stake:t4")
    assert await ledger.balance(a) == 40
    assert len(await ledger.entries(a)) == 1
    # The refused key is free: the same key works once there are coins.
    await ledger.post(a, -40, "stake", "stake:t4")
    assert await ledger.balance(a) == 0
    await assert_balanced(engine, a)


async def test_a_charge_up_to_the_balance_never_goes_below_zero(engine: AsyncEngine) -> None:
    ledger = Ledger(engine, lambda: T0)
    a = await new_account(engine, 3)
    e = await ledger.post(a, -10, "fee", "fee:t5", up_to_balance=True)
    assert (e.amount, e.balance_after) == (-3, 0)
    again = await ledger.post(a, -10, "fee", "fee:t5", up_to_balance=True)
    assert again.replayed and again.amount == -3
    empty = await ledger.post(a, -10, "fee", "fee:t6", up_to_balance=True)
    assert (empty.amount, empty.balance_after) == (0, 0)
    await assert_balanced(engine, a)


async def test_amounts_are_whole_coins(engine: AsyncEngine) -> None:
    ledger = Ledger(engine, lambda: T0)
    a = await new_account(engine, 10)
    for bad in (1.5, "5", True, None):
        with pytest.raises(TypeError):
            await ledger.post(a, bad, "x", f"bad:{bad!r}")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await ledger.post(a, 10**13, "x", "huge")
    assert await ledger.balance(a) == 10


async def test_unknown_account(engine: AsyncEngine) -> None:
    ledger = Ledger(engine, lambda: T0)
    with pytest.raises(UnknownAccountError):
        await ledger.post(999999, 5, "welcome", "welcome:999999")
    with pytest.raises(UnknownAccountError):
        await ledger.balance(999999)
    assert await ledger.totals() == (0, 0)


async def test_the_database_refuses_a_negative_balance(engine: AsyncEngine) -> None:
    a = await new_account(engine, 5)
    with pytest.raises(IntegrityError):
        async with engine.begin() as conn:
            await conn.execute(update(accounts).where(accounts.c.id == a).values(balance=-1))
    with pytest.raises(IntegrityError):
        async with engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO ledger_entries (account_id, amount, reason, key, "
                    "balance_after, created_at) VALUES (:a, -6, 'x', 'neg', -1, :t)"
                ),
                {"a": a, "t": T0},
            )
    assert await Ledger(engine).balance(a) == 5
