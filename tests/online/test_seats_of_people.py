"""A signed-in person's seats are theirs from any browser: the table socket's join without a
token takes the seat of the session's account (practice, coin, online), the other windows
are told; waiting tables are left and Play now leads back by the account; guests and other
accounts get nothing (no seat, no cards)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lobby_helpers import at, client_for, lobby_app, quick
from starlette.testclient import TestClient

from euchre.accounts import COOKIE_NAME
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.root import root_of
from redis_fixtures import needs_redis, private_redis

SITE = Settings.public_url
"""The test apps' own origin: a browser's socket says it (``Origin``), and only then is its
session cookie believed (``core.web_origin``)."""


@pytest.fixture
def own_redis() -> Iterator[str]:
    """A Redis of the test's own: the site's rate limits count from nothing, whatever
    other tests (other pytest-xdist workers, other people's runs) did on the shared one."""
    with private_redis() as (url, _):
        yield url

@pytest.fixture
def client() -> Iterator[TestClient]:
    with client_for(lobby_app()) as c:
        c.headers["Origin"] = SITE
        yield c


class Browsers:
    """Several browsers on one test client: each its own session cookie."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.sessions: dict[str, tuple[str, str]] = {}

    def sign_up(self, browser: str, username: str) -> None:
        self.client.cookies.clear()
        r = self.client.post("/api/accounts",
                             json={"username": username, "password": "correct horse"})
        assert r.status_code == 201, r.text
        self.sessions[browser] = (str(self.client.cookies.get(COOKIE_NAME)), r.json()["csrf"])

    def sign_in(self, browser: str, username: str) -> None:
        self.client.cookies.clear()
        r = self.client.post("/api/session",
                             json={"username": username, "password": "correct horse"})
        assert r.status_code == 200, r.text
        self.sessions[browser] = (str(self.client.cookies.get(COOKIE_NAME)), r.json()["csrf"])

    def use(self, browser: str | None) -> dict[str, str]:
        """Make ``browser`` the one sending (None: a guest); its CSRF header."""
        self.client.cookies.clear()
        if browser is None:
            return {}
        self.client.cookies.set(COOKIE_NAME, self.sessions[browser][0])
        return {"X-CSRF-Token": self.sessions[browser][1]}


def _join(ws: Any, token: str | None = None) -> dict[str, Any]:
    """Join (no token: as the signed-in person); the first answer."""
    ws.send_json({"type": "join", "protocol": 2, **({"token": token} if token else {})})
    answer: dict[str, Any] = ws.receive_json()
    return answer


def _until(ws: Any, wanted: Any, limit: int = 200) -> dict[str, Any]:
    """The first message ``wanted`` accepts (events and presence may come first)."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        assert message["type"] != "error", message
        if wanted(message):
            return message
    raise AssertionError("the message never came")


def test_a_practice_seat_opens_from_a_second_browser_and_both_are_live(
        client: TestClient) -> None:
    b = Browsers(client)
    b.sign_up("laptop", "ann_p")
    b.sign_in("phone", "ann_p")
    b.sign_up("other", "bob_p")
    csrf = b.use("laptop")
    made = client.post("/api/tables", json={"kind": "practice"}, headers=csrf).json()
    url = f"/ws/tables/{made['id']}"
    with client.websocket_connect(url) as laptop:
        assert _join(laptop, made["token"])["seat"] == 0
        laptop_table = laptop.receive_json()["table"]
        b.use("phone")  # the same account, another browser, no token
        with client.websocket_connect(url) as phone:
            joined = _join(phone)
            assert joined == {"type": "joined", "table_id": made["id"], "seat": 0,
                              "version": joined["version"]}
            snapshot = phone.receive_json()["table"]
            assert snapshot["view"]["hand"] == laptop_table["view"]["hand"]
            told = _until(laptop, lambda m: m["type"] == "also_open")  # told
            assert told == {"type": "also_open", "seat": 0}
            # Either window may move: the phone bids, the laptop sees it.
            mine = snapshot if snapshot["view"]["legal"] else _until(
                phone, lambda m: "table" in m and bool(m["table"]["view"]["legal"]))
            mine = mine.get("table", mine)
            move = mine["view"]["legal"][0]
            phone.send_json({"type": "action", "action": move})
            seen = _until(laptop, lambda m: m["type"] == "event"
                          and m["event"].get("kind") == "action" and m["event"]["seat"] == 0)
            assert seen["event"]["action"] == move
    # Another account and a guest get no seat, and so no cards.
    for who, words in (("other", "you have no seat"), (None, "sign in")):
        b.use(who)
        with client.websocket_connect(url) as ws:
            refused = _join(ws)
            assert refused["type"] == "error" and refused["code"] == "bad_token"
            assert words in refused["message"]
            ws.send_json({"type": "hint"})
            assert ws.receive_json()["code"] == "not_joined"


def test_a_session_cookie_alone_opens_no_seat_without_the_sites_origin(
        client: TestClient) -> None:
    """Issue 34 item 2: a socket of another origin is closed before any join (4403, with
    the reason); one without ``Origin`` is not a browser's, so its session cookie is not
    believed: it joins with the seat's token or not at all."""
    from starlette.websockets import WebSocketDisconnect

    from euchre.server.core.web_origin import CLOSE_OTHER_ORIGIN, SOCKET_REFUSAL

    b = Browsers(client)
    b.sign_up("laptop", "ann_o")
    made = client.post("/api/tables", json={"kind": "practice"}, headers=b.use("laptop")).json()
    url = f"/ws/tables/{made['id']}"
    for other in ("http://127.0.0.1:9999", "http://evil.example", "null"):
        with pytest.raises(WebSocketDisconnect) as closed, \
                client.websocket_connect(url, headers={"Origin": other}) as ws:
            ws.receive_json()
        assert (closed.value.code, closed.value.reason) == (CLOSE_OTHER_ORIGIN, SOCKET_REFUSAL)
    client.headers.pop("Origin")
    with client.websocket_connect(url) as ws:  # the cookie, no Origin: a guest
        refused = _join(ws)
        assert refused["code"] == "bad_token" and "sign in" in refused["message"]
    with client.websocket_connect(url) as ws:  # the seat's token, no Origin: the seat
        assert _join(ws, made["token"])["seat"] == 0
        assert _until(ws, lambda m: "table" in m)["table"]["view"]["hand"]


def test_a_coin_seat_opens_from_a_second_browser(client: TestClient) -> None:
    b = Browsers(client)
    b.sign_up("laptop", "ann_c")
    b.sign_in("phone", "ann_c")
    csrf = b.use("laptop")
    made = client.post("/api/tables", json={"kind": "coin", "stake": 100}, headers=csrf)
    assert made.status_code in (200, 201), made.text
    b.use("phone")
    with client.websocket_connect(f"/ws/tables/{made.json()['id']}") as ws:
        assert _join(ws)["seat"] == 0
        assert ws.receive_json()["table"]["view"]["hand"]
    live = client.get("/api/me/live").json()["games"]
    assert [(g["id"], g["kind"], g["status"], g["url"]) for g in live] == [
        (made.json()["id"], "coin", "playing", f"/table/{made.json()['id']}")]


def test_play_now_from_a_second_browser_leads_to_the_table_waited_at(
        client: TestClient) -> None:
    b = Browsers(client)
    b.sign_up("laptop", "ann_q")
    b.sign_in("phone", "ann_q")
    headers = {**b.use("laptop"), **at("10.4.4.1")}
    first = client.post("/api/online/quick", json={"seconds_per_move": 20}, headers=headers)
    assert first.status_code == 201 and first.json()["opened"]
    table_id = first.json()["id"]
    headers = {**b.use("phone"), **at("10.4.4.2")}
    again = client.post("/api/online/quick", json={"seconds_per_move": 20}, headers=headers)
    assert again.status_code == 200, again.text
    assert again.json()["id"] == table_id and again.json()["token"] is None
    assert again.json()["seat"] == 0 and again.json()["url"] == f"/online/{table_id}"
    live = client.get("/api/me/live").json()["games"]
    assert [(g["id"], g["status"], g["quick"], g["url"]) for g in live] == [
        (table_id, "waiting", True, f"/online/{table_id}")]
    # A guest without a token holds no seat there.
    b.use(None)
    guest = client.post(f"/api/online/{table_id}/leave", json={})
    assert guest.status_code == 403 and "holds no seat" in guest.json()["error"]
    headers = {**b.use("phone"), **at("10.4.4.2")}
    # Leaving from the phone needs the session's CSRF token, then frees the seat.
    no_csrf = client.post(f"/api/online/{table_id}/leave", json={})
    assert no_csrf.status_code == 403
    assert client.get(f"/api/online/{table_id}").json()["seats"][0]["name"] == "ann_q"
    left = client.post(f"/api/online/{table_id}/leave", json={}, headers=headers)
    assert left.status_code == 200 and left.json()["gone"]
    assert client.get("/api/me/live").json()["games"] == []


def test_a_started_online_seat_opens_by_account_and_leaves_by_account(
        client: TestClient) -> None:
    b = Browsers(client)
    b.sign_up("laptop", "ann_o")
    b.sign_in("phone", "ann_o")
    headers = {**b.use("laptop"), **at("10.5.5.1")}
    made = client.post("/api/online/quick", json={}, headers=headers).json()
    b.use(None)
    bob = quick(client, "Bob", "10.5.5.2")  # a guest
    assert bob.json()["id"] == made["id"]
    b.use("laptop")
    client.post(f"/api/online/{made['id']}/fill", json={"token": made["token"]},
                headers=headers)
    b.use(None)
    done = client.post(f"/api/online/{made['id']}/fill", json={"token": bob.json()["token"]})
    assert done.status_code == 200, done.text
    assert done.json()["table"]["status"] == "started"
    phone = {**b.use("phone"), **at("10.5.5.3")}
    with client.websocket_connect(f"/ws/tables/{made['id']}") as ws:
        assert _join(ws)["seat"] == 0
        assert ws.receive_json()["table"]["view"]["hand"]
    assert [g["status"] for g in client.get("/api/me/live").json()["games"]] == ["playing"]
    left = client.post(f"/api/online/{made['id']}/leave-game", json={}, headers=phone)
    assert left.status_code == 200, left.text
    assert left.json()["seat"] == 0 and left.json()["left"]
    assert client.get("/api/me/live").json()["games"] == []


@needs_redis
def test_a_seat_opens_by_account_at_another_process(tmp_path: Path, own_redis: str) -> None:
    """The socket reaches a process that does not run the table: the account found from
    its cookie there travels with the relay, and the owner seats it (the seat's account is
    in the stored table, not in any one process's memory)."""
    db = tmp_path / "s.db"

    def site() -> TestClient:
        # A lease it never waits out: a renewal late on a busy machine loses no table.
        app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}",
                                  redis_url=own_redis, bot_delay=0.0, hand_pause=0.0,
                                  lease_ttl=30.0),
                         accounts=AccountsOptions(password_profile="cheapest"))
        return TestClient(app, headers={"Origin": SITE})

    first, second = site(), site()
    with second, first:
        r = first.post("/api/accounts", json={"username": "ann_r", "password": "correct horse"})
        assert r.status_code == 201, r.text
        made = first.post("/api/tables", json={"kind": "practice"},
                          headers={"X-CSRF-Token": r.json()["csrf"]}).json()
        assert made["id"] in root_of(first.app).owners.held
        signed = second.post("/api/session",
                             json={"username": "ann_r", "password": "correct horse"})
        assert signed.status_code == 200
        with first.websocket_connect(made["ws"]) as there:
            assert _join(there, made["token"])["seat"] == 0
            hand = _until(there, lambda m: "table" in m)["table"]["view"]["hand"]
            with second.websocket_connect(made["ws"]) as ws:  # relayed to the first
                assert _join(ws)["seat"] == 0
                assert _until(ws, lambda m: "table" in m)["table"]["view"]["hand"] == hand
                assert _until(there, lambda m: m["type"] == "also_open")["seat"] == 0
            assert len(root_of(second.app).manager) == 0  # still run by the first
        # Someone else signed in at the second process gets no seat there.
        second.cookies.clear()
        assert second.post("/api/accounts", json={"username": "bob_r",
                                                  "password": "correct horse"}).status_code == 201
        with second.websocket_connect(made["ws"]) as ws:
            refused = _join(ws)
            assert refused["code"] == "bad_token" and "no seat" in refused["message"]


def test_a_guest_seat_is_kept_by_the_account_signed_in_to_afterwards(
        client: TestClient) -> None:
    b = Browsers(client)
    b.use(None)
    made = client.post("/api/tables", json={"kind": "practice"}).json()  # a guest's seat
    b.sign_up("laptop", "ann_g")  # the same browser signs up afterwards
    csrf = b.use("laptop")
    held = {"seats": [{"id": made["id"], "token": made["token"]},
                      {"id": made["id"], "token": "not-the-token"}, {"id": "nope", "token": "x"}]}
    assert client.post("/api/me/seats", json=held).status_code == 403  # CSRF
    bound = client.post("/api/me/seats", json=held, headers=csrf)
    assert bound.status_code == 200 and bound.json() == {"bound": [made["id"]]}
    assert [g["id"] for g in client.get("/api/me/live").json()["games"]] == [made["id"]]
    b.sign_in("phone", "ann_g")
    b.use("phone")
    with client.websocket_connect(made["ws"]) as ws:  # no token: the claimed seat
        assert _join(ws)["seat"] == 0
        assert _until(ws, lambda m: "table" in m)["table"]["view"]["hand"]
    # Someone else holding the token later cannot take the claim over.
    b.sign_up("other", "bob_g")
    bound = client.post("/api/me/seats", json=held, headers=b.use("other"))
    assert bound.json() == {"bound": []}
    with client.websocket_connect(made["ws"]) as ws:
        assert _join(ws)["code"] == "bad_token"


def test_a_claimed_online_seat_is_left_by_account_from_another_browser(
        client: TestClient) -> None:
    # A guest sat at an online table, the game started, then they signed up in that
    # browser: the seat is theirs by account, so "Leave" from their phone (no token) works.
    b = Browsers(client)
    b.use(None)
    made = quick(client, "Gia", "10.6.6.1").json()  # a guest waits
    other = quick(client, "Bob", "10.6.6.2").json()
    assert other["id"] == made["id"]
    client.post(f"/api/online/{made['id']}/fill", json={"token": made["token"]})
    done = client.post(f"/api/online/{made['id']}/fill", json={"token": other["token"]})
    assert done.json()["table"]["status"] == "started", done.text
    b.sign_up("laptop", "gia_c")
    bound = client.post("/api/me/seats", json={"seats": [{"id": made["id"],
                                                          "token": made["token"]}]},
                        headers=b.use("laptop"))
    assert bound.json() == {"bound": [made["id"]]}
    b.sign_in("phone", "gia_c")
    phone = {**b.use("phone"), **at("10.6.6.3")}
    left = client.post(f"/api/online/{made['id']}/leave-game", json={}, headers=phone)
    assert left.status_code == 200, left.text
    assert left.json()["seat"] == made["seat"] and left.json()["left"]
    again = client.post(f"/api/online/{made['id']}/leave-game", json={}, headers=phone)
    assert again.status_code == 200 and again.json()["already"]  # once, however often


def test_a_practice_game_is_left_from_your_games(client: TestClient) -> None:
    b = Browsers(client)
    b.sign_up("laptop", "ann_p")
    csrf = b.use("laptop")
    made = client.post("/api/tables", json={"kind": "practice"}, headers=csrf).json()
    assert [g["id"] for g in client.get("/api/me/live").json()["games"]] == [made["id"]]
    b.sign_up("other", "bob_p")  # not Bob's table: refused, nothing changes
    r = client.post(f"/api/tables/{made['id']}/leave", json={}, headers=b.use("other"))
    assert (r.status_code, r.json()["code"]) == (404, "no_table")
    b.sign_in("phone", "ann_p")
    phone = b.use("phone")
    assert [g["id"] for g in client.get("/api/me/live").json()["games"]] == [made["id"]]
    left = client.post(f"/api/tables/{made['id']}/leave", json={}, headers=phone)
    assert left.status_code == 200, left.text
    assert (left.json()["left"], left.json()["fee"], left.json()["stake"]) == (True, 0, 0)
    assert client.get("/api/me/live").json()["games"] == []
    again = client.post(f"/api/tables/{made['id']}/leave", json={}, headers=phone)
    assert again.status_code == 200  # a double click: the same answer, nothing more
    table = client.get(f"/api/tables/{made['id']}?token={made['token']}").json()
    assert table["closed"] == "left"
