"""Private means private (issue 36): a private online table is in no list — not
``GET /api/online``, not the lobby socket's first state nor its changes (opening, seats,
the start, its game, its end) — and is reached only by its link, where it works as any
table: its page, its socket, its seats, its start, its game to watch. Whether people may
watch (``spectators``) is a choice of its own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lobby_helpers import at, client_for, lobby_app
from starlette.testclient import TestClient


@pytest.fixture
def client() -> Iterator[TestClient]:
    with client_for(lobby_app()) as c:
        yield c


def _open(client: TestClient, name: str, address: str, **body: object) -> dict[str, str]:
    made = client.post("/api/tables", json={"kind": "online", "name": name, **body},
                       headers=at(address))
    assert made.status_code == 201, made.text
    return dict(made.json())


def test_a_private_table_is_listed_nowhere_and_works_by_its_link(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as lobby:
        assert lobby.receive_json() == {"type": "lobby", "tables": [], "games": []}
        secret = _open(client, "Ann", "10.6.0.1", private=True)
        # Its link works: the table, its page's socket, a seat.
        table = client.get(f"/api/online/{secret['id']}").json()
        assert table["private"] is True and table["spectators"] is True
        with client.websocket_connect(f"/ws/online/{secret['id']}") as page:
            assert page.receive_json()["table"]["private"] is True
            for seat, (name, address) in enumerate((("Bob", "10.6.0.2"), ("Cy", "10.6.0.3")),
                                                   start=1):
                sat = client.post(f"/api/tables/{secret['id']}/seats",
                                  json={"seat": seat, "name": name}, headers=at(address))
                assert sat.status_code == 201, sat.text
                assert page.receive_json()["table"]["seats"][seat]["name"] == name
            started = client.post(f"/api/tables/{secret['id']}/start",
                                  json={"token": secret["token"]}, headers=at("10.6.0.1"))
            assert started.status_code == 200, started.text
            assert page.receive_json()["table"]["status"] == "started"
        # A listed table opened after all that is the lobby's next message: nothing of the
        # private one came before it (one channel, in order).
        listed = _open(client, "Dee", "10.6.0.4")
        told = lobby.receive_json()
        assert told["type"] == "table" and told["table"]["id"] == listed["id"]
        assert told["table"]["private"] is False
    assert [t["id"] for t in client.get("/api/online").json()["tables"]] == [listed["id"]]
    with client.websocket_connect("/ws/lobby") as lobby:
        state = lobby.receive_json()
        assert [t["id"] for t in state["tables"]] == [listed["id"]]
        assert state["games"] == []  # its game may be watched by its link, never listed
    watch = client.get(f"/api/online/{secret['id']}").json()
    assert watch["status"] == "started" and watch["watch"] == f"/watch/{secret['id']}"


def test_a_private_tables_going_is_not_told_to_the_lobby(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as lobby:
        lobby.receive_json()
        secret = _open(client, "Ann", "10.7.0.1", private=True)
        cancelled = client.post(f"/api/online/{secret['id']}/cancel",
                                json={"token": secret["token"]}, headers=at("10.7.0.1"))
        assert cancelled.status_code == 200, cancelled.text
        listed = _open(client, "Bob", "10.7.0.2")
        assert lobby.receive_json()["table"]["id"] == listed["id"]
        client.post(f"/api/online/{listed['id']}/cancel", json={"token": listed["token"]},
                    headers=at("10.7.0.2"))
        assert lobby.receive_json()["table"]["status"] == "cancelled"


def test_private_and_spectators_are_two_choices(client: TestClient) -> None:
    both = _open(client, "Ann", "10.8.0.1", private=True, spectators=False)
    shown = client.get(f"/api/online/{both['id']}").json()
    assert (shown["private"], shown["spectators"]) == (True, False)
    listed_unwatched = _open(client, "Bob", "10.8.0.2", spectators=False)
    shown = client.get(f"/api/online/{listed_unwatched['id']}").json()
    assert (shown["private"], shown["spectators"]) == (False, False)
    assert [t["id"] for t in client.get("/api/online").json()["tables"]] == [
        listed_unwatched["id"]]
    bad = client.post("/api/tables", json={"kind": "online", "name": "Cy", "private": "yes"},
                      headers=at("10.8.0.3"))
    assert bad.status_code == 400 and bad.json()["error"] == "private must be true or false"
    assert [t["id"] for t in client.get("/api/online").json()["tables"]] == [
        listed_unwatched["id"]]
