"""Stake tables over HTTP: who may open one and sit at one, and the start that takes every
stake or none (refused naming who), with nothing moved by a refusal."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from stake_helpers import pot_figures, stake_app
from starlette.testclient import TestClient

from euchre.accounts import COOKIE_NAME


class Site:
    """People signed up on one test client; each request goes with one's cookie."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}
        self.csrf: dict[str, str] = {}

    def sign_up(self, *names: str) -> None:
        """Create the accounts and keep their sessions."""
        for name in names:
            self.client.cookies.clear()
            r = self.client.post("/api/accounts", json={"username": name,
                                                        "password": "correct horse"})
            assert r.status_code == 201, r.text
            self.cookies[name] = str(self.client.cookies.get(COOKIE_NAME))
            self.csrf[name] = r.json()["csrf"]

    def post(self, name: str | None, path: str, body: object, csrf: bool = True) -> Any:
        """POST as ``name`` (None: a guest)."""
        self.client.cookies.clear()
        headers = {}
        if name is not None:
            self.client.cookies.set(COOKIE_NAME, self.cookies[name])
            if csrf:
                headers["X-CSRF-Token"] = self.csrf[name]
        return self.client.post(path, json=body, headers=headers)

    def balance(self, name: str) -> int:
        """``name``'s balance."""
        self.client.cookies.clear()
        self.client.cookies.set(COOKIE_NAME, self.cookies[name])
        return int(self.client.get("/api/me").json()["balance"])


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """The whole site on a fresh SQLite file."""
    with TestClient(stake_app(f"sqlite+aiosqlite:///{tmp_path}/stakes.db")) as client:
        yield Site(client)


def _open(site: Site, name: str, stake: int) -> tuple[str, str]:
    r = site.post(name, "/api/tables", {"kind": "online", "stake": stake})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["id"], body["token"]


def test_opening_a_stake_table(site: Site) -> None:
    site.sign_up("Ann", "Eve")
    guest = site.post(None, "/api/tables", {"kind": "online", "stake": 100, "name": "Gus"})
    assert guest.status_code == 403
    assert "signed-in" in guest.json()["error"]
    no_csrf = site.post("Ann", "/api/tables", {"kind": "online", "stake": 100}, csrf=False)
    assert no_csrf.status_code == 403
    for bad in (7, -10, 5000, "100"):
        r = site.post("Ann", "/api/tables", {"kind": "online", "stake": bad})
        assert r.status_code == 400, bad
        assert "stake must be 0 (no stake) or one of 10, 50, 100, 500" in r.json()["error"]
    # Eve loses 550 at a coin table (stake 500, then leaves: fee 50) and has 450 left
    r = site.post("Eve", "/api/tables", {"kind": "coin", "stake": 500})
    assert r.status_code == 201
    coin_id = r.json()["id"]
    assert site.post("Eve", f"/api/tables/{coin_id}/leave", {}).status_code == 200
    assert site.balance("Eve") == 450
    above = site.post("Eve", "/api/tables", {"kind": "online", "stake": 500})
    assert above.status_code == 409
    assert above.json()["error"] == ("sitting at a 500-coin table needs 550 coins: the stake "
                                     "and 50 to cover the leaving fee; your balance is 450: "
                                     "top up or choose a smaller stake")
    assert site.balance("Eve") == 450
    table_id, _ = _open(site, "Ann", 100)
    shown = site.client.get(f"/api/online/{table_id}").json()
    assert shown["stake"] == 100 and shown["pot"] == 0 and shown["status"] == "open"
    assert site.balance("Ann") == 1000  # nothing is taken before the start


def test_claiming_a_seat_at_a_stake_table(site: Site) -> None:
    site.sign_up("Ann", "Bob", "Eve")
    r = site.post("Eve", "/api/tables", {"kind": "coin", "stake": 500})
    coin_id = r.json()["id"]
    site.post("Eve", f"/api/tables/{coin_id}/leave", {})
    table_id, _ = _open(site, "Ann", 500)
    path = f"/api/tables/{table_id}/seats"
    guest = site.post(None, path, {"seat": 1, "name": "Gus"})
    assert guest.status_code == 403 and "signed-in" in guest.json()["error"]
    poor = site.post("Eve", path, {"seat": 1})
    assert poor.status_code == 409
    assert "needs 550 coins: the stake and 50 to cover the leaving fee; your balance is 450" \
        in poor.json()["error"]
    assert site.balance("Eve") == 450
    assert site.post("Bob", path, {"seat": 1}).status_code == 201
    twice = site.post("Bob", path, {"seat": 3})
    assert twice.status_code == 409
    assert "already have a seat at this stake table" in twice.json()["error"]
    shown = site.client.get(f"/api/online/{table_id}").json()
    assert [s["taken"] for s in shown["seats"]] == [True, True, False, False]


def test_a_start_someone_can_no_longer_cover_is_refused_naming_them(
        site: Site, tmp_path: Path) -> None:
    site.sign_up("Ann", "Bob", "Cyd", "Dee")
    # Bob sits at tables of 500, 500 and 100: two start and take 600 of his 1000 (60 more
    # is kept for their leaving fees), the third cannot (it needs 550: 500 and its fee)
    tables = [_open(site, creator, stake)
              for creator, stake in (("Ann", 500), ("Cyd", 500), ("Dee", 100))]
    for table_id, _ in tables:
        assert site.post("Bob", f"/api/tables/{table_id}/seats", {"seat": 1}).status_code == 201
    for (table_id, token), pot in zip(tables[1:], (1000, 200), strict=True):
        r = site.post(None, f"/api/tables/{table_id}/start", {"token": token})
        assert r.status_code == 200, r.text
        assert r.json()["pot"] == pot
    assert site.balance("Bob") == 400
    table_id, token = tables[0]
    refused = site.post(None, f"/api/tables/{table_id}/start", {"token": token})
    assert refused.status_code == 409
    assert refused.json()["error"] == (
        "the stake is 500 coins (with the leaving fee's cover, 550) and Bob (West) cannot "
        "cover it: the game cannot start until everyone seated covers it")
    assert "340" not in refused.json()["error"] and "400" not in refused.json()["error"]
    assert site.balance("Ann") == 1000  # nothing moved for anyone
    shown = site.client.get(f"/api/online/{table_id}").json()
    assert shown["status"] == "open"  # still waiting: Bob may leave his seat, another sit
    assert site.client.get(f"/api/tables/{table_id}").status_code in (403, 404)
    url = f"sqlite+aiosqlite:///{tmp_path}/stakes.db"
    with pytest.raises(AssertionError):  # no pot was made
        asyncio.run(pot_figures(url, table_id))
    figures = asyncio.run(pot_figures(url, tables[1][0]))
    assert figures["sums"] == {"stake": -1000} and figures["status"] == "active"


def test_leave_game_refusals(site: Site) -> None:
    site.sign_up("Ann")
    table_id, token = _open(site, "Ann", 10)
    r = site.post(None, f"/api/online/{table_id}/leave-game", {"token": token})
    assert r.status_code == 404  # not started
    assert site.post(None, f"/api/tables/{table_id}/start", {"token": token}).status_code == 200
    bad = site.post(None, f"/api/online/{table_id}/leave-game", {"token": "nope"})
    assert bad.status_code == 403
    assert site.balance("Ann") == 990


def test_play_now_with_a_stake_takes_every_stake_when_the_fourth_sits(site: Site) -> None:
    site.sign_up("Ann", "Bob", "Cyd", "Dee", "Eve")
    r = site.post("Eve", "/api/tables", {"kind": "coin", "stake": 500})
    site.post("Eve", f"/api/tables/{r.json()['id']}/leave", {})  # Eve has 450 left
    body = {"preset": "classic", "seconds_per_move": 30, "stake": 500}
    guest = site.post(None, "/api/online/quick", {**body, "name": "Gus"})
    assert guest.status_code == 403
    poor = site.post("Eve", "/api/online/quick", body)
    assert poor.status_code == 409 and "balance is 450" in poor.json()["error"]
    seats = [site.post(name, "/api/online/quick", body) for name in ("Ann", "Bob", "Cyd", "Dee")]
    assert all(s.status_code in (200, 201) for s in seats), [s.text for s in seats]
    assert len({s.json()["id"] for s in seats}) == 1
    assert seats[-1].json()["status"] == "started"
    assert [site.balance(n) for n in ("Ann", "Bob", "Cyd", "Dee", "Eve")] == [500] * 4 + [450]
    table_id = seats[0].json()["id"]
    shown = site.client.get(f"/api/online/{table_id}").json()
    assert shown["status"] == "started" and shown["pot"] == 2000


def test_away_past_the_grace_at_a_stake_table_costs_the_stake_and_fee(tmp_path: Path) -> None:
    """On the app's injected clock: Bob's socket closes, 60 s pass, a computer takes his
    seat and the replace hook charges his fee (once, fenced); Ann, back in time, keeps hers."""
    from euchre.table.actor.pacing import ManualScheduler
    from euchre.table.kinds.online import AWAY_GRACE

    scheduler = ManualScheduler()
    app = stake_app(f"sqlite+aiosqlite:///{tmp_path}/away.db", scheduler)
    with TestClient(app) as client:
        site = Site(client)
        site.sign_up("Ann", "Bob")
        table_id, ann_token = _open(site, "Ann", 100)
        bob = site.post("Bob", f"/api/tables/{table_id}/seats", {"seat": 1}).json()["token"]
        assert site.post(None, f"/api/tables/{table_id}/start",
                         {"token": ann_token}).status_code == 200
        assert client.portal is not None
        with client.websocket_connect(f"/ws/tables/{table_id}") as ann_ws:
            ann_ws.send_json({"type": "join", "protocol": 2, "token": ann_token})
            assert ann_ws.receive_json()["type"] == "joined"
            with client.websocket_connect(f"/ws/tables/{table_id}") as bob_ws:
                bob_ws.send_json({"type": "join", "protocol": 2, "token": bob})
                assert bob_ws.receive_json()["type"] == "joined"
            kinds: list[str] = []
            while "away" not in kinds:
                m = ann_ws.receive_json()
                if m["type"] == "event":
                    kinds.append(m["event"]["kind"])
            client.portal.call(scheduler.advance, AWAY_GRACE)
            while "replaced" not in kinds:
                m = ann_ws.receive_json()
                if m["type"] == "event":
                    kinds.append(m["event"]["kind"])
                    if m["event"]["kind"] == "replaced":
                        assert m["event"] == {"kind": "replaced", "seat": 1,
                                              "reason": "away", "level": "expert"}
                        assert m["table"]["seats"][1]["replaced"] == "away"
        again = site.post(None, f"/api/online/{table_id}/leave-game", {"token": bob})
        assert again.status_code == 200 and again.json()["already"] and again.json()["fee"] == 10
        assert site.balance("Bob") == 890 and site.balance("Ann") == 900
        figures = asyncio.run(pot_figures(f"sqlite+aiosqlite:///{tmp_path}/away.db", table_id))
        assert figures["sums"] == {"stake": -200, "fee": -10} and figures["status"] == "active"


def test_a_quick_start_someone_cannot_cover_is_told_at_the_table(site: Site) -> None:
    site.sign_up("Ann", "Bob", "Cyd", "Dee", "Eve")
    body = {"preset": "classic", "seconds_per_move": 30, "stake": 500}
    seats = {name: site.post(name, "/api/online/quick", body).json()
             for name in ("Ann", "Bob", "Cyd")}
    table_id = seats["Ann"]["id"]
    # Bob loses 550 at a coin table: 450 left, the stake no longer covered
    coin = site.post("Bob", "/api/tables", {"kind": "coin", "stake": 500}).json()
    site.post("Bob", f"/api/tables/{coin['id']}/leave", {})
    assert site.balance("Bob") == 450
    with site.client.websocket_connect(f"/ws/online/{table_id}") as waiting, \
            site.client.websocket_connect("/ws/lobby") as lobby:
        assert waiting.receive_json()["type"] == "table"
        assert lobby.receive_json()["type"] == "lobby"
        dee = site.post("Dee", "/api/online/quick", body)
        assert dee.status_code == 200 and dee.json()["status"] == "open"
        told = waiting.receive_json()
        while told["type"] == "table":  # Dee sat; the start, tried and undone
            assert told["table"]["status"] == "open" and told["table"]["free"] == 0
            told = waiting.receive_json()
        assert told["type"] == "start_refused" and told["people"] == ["Bob"]
        assert told["message"] == ("The game could not start: Bob can no longer cover the "
                                   "500-coin stake. The table waits: Bob may give up the seat "
                                   "so that someone else can sit.")
        assert "450" not in told["message"]  # a balance is nobody else's business
        # Dee's page opens its socket after her seat: it is told too
        with site.client.websocket_connect(f"/ws/online/{table_id}") as dees:
            assert dees.receive_json()["type"] == "table"
            assert dees.receive_json()["type"] == "start_refused"
        assert [site.balance(n) for n in ("Ann", "Cyd", "Dee")] == [1000] * 3  # nothing moved
        # the table stays usable: Bob gives up his seat, Eve takes it, and it starts
        r = site.post("Bob", f"/api/online/{table_id}/leave", {"token": seats["Bob"]["token"]})
        assert r.status_code == 200, r.text
        # the whole lobby heard of every change up to Bob's leaving, never of the refusal
        heard = [lobby.receive_json()]
        while heard[-1].get("table", {}).get("free") != 1:
            heard.append(lobby.receive_json())
        assert {m["type"] for m in heard} == {"table"}
        eve = site.post("Eve", "/api/online/quick", body)
        assert eve.json()["id"] == table_id and eve.json()["status"] == "started"
        with site.client.websocket_connect(f"/ws/online/{table_id}") as later:
            first = later.receive_json()
            assert first["type"] == "table" and first["table"]["status"] == "started"
    assert [site.balance(n) for n in ("Ann", "Cyd", "Dee", "Eve")] == [500] * 4
