"""Open online tables are stored: they survive a restart (SQLite and PostgreSQL), and two
processes changing one table at once stay consistent (a seat is given once, no change is
lost)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from lobby_helpers import Addressed, at, lobby_app

from euchre.storage.open_tables_sql import SqlOpenTableStore
from euchre.storage.sql import SqlStore, make_engine
from euchre.table.kinds.lobby import Lobby
from euchre.table.kinds.online import OnlineConflict, OnlineOptions


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database's URL, migrated."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/lobby.db"
        store = await SqlStore.open(url)
        await store.close()
        yield url
        return
    server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
    if not server:
        pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
    from testdb import drop_postgres, fresh_postgres

    url = await fresh_postgres(server)
    store = await SqlStore.open(url)
    await store.close()
    try:
        yield url
    finally:
        await drop_postgres(url)


@contextlib.asynccontextmanager
async def running(url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The whole site on ``url``, started, with a client whose requests name an address."""
    app = lobby_app(url)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=Addressed(app))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


async def _post(client: httpx.AsyncClient, path: str, body: dict[str, Any],
                address: str) -> Any:
    r = await client.post(path, json=body, headers=at(address))
    assert r.status_code in (200, 201), r.text
    return r.json()


async def test_open_tables_survive_a_restart(database: str) -> None:
    async with running(database) as client:
        ann = await _post(client, "/api/tables", {"kind": "online", "name": "Ann",
                                                  "seconds_per_move": 45}, "10.3.0.1")
        await _post(client, f"/api/tables/{ann['id']}/seats", {"seat": 1, "name": "Bob"},
                    "10.3.0.2")
        cy = await _post(client, "/api/online/quick", {"name": "Cy"}, "10.3.0.3")
        dee = await _post(client, "/api/online/quick", {"name": "Dee"}, "10.3.0.4")
        await _post(client, f"/api/online/{cy['id']}/fill", {"token": cy["token"]},
                    "10.3.0.3")
        before = (await client.get("/api/online")).json()
    async with running(database) as client:  # a new process on the same database
        after = (await client.get("/api/online")).json()
        assert after == before and len(after["tables"]) == 2
        invite = next(t for t in after["tables"] if t["id"] == ann["id"])
        assert [s["name"] for s in invite["seats"]] == ["Ann", "Bob", None, None]
        assert invite["seconds_per_move"] == 45
        quick = next(t for t in after["tables"] if t["id"] == cy["id"])
        assert [s["fill"] for s in quick["seats"]] == [True, False, False, False]
        # Seats, tokens and agreements carry on: Dee agrees and the quick table starts.
        done = await _post(client, f"/api/online/{dee['id']}/fill", {"token": dee["token"]},
                           "10.3.0.4")
        assert done["table"]["status"] == "started"
        taken = await client.post(f"/api/tables/{ann['id']}/seats",
                                  json={"seat": 1, "name": "Eve"}, headers=at("10.3.0.5"))
        assert taken.status_code == 409
        started = await _post(client, f"/api/tables/{ann['id']}/start",
                              {"token": ann["token"]}, "10.3.0.1")
        assert started["status"] == "started"
        assert (await client.get("/api/online")).json()["tables"] == []


async def test_two_processes_give_a_seat_once_and_lose_no_change(database: str) -> None:
    engines = [make_engine(database), make_engine(database)]
    lobbies = [Lobby(SqlOpenTableStore(e)) for e in engines]
    try:
        table, _ = await lobbies[0].create(OnlineOptions(name="Ann"))
        tries = [lobbies[i % 2].claim(table.id, 2, f"P{i}") for i in range(8)]
        results = await asyncio.gather(*tries, return_exceptions=True)
        won = [r for r in results if not isinstance(r, BaseException)]
        assert len(won) == 1, results
        assert all(isinstance(r, OnlineConflict) for r in results if r not in won)
        # Different seats at once: every claim lands, after retries over the versions.
        others = await asyncio.gather(lobbies[0].claim(table.id, 1, "Bob"),
                                      lobbies[1].claim(table.id, 3, "Dee"))
        assert len(others) == 2
        seen = await lobbies[1].get(table.id)
        assert [p[0] if p else None for p in seen.people] == [
            "Ann", "Bob", won[0][0].people[2][0], "Dee"]  # type: ignore[index]
        assert seen.version == 3
        # Only one of two starts at once wins.
        starts = await asyncio.gather(*(lob.start(table.id, lambda t: None) for lob in lobbies),
                                      return_exceptions=True)
        assert sum(not isinstance(s, BaseException) for s in starts) == 1
    finally:
        for engine in engines:
            await engine.dispose()


async def test_two_people_pressing_play_now_at_once_in_two_processes_meet(database: str
                                                                          ) -> None:
    engines = [make_engine(database), make_engine(database)]
    lobbies = [Lobby(SqlOpenTableStore(e)) for e in engines]
    try:
        for round_ in range(5):
            options = [OnlineOptions(name=n, seconds_per_move=10 + round_)
                       for n in ("Ann", "Bob")]
            found = await asyncio.gather(*(lob.quick_seat(o, None, f"ip:{o.name}")
                                           for lob, o in zip(lobbies, options, strict=True)))
            assert found[0][0].id == found[1][0].id, found
            waiting = [t for t in await lobbies[0].waiting()
                       if t.options.seconds_per_move == 10 + round_]
            assert len(waiting) == 1 and waiting[0].seated() == 2
            assert sorted(p[0] for p in waiting[0].people if p) == ["Ann", "Bob"]
    finally:
        for engine in engines:
            await engine.dispose()
