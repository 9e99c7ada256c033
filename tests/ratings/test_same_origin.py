"""A rated table never seats two accounts from one network or one browser: the second seat
is refused (409 ``same_origin``, nothing changes), Play now never matches them, and a start
with two such seats is refused. Unrated tables seat them as ever."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rated_helpers import People, app_for
from starlette.testclient import TestClient

from addressed import at
from euchre.server.core.sources import BROWSER_COOKIE
from euchre.server.root import root_of
from euchre.table.kinds.online import OnlineOptions, OpenTable, SameSource


@pytest.fixture
def people(tmp_path: Any) -> Any:
    with TestClient(app_for(f"sqlite+aiosqlite:///{tmp_path}/origin.db")) as client:
        people = People(client)
        for name in ("Ann", "Bob", "Cyd", "Dee", "Eve"):
            people.sign_up(name)
        yield people


def _claim(people: People, name: str, table_id: str, seat: int, **headers: str) -> Any:
    client = people.as_(name)
    return client.post(f"/api/tables/{table_id}/seats", json={"seat": seat},
                       headers={"X-CSRF-Token": people.csrf[name], **at("10.20.0.1"),
                                **headers})


def _seats(people: People, table_id: str) -> list[bool]:
    return [s["taken"] for s in people.client.get(f"/api/online/{table_id}").json()["seats"]]


def test_a_second_account_from_the_same_address_is_refused_a_rated_seat(people: People) -> None:
    people.addresses["Bob"] = people.addresses["Ann"]  # Bob plays from Ann's home
    made = people.post("Ann", "/api/tables", {"kind": "online", "rated": True}).json()
    refused = people.post("Bob", f"/api/tables/{made['id']}/seats", {"seat": 1})
    assert refused.status_code == 409 and refused.json()["code"] == "same_origin"
    assert refused.json()["error"].startswith(
        "a rated game needs four people on four different connections: someone at this table "
        "plays from your address or from this browser")
    assert _seats(people, made["id"]) == [True, False, False, False]
    # From their own homes the others sit; the table starts with four.
    tokens = [made["token"]]
    for seat, name in ((1, "Cyd"), (2, "Dee"), (3, "Eve")):
        r = people.post(name, f"/api/tables/{made['id']}/seats", {"seat": seat})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    started = people.post("Ann", f"/api/tables/{made['id']}/start", {"token": tokens[0]})
    assert started.status_code == 200 and started.json()["status"] == "started"
    # An unrated table seats Ann and Bob together.
    free = people.post("Ann", "/api/tables", {"kind": "online"}).json()
    assert people.post("Bob", f"/api/tables/{free['id']}/seats", {"seat": 1}).status_code == 201


def test_one_browser_is_one_person_whatever_the_address(people: People) -> None:
    client = people.as_("Ann")
    client.cookies.set(BROWSER_COOKIE, "a1b2c3d4e5f6a7b8")  # a page load gave it
    made = client.post("/api/tables", json={"kind": "online", "rated": True},
                       headers={"X-CSRF-Token": people.csrf["Ann"],
                                **people.address("Ann")}).json()
    # Ann signs out, Bob signs in in the same browser, on another network.
    headers = {"X-CSRF-Token": people.csrf["Bob"], **people.address("Bob")}
    client = people.as_("Bob")
    client.cookies.set(BROWSER_COOKIE, "a1b2c3d4e5f6a7b8")
    r = client.post(f"/api/tables/{made['id']}/seats", json={"seat": 1}, headers=headers)
    assert r.status_code == 409 and r.json()["code"] == "same_origin"
    client = people.as_("Bob")  # another browser
    client.cookies.set(BROWSER_COOKIE, "ffffeeeeddddcccc")
    r = client.post(f"/api/tables/{made['id']}/seats", json={"seat": 1}, headers=headers)
    assert r.status_code == 201


def test_a_page_gives_the_browser_its_id_once(people: People) -> None:
    people.client.cookies.clear()
    first = people.client.get("/online")
    given = first.cookies.get(BROWSER_COOKIE)
    assert given and len(given) == 32 and "httponly" in first.headers["set-cookie"].lower()
    again = people.client.get("/online")
    assert BROWSER_COOKIE not in again.headers.get("set-cookie", "")


def test_one_households_ipv6_addresses_are_one_address(people: People) -> None:
    people.addresses["Ann"] = "2001:db8:5:6::1"
    people.addresses["Bob"] = "2001:db8:5:6:aaaa::2"  # the same /64
    made = people.post("Ann", "/api/tables", {"kind": "online", "rated": True}).json()
    r = people.post("Bob", f"/api/tables/{made['id']}/seats", {"seat": 1})
    assert r.status_code == 409 and r.json()["code"] == "same_origin"
    # A home given a /56 or a /48 picks any /64 in it: another /64, or another /56 of the
    # same /48, is the same address (issue 34 item 3); another /48 is someone else.
    for same_block in ("2001:db8:5:7::2", "2001:db8:5:ff00::2"):
        people.addresses["Bob"] = same_block
        r = people.post("Bob", f"/api/tables/{made['id']}/seats", {"seat": 1})
        assert r.status_code == 409 and r.json()["code"] == "same_origin", same_block
        assert r.json()["error"].endswith("(South sat down from your address)")
    people.addresses["Bob"] = "2001:db8:6:7::2"
    assert people.post("Bob", f"/api/tables/{made['id']}/seats", {"seat": 1}).status_code == 201


def test_play_now_never_matches_one_household_at_a_rated_table(people: People) -> None:
    people.addresses["Bob"] = people.addresses["Ann"]
    ann = people.post("Ann", "/api/online/quick", {"rated": True}).json()
    bob = people.post("Bob", "/api/online/quick", {"rated": True})
    assert bob.status_code == 409 and bob.json()["code"] == "same_origin"
    assert "wait until it starts, or choose another clock" in bob.json()["error"]
    table = people.client.get(f"/api/online/{ann['id']}").json()
    assert [s["taken"] for s in table["seats"]] == [True, False, False, False]
    cyd = people.post("Cyd", "/api/online/quick", {"rated": True}).json()
    assert cyd["id"] == ann["id"]  # someone from elsewhere sits with Ann
    # Another clock is another table: Bob opens it.
    own = people.post("Bob", "/api/online/quick", {"rated": True, "seconds_per_move": 60})
    assert own.status_code == 201 and own.json()["opened"]


def test_the_stored_table_keeps_no_address(people: People) -> None:
    made = people.post("Ann", "/api/tables", {"kind": "online", "rated": True}).json()
    row = people.client.portal.call(  # type: ignore[union-attr]
        root_of(people.client.app).online.lobby.store.get, made["id"])
    text = json.dumps(row.data)
    assert people.addresses["Ann"] not in text and "10.20" not in text
    assert len(row.data["sources"][0]) == 1 and len(row.data["sources"][0][0]) == 24


def test_a_start_with_two_seats_from_one_place_is_refused() -> None:
    table = OpenTable("t1", OnlineOptions(rated=True), 0.0,
                      [("Ann", "h0"), ("Bob", "h1"), ("Cyd", "h2"), ("Dee", "h3")],
                      accounts=[1, 2, 3, 4],
                      sources=[["home-a", "browser-a"], ["home-b"], ["home-c", "browser-a"],
                               ["home-d"]])
    with pytest.raises(SameSource) as refused:
        table.begin(5.0)
    assert "South and North play from the same address or browser" in str(refused.value)
    assert not table.started
    table.sources[2] = ["home-c", "browser-c"]
    table.begin(5.0)
    assert table.started
