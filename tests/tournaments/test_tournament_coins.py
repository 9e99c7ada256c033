"""Tournaments with an entry fee (SQLite, and PostgreSQL when set): creating one opens its coin
pool, registering charges the fee once (a repeat, or two at once, charge nothing more; a
balance that cannot pay is refused and nothing moves), withdrawing forfeits the entry, the
start closes entries, the end pays prizes by the final standings (computers win nothing: their
places' prizes are the house's), a cancel refunds everyone; every balance checked and, for
every pool, fees taken = prizes + refunds + house. Played on the fake clock through the
service, and refusals and a cancel through the HTTP API."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.testclient import TestClient
from test_tournament_service import played

from euchre.coins import Ledger
from euchre.coins.errors import InsufficientCoinsError, NotActiveError
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.storage.accounts_models import accounts, ledger_entries
from euchre.storage.sql import make_engine, migrate
from euchre.tournament import prizes
from euchre.tournaments import (
    TournamentConflict,
    TournamentError,
    TournamentService,
    TournamentSettings,
)

T0 = dt.datetime(2026, 12, 6, 19, 0, tzinfo=dt.UTC)
FEE = 100


class Clock:
    """The site's clock, moved by the test."""

    def __init__(self) -> None:
        self.at = T0

    def __call__(self) -> dt.datetime:
        return self.at


def run(db_url: str, coins: dict[int, int],
        body: Callable[[TournamentService, Ledger, Clock], Awaitable[Any]]) -> Any:
    """Migrate, add accounts ``coins`` (id: welcome coins), run ``body`` on a fake clock."""
    migrate(db_url)
    clock = Clock()

    async def main() -> Any:
        engine = make_engine(db_url)
        try:
            ledger = Ledger(engine, clock)
            async with engine.begin() as conn:
                for i in coins:
                    await conn.execute(accounts.insert().values(
                        id=i, username=f"p{i}", username_key=f"p{i}", password_hash="x",
                        balance=0, created_at=T0))
            for i, amount in coins.items():
                await ledger.post(i, amount, "welcome", f"welcome:{i}")
            return await body(TournamentService(engine, now=clock), ledger, clock)
        finally:
            await engine.dispose()

    return asyncio.run(main())


async def moved(engine: AsyncEngine, kind: str, tid: str) -> int:
    """Coins the ledger moved for a tournament by key kind (entry, prize, refund)."""
    async with engine.connect() as conn:
        return int(await conn.scalar(
            select(func.coalesce(func.sum(ledger_entries.c.amount), 0))
            .where(ledger_entries.c.key.like(f"tournament-{kind}:{tid}:%"))) or 0)


async def ledger_whole(ledger: Ledger) -> None:
    """Every balance is the sum of its entries."""
    balances, entries = await ledger.totals()
    assert balances == entries


def test_a_whole_tournament_with_a_fee_pays_by_the_standings(db_url: str) -> None:
    coins = {i: 1000 for i in range(1, 11)} | {11: FEE - 1}

    async def body(service: TournamentService, ledger: Ledger, clock: Clock) -> None:
        tid = await service.create(1, TournamentSettings(
            name="Legion hall", hands=1, rounds=3, entry_fee=FEE, prize_table=(50, 30, 20),
            fill_to=12))
        state = await service.state(tid, 1)
        assert state["pool"]["prize_table"] == [50, 30, 20]
        assert state["pool"]["status"] == "open" and state["pool"]["pool"] == 0

        for i in range(1, 8):
            await service.register(tid, i, f"p{i}", request_id=f"click-{i}")
        # A second click, and two clicks at once: charged once.
        with pytest.raises(TournamentConflict, match="already registered"):
            await service.register(tid, 3, "p3", request_id="click-3b")
        got = await asyncio.gather(*(service.register(tid, 8, "p8", request_id=f"r{k}")
                                     for k in range(3)), return_exceptions=True)
        assert sum(isinstance(g, str) for g in got) == 1
        assert all(isinstance(g, str | TournamentConflict) for g in got), got
        # A balance that cannot pay: refused, nothing moves.
        with pytest.raises(InsufficientCoinsError, match="entry fee is 100"):
            await service.register(tid, 11, "p11")
        assert await ledger.balance(11) == FEE - 1
        assert not await service.seat_token_owner(tid, 11)
        # Withdrawing forfeits the entry, and the person cannot come back.
        await service.register(tid, 9, "p9")
        await service.unregister(tid, 9)
        with pytest.raises(NotActiveError, match="forfeit"):
            await service.register(tid, 9, "p9")
        assert not await service.seat_token_owner(tid, 9)
        state = await service.state(tid, 1)
        assert state["people"] == 8
        assert state["pool"]["pool"] == 9 * FEE and state["pool"]["forfeit"] == 1
        for i in range(1, 10):
            assert await ledger.balance(i) == 1000 - FEE, i

        tables = await service.start(tid, by=1)
        # The start closed entries: nobody pays in now.
        with pytest.raises(TournamentError):
            await service.register(tid, 10, "p10")
        assert await ledger.balance(10) == 1000
        assert (await service.state(tid, 1))["pool"]["status"] == "running"
        for rnd in range(3):
            for i, t in enumerate(tables):
                await service.table_over(t.table_id, played(t.rules, rnd * 7 + i))
            tables = await service.advance(tid)
        assert await service.advance(tid) == []  # paid once

        state = await service.state(tid, 1)
        assert state["status"] == "finished"
        pool = state["pool"]
        assert pool["status"] == "paid"
        # Independently: the prizes of the final standings; computers (listed last, as
        # ids 100+) share ties like anyone, and what they would win is the house's.
        entered = {f"p{i}": i for i in range(1, 9)}
        lines = state["standings"]
        people = [(entered[s["name"]], s["place"]) for s in lines if s["kind"] != "computer"]
        computers = [(100 + k, s["place"]) for k, s in
                     enumerate(s for s in lines if s["kind"] == "computer")]
        assert len(people) == 8 and len(computers) == 4
        due = prizes(9 * FEE, (50, 30, 20), [*sorted(people), *computers])
        to_computers = sum(due.payouts.pop(c) for c, _ in computers)
        assert pool["paid_out"] == sum(due.payouts.values())
        assert pool["house"] == due.house + to_computers
        by_name = {p["name"]: p for p in pool["prizes"]}
        for name, account in entered.items():
            prize = due.payouts.get(account, 0)
            assert by_name[name]["prize"] == prize
            assert await ledger.balance(account) == 1000 - FEE + prize, name
        assert await ledger.balance(9) == 1000 - FEE  # the forfeit stays in the pool
        assert await ledger.balance(10) == 1000 and await ledger.balance(11) == FEE - 1
        if any(place <= 3 for _, place in computers):
            assert pool["house"] > 0  # a computer's prize goes to the house
        fees = -await moved(service.engine, "entry", tid)
        paid = await moved(service.engine, "prize", tid)
        refunds = await moved(service.engine, "refund", tid)
        assert fees == 9 * FEE and refunds == 0
        assert fees == paid + refunds + pool["house"]
        await ledger_whole(ledger)

    run(db_url, coins, body)


def test_a_cancelled_tournament_refunds_everyone(db_url: str) -> None:
    async def body(service: TournamentService, ledger: Ledger, clock: Clock) -> None:
        tid = await service.create(1, TournamentSettings(name="Snowed in", entry_fee=40,
                                                         prize_table=(60, 40)))
        for i in (1, 2, 3):
            await service.register(tid, i, f"p{i}")
        await service.unregister(tid, 2)  # forfeit: still refunded on a cancel
        assert [await ledger.balance(i) for i in (1, 2, 3)] == [460, 460, 460]
        await service.cancel(1, tid)
        assert [await ledger.balance(i) for i in (1, 2, 3)] == [500, 500, 500]
        state = await service.state(tid, 1)
        assert state["status"] == "cancelled" and state["pool"]["status"] == "cancelled"
        assert await moved(service.engine, "refund", tid) == 120
        assert -await moved(service.engine, "entry", tid) == 120
        with pytest.raises(TournamentConflict):
            await service.cancel(1, tid)
        assert [await ledger.balance(i) for i in (1, 2, 3)] == [500, 500, 500]
        await ledger_whole(ledger)
        # A bad prize table makes nothing.
        for bad in ((50, 60), (), (30, 50)):
            with pytest.raises(TournamentError, match="prize table"):
                await service.create(1, TournamentSettings(name="x", entry_fee=5,
                                                           prize_table=bad))

    run(db_url, {1: 500, 2: 500, 3: 500}, body)


def test_the_api_charges_once_refuses_plainly_and_refunds(db_url: str) -> None:
    app = create_app(Settings(database_url=db_url, bot_delay=0.0, hand_pause=0.0),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with TestClient(app) as client:
        csrf: dict[str, dict[str, str]] = {}
        jars: dict[str, dict[str, str]] = {}

        def as_(name: str) -> None:
            client.cookies.clear()
            client.cookies.update(jars[name])

        for name in ("ann", "bob", "cyd"):
            client.cookies.clear()
            r = client.post("/api/accounts", json={"username": name,
                                                   "password": "correct horse"})
            assert r.status_code == 201, r.text
            csrf[name] = {"X-CSRF-Token": r.json()["csrf"]}
            jars[name] = dict(client.cookies)

        def balance(name: str) -> int:
            as_(name)
            me = client.get("/api/me")
            assert me.status_code == 200, me.text
            return int(me.json()["balance"])

        as_("ann")
        r = client.post("/api/tournaments", headers=csrf["ann"], json={
            "name": "Church basement", "entry_fee": 600, "prize_table": [70, 30]})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        r = client.post("/api/tournaments", headers=csrf["ann"], json={
            "name": "Bad", "entry_fee": 5, "prize_table": [80, 40]})
        assert r.status_code == 400 and "prize table" in r.json()["error"]

        as_("bob")
        first = client.post(f"/api/tournaments/{tid}/register", headers={
            **csrf["bob"], "Idempotency-Key": "bob-1"}, json={})
        assert first.status_code == 201, first.text
        again = client.post(f"/api/tournaments/{tid}/register", headers={
            **csrf["bob"], "Idempotency-Key": "bob-1"}, json={})
        assert again.status_code == 409 and "already registered" in again.text
        assert balance("bob") == 400
        # cyd pays 600 of 1000, then cannot pay for a second tournament of 600.
        as_("cyd")
        assert client.post(f"/api/tournaments/{tid}/register", headers=csrf["cyd"],
                           json={}).status_code == 201
        as_("ann")
        other = client.post("/api/tournaments", headers=csrf["ann"], json={
            "name": "Second night", "entry_fee": 600}).json()["id"]
        as_("cyd")
        poor = client.post(f"/api/tournaments/{other}/register", headers=csrf["cyd"], json={})
        assert poor.status_code == 409, poor.text
        assert poor.json()["code"] == "insufficient_coins"
        assert "entry fee is 600" in poor.json()["error"]
        assert balance("cyd") == 400
        page = client.get(f"/api/tournaments/{other}").json()
        assert page["people"] == 0 and page["pool"]["pool"] == 0

        as_("cyd")
        r = client.post(f"/api/tournaments/{tid}/unregister", headers=csrf["cyd"], json={})
        assert r.status_code == 200, r.text
        assert r.json()["pool"]["forfeit"] == 1 and r.json()["pool"]["pool"] == 1200
        assert balance("cyd") == 400  # forfeit
        as_("ann")
        r = client.post(f"/api/tournaments/{tid}/cancel", headers=csrf["ann"], json={})
        assert r.status_code == 200, r.text
        assert r.json()["pool"]["status"] == "cancelled"
        assert balance("bob") == 1000 and balance("cyd") == 1000 and balance("ann") == 1000
        as_("bob")
        history = client.get("/api/me/ledger")
        assert history.status_code == 200, history.text
        assert "entry_refund" in history.text and "entry" in history.text
