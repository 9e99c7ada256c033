"""A new account name that looks like another's is refused, naming it; names made before
keep working (issue 34, item 6). Both databases."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.accounts import AccountService, Passwords, UsernameTakenError
from euchre.accounts.bots import BotService
from euchre.accounts.lookalikes import fill_missing
from euchre.storage.accounts_models import account_lookalikes, accounts

T0 = dt.datetime(2026, 12, 6, 12, 0, tzinfo=dt.UTC)
FAST = Passwords("cheapest")


async def _count(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return int(await conn.scalar(select(func.count()).select_from(accounts)) or 0)


@pytest.mark.parametrize(("first", "second"), [("Bill", "BiII"), ("Bob", "B0B"),
                                               ("mary", "rnary"), ("Ann_1", "Ann_l")])
async def test_a_name_that_looks_like_an_accounts_is_refused(
        engine: AsyncEngine, first: str, second: str) -> None:
    service = AccountService(engine, FAST, lambda: T0)
    await service.create(first, "correct horse")
    with pytest.raises(UsernameTakenError, match=f"looks like the name '{first}'"):
        await service.create(second, "correct horse")
    assert await _count(engine) == 1  # nothing made
    await service.create(f"{first}x", "correct horse")  # another name is fine


async def test_a_bot_may_not_look_like_a_person_nor_a_person_like_a_bot(
        engine: AsyncEngine) -> None:
    service = AccountService(engine, FAST, lambda: T0)
    bots = BotService(engine, lambda: T0)
    owner = await service.create("Owner", "correct horse")
    await service.create("Bill", "correct horse")
    with pytest.raises(UsernameTakenError, match="looks like the name 'Bill'"):
        await bots.create(owner.id, "BiII")
    await bots.create(owner.id, "Robo_7")
    with pytest.raises(UsernameTakenError, match="looks like the name 'Robo_7'"):
        await service.create("R0bo_7", "correct horse")


async def test_names_made_before_keep_working_and_get_their_keys(engine: AsyncEngine) -> None:
    async with engine.begin() as conn:  # two look-alikes made before the check was
        for name in ("Bill", "BiII"):
            await conn.execute(accounts.insert().values(
                username=name, username_key=name.lower(),
                password_hash=await FAST.hash("correct horse"), balance=0, created_at=T0))
    assert await fill_missing(engine) == 2
    assert await fill_missing(engine) == 0  # once
    service = AccountService(engine, FAST, lambda: T0)
    for name in ("Bill", "BiII"):
        assert (await service.authenticate(name, "correct horse")).username == name
    with pytest.raises(UsernameTakenError, match="looks like the name"):
        await service.create("Bi1l", "correct horse")
    async with engine.connect() as conn:
        assert int(await conn.scalar(
            select(func.count(func.distinct(account_lookalikes.c.account_id)))) or 0) == 2


async def test_bot_accounts_are_limited_per_owner_over_time(engine: AsyncEngine) -> None:
    """Issue 34 item 3: bots belong to their owner: 3 new bot accounts a day and 10 in all
    per person, whatever their tokens (revoking one gives nothing back); a new token for a
    bot one has is always possible."""
    from euchre.accounts.bots import MAX_BOTS_PER_OWNER, NEW_BOTS_PER_DAY, TooManyBots

    now = [T0]
    service = AccountService(engine, FAST, lambda: now[0])
    bots = BotService(engine, lambda: now[0])
    owner = await service.create("Owner", "correct horse")
    made = 0
    for day in range(4):
        now[0] = T0 + dt.timedelta(hours=25 * day)
        for _ in range(NEW_BOTS_PER_DAY):
            if made == MAX_BOTS_PER_OWNER:
                break
            token, _ = await bots.create(owner.id, f"Robo_{made}_x")
            await bots.revoke(owner.id, token.id)  # revoking gives no bot account back
            made += 1
        if made < MAX_BOTS_PER_OWNER:
            with pytest.raises(TooManyBots, match="in the last 24 hours"):
                await bots.create(owner.id, "Robo_more")
    assert made == MAX_BOTS_PER_OWNER
    with pytest.raises(TooManyBots, match="the most one person may own"):
        await bots.create(owner.id, "Robo_more")
    again, _ = await bots.create(owner.id, "Robo_0_x")  # a new token for a bot one has
    assert again.bot == "Robo_0_x"
    assert await _count(engine) == 1 + MAX_BOTS_PER_OWNER
