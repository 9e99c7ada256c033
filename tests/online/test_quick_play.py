"""Play now: matching by preset, clock, stake and rated flag; the start when four sit or all
agree to fill; leaving a quick table; the caps on seats; refusals that change nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from lobby_helpers import at, client_for, lobby_app, quick
from starlette.testclient import TestClient

from euchre.accounts import COOKIE_NAME
from euchre.server.online import online_api


@pytest.fixture
def client() -> Iterator[TestClient]:
    with client_for(lobby_app()) as c:
        yield c


def _table(client: TestClient, table_id: str) -> Any:
    r = client.get(f"/api/online/{table_id}")
    assert r.status_code == 200, r.text
    return r.json()


def _names(table: Any) -> list[str | None]:
    return [s["name"] for s in table["seats"]]


def test_play_now_seats_people_at_the_oldest_matching_table(client: TestClient) -> None:
    ann = quick(client, "Ann", seconds_per_move=20)
    assert ann.status_code == 201 and ann.json()["opened"] and ann.json()["seat"] == 0
    bob = quick(client, "Bob", seconds_per_move=20)
    assert bob.status_code == 200 and not bob.json()["opened"]
    assert bob.json()["id"] == ann.json()["id"] and bob.json()["seat"] == 1
    # Another clock, preset or rated flag is another table.
    other = [quick(client, "Cy", seconds_per_move=30).json(),
             quick(client, "Dee", seconds_per_move=20, preset="canadian").json()]
    assert all(o["opened"] and o["id"] != ann.json()["id"] for o in other)
    # A second table of the same kind fills after the first: Eve joins the oldest.
    eve = quick(client, "Eve", seconds_per_move=20).json()
    assert eve["id"] == ann.json()["id"] and eve["seat"] == 2
    table = _table(client, ann.json()["id"])
    assert table["quick"] and table["status"] == "open" and table["free"] == 1
    assert _names(table) == ["Ann", "Bob", "Eve", None] and table["seconds_per_move"] == 20
    # The list shows it among the open tables, invite tables too.
    listed = {t["id"]: t for t in client.get("/api/online").json()["tables"]}
    assert listed[ann.json()["id"]]["quick"] and len(listed) == 3


def test_the_fourth_person_starts_the_game(client: TestClient) -> None:
    seats = [quick(client, n).json() for n in ("Ann", "Bob", "Cy", "Dee")]
    assert {s["id"] for s in seats} == {seats[0]["id"]}
    assert [s["status"] for s in seats] == ["open", "open", "open", "started"]
    table = _table(client, seats[0]["id"])
    assert table["status"] == "started" and table["watch"] == f"/watch/{seats[0]['id']}"
    snapshot = client.get(f"/api/tables/{seats[0]['id']}",
                          params={"token": seats[3]["token"]}).json()
    assert [s["name"] for s in snapshot["seats"]] == ["Ann", "Bob", "Cy", "Dee"]
    # The next person starts a new table; the started one is not offered again.
    assert quick(client, "Eve").json()["id"] != seats[0]["id"]


def test_everyone_seated_agreeing_to_fill_starts_with_computers(client: TestClient) -> None:
    ann, bob = quick(client, "Ann").json(), quick(client, "Bob").json()
    table_id = ann["id"]
    agreed = client.post(f"/api/online/{table_id}/fill", json={"token": ann["token"]})
    assert agreed.status_code == 200 and agreed.json()["table"]["status"] == "open"
    assert [s["fill"] for s in agreed.json()["table"]["seats"]] == [True, False, False, False]
    # A newcomer has not agreed: the table waits for them too.
    cy = quick(client, "Cy").json()
    client.post(f"/api/online/{table_id}/fill", json={"token": bob["token"]})
    assert _table(client, table_id)["status"] == "open"
    done = client.post(f"/api/online/{table_id}/fill", json={"token": cy["token"]})
    assert done.status_code == 200 and done.json()["table"]["status"] == "started"
    snapshot = client.get(f"/api/tables/{table_id}", params={"token": cy["token"]}).json()
    assert [s["name"] for s in snapshot["seats"]][:3] == ["Ann", "Bob", "Cy"]
    assert snapshot["seats"][3]["kind"] == "bot"
    late = client.post(f"/api/online/{table_id}/fill", json={"token": ann["token"]})
    assert late.status_code == 409


def test_every_start_goes_through_the_one_start_function(client: TestClient,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    calls: list[str] = []
    real = online_api.start_game

    async def counted(app: Any, table_id: str, check: Any) -> Any:
        calls.append(table_id)
        return await real(app, table_id, check)

    monkeypatch.setattr(online_api, "start_game", counted)
    four = [quick(client, n).json() for n in ("Ann", "Bob", "Cy", "Dee")]  # four people
    two = [quick(client, n, seconds_per_move=40).json() for n in ("Eve", "Fay")]
    for person in two:  # everyone agrees to fill
        client.post(f"/api/online/{person['id']}/fill", json={"token": person["token"]})
    made = client.post("/api/tables", json={"kind": "online", "name": "Gus"}).json()
    client.post(f"/api/tables/{made['id']}/start", json={"token": made["token"]})  # creator
    assert calls == [four[0]["id"], two[0]["id"], made["id"]]
    assert all(_table(client, i)["status"] == "started" for i in calls)


def test_leaving_a_quick_table(client: TestClient) -> None:
    ann, bob = quick(client, "Ann").json(), quick(client, "Bob").json()
    table_id = ann["id"]
    # Ann opened it, but a quick table has no creator: she may leave, it stays for Bob.
    left = client.post(f"/api/online/{table_id}/leave", json={"token": ann["token"]})
    assert left.status_code == 200 and left.json() == {"id": table_id, "seat": 0,
                                                        "gone": False}
    assert _names(_table(client, table_id)) == [None, "Bob", None, None]
    cancel = client.post(f"/api/online/{table_id}/cancel", json={"token": bob["token"]})
    start = client.post(f"/api/tables/{table_id}/start", json={"token": bob["token"]})
    assert cancel.status_code == 403 and start.status_code == 403
    assert "quick-play" in start.json()["error"]
    # The next person takes the first free seat (South again).
    cy = quick(client, "Cy").json()
    assert cy["id"] == table_id and cy["seat"] == 0
    # Bob agreed; when Cy (who had not) leaves, everyone left agreed: it starts.
    client.post(f"/api/online/{table_id}/fill", json={"token": bob["token"]})
    client.post(f"/api/online/{table_id}/leave", json={"token": cy["token"]})
    assert _table(client, table_id)["status"] == "started"
    # The last person leaving a table takes it away.
    dee = quick(client, "Dee").json()
    gone = client.post(f"/api/online/{dee['id']}/leave", json={"token": dee["token"]})
    assert gone.json()["gone"] and client.get(f"/api/online/{dee['id']}").status_code == 404


def test_refusals_change_nothing(client: TestClient) -> None:
    ann = quick(client, "Ann").json()
    table_id = ann["id"]
    before = _table(client, table_id)
    bad: list[tuple[Any, int, str]] = [
        ({"name": "Bo", "preset": "nope"}, 400, "unknown preset"),
        ({"name": "Bo", "seconds_per_move": 1}, 400, "seconds_per_move"),
        ({"name": "Bo", "stake": 7}, 400, "stake must be"),
        ({"name": "North"}, 400, "name"),
        ({"name": "Bo", "level": "hard"}, 400, "unknown field 'level'"),
        ({}, 400, "give your name"),
        ({"name": "Bo", "rated": True}, 403, "signed-in"),
        ({"name": "Bo", "stake": 10}, 403, "signed-in"),
    ]
    for body, status, words in bad:
        r = client.post("/api/online/quick", json=body, headers=at("10.9.9.9"))
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
        assert r.json()["code"]
    for raw in (b"{", b"[]", b'{"name": "Bo"' + b"[" * 40):
        r = client.post("/api/online/quick", content=raw,
                        headers={**at("10.9.9.9"), "content-type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "bad_message", raw
    # A taken seat; a full table; a token that holds no seat.
    bob = client.post(f"/api/tables/{table_id}/seats", json={"seat": 0, "name": "Bob"},
                      headers=at("10.9.9.8"))
    assert bob.status_code == 409 and "South is taken" in bob.json()["error"]
    nobody = client.post(f"/api/online/{table_id}/fill", json={"token": "forged"})
    assert nobody.status_code == 403
    assert _table(client, table_id) == before
    for seat, name in ((1, "Bob"), (2, "Cy"), (3, "Dee")):
        r = client.post(f"/api/tables/{table_id}/seats", json={"seat": seat, "name": name},
                        headers=at(f"10.9.8.{seat}"))
        assert r.status_code == 201
    full = client.post(f"/api/tables/{table_id}/seats", json={"seat": 1, "name": "Eve"},
                       headers=at("10.9.8.9"))
    assert full.status_code == 409 and "started" in full.json()["error"]


def test_rated_quick_play_needs_four_signed_in_people(client: TestClient) -> None:
    sessions: dict[str, tuple[str, str]] = {}
    for name in ("Ann", "Bob"):
        client.cookies.clear()
        r = client.post("/api/accounts", json={"username": name, "password": "correct horse"})
        assert r.status_code == 201, r.text
        sessions[name] = (str(client.cookies.get(COOKIE_NAME)), r.json()["csrf"])

    def as_(name: str, csrf: bool = True) -> Any:
        client.cookies.clear()
        client.cookies.set(COOKIE_NAME, sessions[name][0])
        headers = {**at(f"10.7.7.{len(name)}{name[0] == 'A'}"),
                   **({"X-CSRF-Token": sessions[name][1]} if csrf else {})}
        return client.post("/api/online/quick", json={"rated": True}, headers=headers)

    ann = as_("Ann").json()
    assert ann["opened"]
    no_csrf = as_("Bob", csrf=False)
    assert no_csrf.status_code == 403
    bob = as_("Bob").json()
    assert bob["id"] == ann["id"]
    fill = client.post(f"/api/online/{ann['id']}/fill", json={"token": ann["token"]})
    assert fill.status_code == 409 and "rated table cannot be filled" in fill.json()["error"]
    table = _table(client, ann["id"])
    assert table["rated"] and table["status"] == "open" and not any(
        s["fill"] for s in table["seats"])
    guest = client.post(f"/api/tables/{ann['id']}/seats", json={"seat": 2, "name": "Gus"})
    assert guest.status_code == 403
    # An unrated quick table never takes a rated seeker and the other way round.
    client.cookies.clear()
    assert quick(client, "Cy").json()["id"] != ann["id"]


def test_a_person_holds_at_most_two_seats(client: TestClient) -> None:
    first = quick(client, "Ann", "10.1.1.1", seconds_per_move=10).json()
    second = quick(client, "Ann", "10.1.1.1", seconds_per_move=11).json()
    third = quick(client, "Ann", "10.1.1.1", seconds_per_move=12)
    assert third.status_code == 409 and third.json()["code"] == "too_many_seats"
    assert "leave one first" in third.json()["error"]
    other = client.post("/api/tables", json={"kind": "online", "name": "Bob"},
                        headers=at("10.1.1.2")).json()
    claim = client.post(f"/api/tables/{other['id']}/seats", json={"seat": 1, "name": "Ann"},
                        headers=at("10.1.1.1"))
    assert claim.status_code == 409 and claim.json()["code"] == "too_many_seats"
    assert _names(_table(client, other["id"]))[1] is None
    assert len(client.get("/api/online").json()["tables"]) == 3
    # Leaving one gives the place back.
    client.post(f"/api/online/{first['id']}/leave", json={"token": first["token"]})
    assert claim.status_code == 409
    again = client.post(f"/api/tables/{other['id']}/seats", json={"seat": 1, "name": "Ann"},
                        headers=at("10.1.1.1"))
    assert again.status_code == 201, again.text
    assert second["id"] != first["id"]


def test_play_now_and_claims_are_rate_limited() -> None:
    with client_for(lobby_app(seats_per_address=3, seats_held_per_person=10)) as client:
        for i in range(3):
            assert quick(client, "Ann", "10.2.2.2", seconds_per_move=10 + i).status_code == 201
        r = quick(client, "Ann", "10.2.2.2", seconds_per_move=20)
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert "too many seat claims from your address" in r.json()["error"]
        assert int(r.headers["retry-after"]) > 0
        assert len(client.get("/api/online").json()["tables"]) == 3
        # Opening a quick table counts against the creator's waiting tables too (3).
    with client_for(lobby_app(seats_held_per_person=10)) as client:
        for i in range(3):
            assert quick(client, "Ann", "10.2.2.3", seconds_per_move=10 + i).status_code == 201
        r = quick(client, "Ann", "10.2.2.3", seconds_per_move=20)
        assert r.status_code == 429 and "online tables waiting to start" in r.json()["error"]
        # Joining an existing table is still fine.
        quick(client, "Bob", "10.2.2.4", seconds_per_move=30)
        assert quick(client, "Ann", "10.2.2.3", seconds_per_move=30).json()["seat"] == 1


async def test_a_burst_of_play_now_from_one_person_gets_two_seats() -> None:
    import asyncio

    import httpx
    from lobby_helpers import Addressed

    app = lobby_app()
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=Addressed(app))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            answers = await asyncio.gather(*(
                client.post("/api/online/quick", json={"name": "Ann",
                                                       "seconds_per_move": 10 + i},
                            headers=at("10.5.5.5")) for i in range(12)))
            codes = sorted(r.status_code for r in answers)
            assert codes == [201, 201] + [409] * 10, codes
            assert all(r.json()["code"] == "too_many_seats" for r in answers
                       if r.status_code == 409)
            assert len((await client.get("/api/online")).json()["tables"]) == 2


def test_a_signed_in_person_is_not_matched_with_themselves(client: TestClient) -> None:
    r = client.post("/api/accounts", json={"username": "Ann", "password": "correct horse"})
    csrf = {"X-CSRF-Token": r.json()["csrf"], **at("10.6.6.6")}
    first = client.post("/api/online/quick", json={}, headers=csrf)
    assert first.status_code == 201
    # Play now again (another browser, say) leads to the table already waited at
    # (issue 21 item 2): never a second seat at it, nor a table of one's own.
    again = client.post("/api/online/quick", json={}, headers=csrf)
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert again.json()["seat"] == 0 and again.json()["token"] is None
    assert len(client.get("/api/online").json()["tables"]) == 1
    assert client.get(f"/api/online/{first.json()['id']}").json()["free"] == 3
