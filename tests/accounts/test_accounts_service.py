"""Accounts: sign up with the starting coins, sign in, argon2 hashes, sessions."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.accounts import (
    AccountService,
    BadPasswordError,
    BadUsernameError,
    LoginSessionStore,
    Passwords,
    UsernameTakenError,
    WrongCredentialsError,
)
from euchre.coins import Ledger
from euchre.storage.accounts_models import accounts, sessions

T0 = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
FAST = Passwords("cheapest")


async def test_sign_up_gives_the_starting_coins(engine: AsyncEngine) -> None:
    service = AccountService(engine, FAST, lambda: T0)
    account = await service.create("Alice", "correct horse")
    assert (account.username, account.balance) == ("Alice", 1000)
    ledger = Ledger(engine)
    assert [(e.reason, e.amount) for e in await ledger.entries(account.id)] == [("welcome", 1000)]
    assert await ledger.totals() == (1000, 1000)
    async with engine.connect() as conn:
        stored = await conn.scalar(select(accounts.c.password_hash))
    assert stored is not None and stored.startswith("$argon2id$") and "correct" not in stored


async def test_usernames_are_unique_regardless_of_case(engine: AsyncEngine) -> None:
    service = AccountService(engine, FAST, lambda: T0)
    await service.create("Alice", "correct horse")
    with pytest.raises(UsernameTakenError):
        await service.create("ALICE", "another password")
    assert await Ledger(engine).totals() == (1000, 1000)


@pytest.mark.parametrize("name", ["", "ab", "a" * 25, "-alice", "al ice", "al/ice", None, 5,
                                  "élise"])
async def test_bad_usernames(engine: AsyncEngine, name: object) -> None:
    with pytest.raises(BadUsernameError):
        await AccountService(engine, FAST).create(name, "correct horse")


@pytest.mark.parametrize("password", ["", "short", "x" * 201, None, 12345678])
async def test_bad_passwords(engine: AsyncEngine, password: object) -> None:
    with pytest.raises(BadPasswordError):
        await AccountService(engine, FAST).create("bob", password)


async def test_sign_in(engine: AsyncEngine) -> None:
    service = AccountService(engine, FAST)
    made = await service.create("carol", "correct horse")
    assert (await service.authenticate("Carol", "correct horse")).id == made.id
    for name, password in (("carol", "wrong horse"), ("nobody", "correct horse"),
                           ("carol", ""), (None, "x"), ("carol", "y" * 500)):
        with pytest.raises(WrongCredentialsError, match="wrong username or password"):
            await service.authenticate(name, password)


async def test_an_old_hash_is_upgraded_on_sign_in(engine: AsyncEngine) -> None:
    await AccountService(engine, Passwords("cheapest")).create("dave", "correct horse")
    stronger = Passwords("default")
    assert stronger.needs_rehash(await _hash(engine))
    await AccountService(engine, stronger).authenticate("dave", "correct horse")
    assert not stronger.needs_rehash(await _hash(engine))


async def _hash(engine: AsyncEngine) -> str:
    async with engine.connect() as conn:
        value = await conn.scalar(select(accounts.c.password_hash))
    assert isinstance(value, str)
    return value


async def test_passwords_check_and_refuse() -> None:
    encoded = await FAST.hash("secret words")
    assert await FAST.verify(encoded, "secret words")
    assert not await FAST.verify(encoded, "secret word")
    assert not await FAST.verify("not a hash", "secret words")
    assert FAST.needs_rehash("not a hash")


async def test_sessions(engine: AsyncEngine) -> None:
    now = [T0]
    account = await AccountService(engine, FAST).create("erin", "correct horse")
    store = LoginSessionStore(engine, lambda: now[0], days=30)
    sid, session = await store.create(account.id)
    found = await store.find(sid)
    assert found is not None and found.account_id == account.id
    assert found.csrf_ok(session.csrf) and not found.csrf_ok("forged") and not found.csrf_ok(None)
    async with engine.connect() as conn:  # only the hash of the id is stored
        assert await conn.scalar(select(sessions.c.id_hash)) != sid
    assert await store.find("forged-session-id") is None
    assert await store.find("") is None and await store.find("x" * 500) is None
    now[0] = T0 + dt.timedelta(days=31)
    assert await store.find(sid) is None
    assert await store.purge() == 1
    now[0] = T0
    sid2, _ = await store.create(account.id)
    await store.end(sid2)
    assert await store.find(sid2) is None
    await store.end(None)


async def test_password_checks_run_one_at_a_time_and_only_so_many_wait() -> None:
    import asyncio
    import threading

    from euchre.accounts.passwords import PasswordsBusy

    passwords = Passwords("cheapest", max_waiting=1)
    encoded = await passwords.hash("correct horse")
    release = threading.Event()
    running: list[int] = []
    real = passwords._verify

    def slow(encoded: str, password: str) -> bool:
        running.append(1)
        release.wait(10)
        running.pop()
        return real(encoded, password)

    passwords._verify = slow  # type: ignore[method-assign]
    first = asyncio.create_task(passwords.verify(encoded, "correct horse"))
    second = asyncio.create_task(passwords.verify(encoded, "wrong"))
    while not running:
        await asyncio.sleep(0.01)
    with pytest.raises(PasswordsBusy) as busy:
        await passwords.verify(encoded, "third")
    assert busy.value.status == 503 and "busy" in busy.value.message
    assert len(running) == 1  # the second waits for the first
    release.set()
    assert await first is True and await second is False
