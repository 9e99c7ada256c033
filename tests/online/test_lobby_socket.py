"""The lobby is pushed live: a lobby socket gets the open tables, then every change made by
other requests (in this process, or in another one on the same Redis and database); one
table's waiting page gets its changes, the start included; the sockets are capped per
address; the AsyncAPI document describes their messages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lobby_helpers import Addressed, at, client_for, lobby_app, quick
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from euchre.bots import make
from euchre.server import Given, Settings, build_app
from euchre.server.accounts.accounts_api import AccountsOptions, accounts_extension
from euchre.server.online.online_api import online_extension
from euchre.server.tables.practice_api import practice_extension
from euchre.server.tables.socket_guard import SocketLimits
from euchre.server.tables.socket_rate import MessageRate
from redis_fixtures import REDIS_URL, fresh_prefix, needs_redis


@pytest.fixture
def client() -> Iterator[TestClient]:
    with client_for(lobby_app()) as c:
        yield c


def test_the_lobby_socket_gets_the_list_then_each_change(client: TestClient) -> None:
    first = quick(client, "Ann", seconds_per_move=15).json()
    with client.websocket_connect("/ws/lobby") as ws:
        state = ws.receive_json()
        assert state["type"] == "lobby" and [t["id"] for t in state["tables"]] == [first["id"]]
        assert state["games"] == []
        # Another request opens a table: it comes without asking.
        made = client.post("/api/tables", json={"kind": "online", "name": "Bob"},
                           headers=at("10.4.0.2")).json()
        opened = ws.receive_json()
        assert opened["type"] == "table" and opened["table"]["id"] == made["id"]
        assert opened["table"]["status"] == "open" and opened["table"]["seats"][0]["name"] == "Bob"
        # A seat taken, then freed.
        cy = quick(client, "Cy", seconds_per_move=15).json()
        taken = ws.receive_json()["table"]
        assert taken["id"] == first["id"] and taken["seats"][1]["name"] == "Cy"
        client.post(f"/api/online/{first['id']}/leave", json={"token": cy["token"]})
        assert ws.receive_json()["table"]["seats"][1]["name"] is None
        # Cancelled.
        client.post(f"/api/online/{made['id']}/cancel", json={"token": made["token"]})
        assert ws.receive_json()["table"]["status"] == "cancelled"
        # Started: a game anyone may watch, with its link.
        client.post(f"/api/online/{first['id']}/fill", json={"token": first["token"]})
        agreed = ws.receive_json()["table"]
        assert agreed["seats"][0]["fill"] and agreed["status"] == "open"
        started = ws.receive_json()["table"]
        assert started["status"] == "started" and started["watch"] == f"/watch/{first['id']}"
        # The last one leaving a quick table: gone.
        dee = quick(client, "Dee", seconds_per_move=15).json()
        assert ws.receive_json()["table"]["id"] == dee["id"]
        client.post(f"/api/online/{dee['id']}/leave", json={"token": dee["token"]})
        assert ws.receive_json() == {"type": "gone", "id": dee["id"], "reason": "empty"}
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    with client.websocket_connect("/ws/lobby") as ws:
        state = ws.receive_json()
        assert state["tables"] == [] and [g["id"] for g in state["games"]] == [first["id"]]


def test_a_waiting_page_gets_its_table_and_the_start(client: TestClient) -> None:
    ann = quick(client, "Ann").json()
    other = quick(client, "Zed", seconds_per_move=99).json()
    with client.websocket_connect(f"/ws/online/{ann['id']}") as ws:
        first = ws.receive_json()
        assert first["type"] == "table" and first["table"]["id"] == ann["id"]
        client.post(f"/api/online/{other['id']}/fill", json={"token": other["token"]})
        for name in ("Bob", "Cy", "Dee"):
            quick(client, name)
        seen = [ws.receive_json()["table"] for _ in range(4)]
        assert {t["id"] for t in seen} == {ann["id"]}  # nothing of the other table
        assert [t["free"] for t in seen] == [2, 1, 0, 0]
        assert seen[-1]["status"] == "started" and seen[-1]["table_url"] == f"/table/{ann['id']}"
    with client.websocket_connect("/ws/online/nope") as ws:
        assert ws.receive_json() == {"type": "gone", "id": "nope", "reason": "expired"}


def test_lobby_sockets_are_capped_per_address_and_take_only_pings() -> None:
    # No token comes back with time here, so the burst is exactly what may be sent.
    app = lobby_app(socket_limits=SocketLimits(
        per_address=2, lobby_rate=MessageRate(burst=10, per_second=0.0)))
    with client_for(app) as client:
        with client.websocket_connect("/ws/lobby") as a, \
                client.websocket_connect("/ws/lobby") as b:
            a.receive_json(), b.receive_json()
            with pytest.raises(WebSocketDisconnect) as refused, \
                    client.websocket_connect("/ws/lobby") as c:
                c.receive_json()
            assert refused.value.code == 4429
        with client.websocket_connect("/ws/lobby") as ws:
            ws.receive_json()
            ws.send_text('{"type": "join", "protocol": 2}')
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
        with client.websocket_connect("/ws/lobby") as ws:  # a flood of pings
            ws.receive_json()
            for _ in range(10):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
            ws.send_json({"type": "ping"})
            told = ws.receive_json()  # once, why; then closed
            assert told["type"] == "error" and told["code"] == "rate_limited"
            assert "too many messages" in told["message"]
            with pytest.raises(WebSocketDisconnect) as flooded:
                ws.receive_json()
            assert flooded.value.code == 4429


def test_the_asyncapi_document_describes_the_lobby(client: TestClient) -> None:
    doc = client.get("/asyncapi.json").json()
    assert doc["channels"]["lobby"]["address"] == "/ws/lobby"
    assert doc["channels"]["onlineTable"]["address"] == "/ws/online/{table_id}"
    for name in ("LobbyState", "TableChanged", "TableGone", "LobbyPing", "LobbyPong"):
        assert name in doc["components"]["messages"] and name in doc["components"]["schemas"]
    assert doc["operations"]["lobbyToClient"]["action"] == "send"
    openapi = client.get("/openapi.json").json()
    assert "/api/online/quick" in openapi["paths"] and "/api/online/{table_id}/fill" in \
        openapi["paths"]


def _redis_app(database_url: str, prefix: str) -> Starlette:
    """The site's tables on a shared database, with the broker in Redis (no site lease:
    two of them serve together)."""
    from euchre.broker.redis import RedisBroker

    assert REDIS_URL
    settings = Settings(database_url=database_url, bot_delay=0.0, hand_pause=0.0,
                        bot_factory=lambda level, seed: make("easy", 7))
    cheapest = AccountsOptions(password_profile="cheapest")
    app = build_app(settings, [practice_extension(), accounts_extension(cheapest),
                               online_extension()],
                    Given(broker=RedisBroker(REDIS_URL, prefix=prefix)))
    return app


@needs_redis
def test_a_change_in_one_process_reaches_a_lobby_in_another(tmp_path: Path) -> None:
    url, prefix = f"sqlite+aiosqlite:///{tmp_path}/two.db", fresh_prefix()
    with TestClient(Addressed(_redis_app(url, prefix))) as one, \
            TestClient(Addressed(_redis_app(url, prefix))) as two:
        ann = quick(one, "Ann").json()
        with two.websocket_connect("/ws/lobby") as ws:
            state: Any = ws.receive_json()
            assert [t["id"] for t in state["tables"]] == [ann["id"]]  # one database
            bob = quick(one, "Bob").json()  # served by the first process
            assert bob["id"] == ann["id"]
            change = ws.receive_json()
            assert change["type"] == "table" and change["table"]["seats"][1]["name"] == "Bob"
            cy = quick(two, "Cy").json()  # the second process seats at the same table
            assert cy["id"] == ann["id"] and cy["seat"] == 2
            assert ws.receive_json()["table"]["seats"][2]["name"] == "Cy"


def test_junk_sent_again_and_again_is_refused_as_a_flood_is() -> None:
    # Each junk message closes its socket (1008) and counts as a flood close, so a client
    # that reconnects to send junk is refused for a while, as a flooder of pings is.
    app = lobby_app(socket_limits=SocketLimits(per_address=5))
    with client_for(app) as client:
        codes = []
        for _ in range(6):
            with pytest.raises(WebSocketDisconnect) as closed, \
                    client.websocket_connect("/ws/lobby") as ws:
                ws.receive_json()
                ws.send_text("junk")
                ws.receive_json()
            codes.append(closed.value.code)
        assert codes[0] == 1008 and codes[-1] == 4429, codes
