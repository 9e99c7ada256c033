"""Tables cannot be flooded or hoarded: new tables per address and per account, open online
tables per creator, quick expiry of tables nobody joined, and a paged list."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.core.limit_settings import LimitSettings
from euchre.table.kinds.online import OnlineError, OnlineOptions
from limits_helpers import FakeClock
from online_registry import MemoryOnlineTables


def app_with(tmp_path: Path, **limits: Any) -> Any:
    settings = Settings(bot_delay=0.0, hand_pause=0.0, limits=LimitSettings(**limits),
                        database_url=f"sqlite+aiosqlite:///{tmp_path}/limits.db")
    app = create_app(settings, accounts=AccountsOptions(password_profile="cheapest"))
    return app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app_with(tmp_path, tables_per_address=6, tables_per_account=4)) as c:
        yield c


def _refused(r: Any, words: str) -> None:
    assert r.status_code == 429, r.text
    assert int(r.headers["retry-after"]) > 0
    body = r.json()
    assert body["code"] == "rate_limited" and body["error"].startswith(words)
    assert body["retry_after"] == int(r.headers["retry-after"])


def test_new_tables_per_address_then_429_and_nothing_opened(client: TestClient) -> None:
    kinds = [{"kind": "practice"}, {"kind": "online", "name": "Ann"}] * 3
    for body in kinds:
        assert client.post("/api/tables", json=body).status_code == 201
    tables = client.get("/api/health").json()["tables"]
    for body in ({"kind": "practice"}, {"kind": "online", "name": "Ann"}):
        _refused(client.post("/api/tables", json=body), "too many new tables from your address")
    assert client.get("/api/health").json()["tables"] == tables
    assert len(client.get("/api/online").json()["tables"]) == 3


def test_new_tables_per_account(client: TestClient) -> None:
    r = client.post("/api/accounts", json={"username": "ann", "password": "correct horse"})
    assert r.status_code == 201
    for _ in range(4):
        assert client.post("/api/tables", json={"kind": "practice"}).status_code == 201
    _refused(client.post("/api/tables", json={"kind": "practice"}),
             "too many new tables for your account")
    # The refusal gave back the address's count: a client without the account may go on.
    client.cookies.clear()
    for _ in range(2):
        assert client.post("/api/tables", json={"kind": "practice"}).status_code == 201
    _refused(client.post("/api/tables", json={"kind": "practice"}),
             "too many new tables from your address")


def test_open_online_tables_are_capped_per_creator(tmp_path: Path) -> None:
    with TestClient(app_with(tmp_path)) as client:
        made = [client.post("/api/tables", json={"kind": "online", "name": "Ann"}).json()
                for _ in range(3)]
        r = client.post("/api/tables", json={"kind": "online", "name": "Ann"})
        _refused(r, "you already have 3 online tables waiting to start")
        assert 590 <= int(r.headers["retry-after"]) <= 600  # the oldest expires alone
        assert len(client.get("/api/online").json()["tables"]) == 3
        r = client.post(f"/api/tables/{made[0]['id']}/start", json={"token": made[0]["token"]})
        assert r.status_code == 200
        assert client.post("/api/tables", json={"kind": "online", "name": "Ann"}
                           ).status_code == 201


def test_an_open_table_nobody_joins_expires_quickly() -> None:
    clock = FakeClock(0.0)
    reg = MemoryOnlineTables(now=clock, open_for=3600, alone_for=600)
    alone, _ = reg.create(OnlineOptions(name="Ann"), creator="ip:a")
    joined, _ = reg.create(OnlineOptions(name="Bo"), creator="ip:b")
    reg.claim(joined.id, 2, "Cy")
    assert reg.expires_at(alone) == 600 and reg.expires_at(joined) == 3600
    assert [t.id for t in reg.open_by("ip:a")] == [alone.id]
    clock.advance(601)
    assert [t.id for t in reg.open_tables()] == [joined.id] and reg.open_by("ip:a") == []
    clock.advance(3000)
    assert reg.open_tables() == []


def test_the_list_is_paged_with_a_cursor(tmp_path: Path) -> None:
    with TestClient(app_with(tmp_path, open_online_per_creator=100)) as client:
        ids = [client.post("/api/tables", json={"kind": "online", "name": f"P{i}"}).json()["id"]
               for i in range(7)]
        first = client.get("/api/online?limit=3").json()
        seen = [t["id"] for t in first["tables"]]
        assert len(seen) == 3 and first["next"]
        # A table opened between pages does not shift the next page.
        client.post("/api/tables", json={"kind": "online", "name": "Late"})
        cursor = first["next"]
        while cursor:
            page = client.get("/api/online", params={"limit": 3, "cursor": cursor}).json()
            seen += [t["id"] for t in page["tables"]]
            cursor = page["next"]
        assert seen == ids[::-1]
        default = client.get("/api/online").json()
        assert len(default["tables"]) == 8 and default["next"] is None
        for query in ("limit=0", "limit=51", "limit=x", "cursor=nonsense", "cursor=nan~x"):
            r = client.get(f"/api/online?{query}")
            assert r.status_code == 400 and r.json()["error"], query


def test_a_page_is_bounded() -> None:
    reg = MemoryOnlineTables(now=FakeClock(0.0))
    for i in range(60):
        reg.create(OnlineOptions(name=f"P{i}"))
    page, cursor = reg.page(50)
    assert len(page) == 50 and cursor is not None
    rest, end = reg.page(50, cursor)
    assert len(rest) == 10 and end is None
    with pytest.raises(OnlineError):
        reg.page(10, "x" * 100)
