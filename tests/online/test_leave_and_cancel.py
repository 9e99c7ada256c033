"""Leaving a seat and cancelling an online table before the start, over the API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from euchre.server import Settings, create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    """The app with computer players at once and games in memory."""
    settings = Settings(bot_delay=0.0, hand_pause=0.0, database_url="memory:")
    with TestClient(create_app(settings)) as c:
        yield c


def _table(client: TestClient) -> tuple[str, str, str]:
    """A table Ann opened and Bob sits at West: its id, Ann's token, Bob's token."""
    made = client.post("/api/tables", json={"kind": "online", "name": "Ann"}).json()
    bob = client.post(f"/api/tables/{made['id']}/seats", json={"seat": 1, "name": "Bob"})
    assert bob.status_code == 201, bob.text
    return made["id"], made["token"], bob.json()["token"]


def _seen(client: TestClient, table_id: str) -> Any:
    return client.get(f"/api/online/{table_id}").json()


def test_a_person_leaves_their_seat_and_it_is_free_again(client: TestClient) -> None:
    table_id, _, bob = _table(client)
    left = client.post(f"/api/online/{table_id}/leave", json={"token": bob})
    assert left.status_code == 200
    assert left.json() == {"id": table_id, "seat": 1, "gone": False}
    seats = _seen(client, table_id)["seats"]
    assert seats[1] == {"seat": 1, "position": "West", "name": None, "taken": False,
                        "signed_in": False, "fill": False, "rating": None}
    assert _seen(client, table_id)["free"] == 3
    again = client.post(f"/api/online/{table_id}/leave", json={"token": bob})
    assert again.status_code == 403 and "no seat" in again.json()["error"]
    cy = client.post(f"/api/tables/{table_id}/seats", json={"seat": 1, "name": "Cy"})
    assert cy.status_code == 201 and _seen(client, table_id)["seats"][1]["name"] == "Cy"


def test_bad_leaves_are_refused_and_change_nothing(client: TestClient) -> None:
    table_id, ann, bob = _table(client)
    before = _seen(client, table_id)
    for body, code, words in (({"token": "wrong"}, 403, "that token holds no seat"),
                              ({}, 403, "that token holds no seat"),
                              ({"token": ann}, 409, "cancel it instead")):
        r = client.post(f"/api/online/{table_id}/leave", json=body)
        assert r.status_code == code and words in r.json()["error"], r.text
    assert client.post("/api/online/nope/leave", json={"token": bob}).status_code == 404
    assert client.post(f"/api/online/{table_id}/leave", json=[1]).status_code == 400
    assert _seen(client, table_id) == before
    assert client.post(f"/api/tables/{table_id}/start", json={"token": ann}).status_code == 200
    late = client.post(f"/api/online/{table_id}/leave", json={"token": bob})
    assert late.status_code == 409 and "has started" in late.json()["error"]
    assert _seen(client, table_id)["seats"][1]["name"] == "Bob"


def test_the_creator_cancels_and_the_seated_are_told(client: TestClient) -> None:
    table_id, ann, bob = _table(client)
    for token in (bob, "wrong", None):
        r = client.post(f"/api/online/{table_id}/cancel", json={"token": token})
        assert r.status_code == 403 and "only the table's creator" in r.json()["error"]
    assert _seen(client, table_id)["status"] == "open"
    assert [t["id"] for t in client.get("/api/online").json()["tables"]] == [table_id]

    done = client.post(f"/api/online/{table_id}/cancel", json={"token": ann})
    assert done.status_code == 200 and done.json()["status"] == "cancelled"
    assert client.get("/api/online").json()["tables"] == []
    assert _seen(client, table_id)["status"] == "cancelled"  # what Bob's page polls
    for path, body in (("online/{}/cancel", {"token": ann}), ("tables/{}/start", {"token": ann}),
                       ("online/{}/leave", {"token": bob}),
                       ("tables/{}/seats", {"seat": 2, "name": "Cy"})):
        r = client.post("/api/" + path.format(table_id), json=body)
        assert r.status_code == 409 and "cancelled" in r.json()["error"], (path, r.text)
    assert _seen(client, table_id)["seats"][1]["name"] == "Bob"


def test_a_started_table_cannot_be_cancelled(client: TestClient) -> None:
    table_id, ann, _ = _table(client)
    assert client.post(f"/api/tables/{table_id}/start", json={"token": ann}).status_code == 200
    r = client.post(f"/api/online/{table_id}/cancel", json={"token": ann})
    assert r.status_code == 409 and "has started" in r.json()["error"]
    assert _seen(client, table_id)["status"] == "started"


def test_openapi_describes_leave_and_cancel(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/online/{table_id}/leave", "/api/online/{table_id}/cancel"):
        post = paths[path]["post"]
        assert post["requestBody"]["content"]["application/json"]["schema"]["$ref"] \
            == "#/components/schemas/TokenRequest"
        assert {"200", "403", "404", "409"} <= set(post["responses"])
