"""The euchre nights' API on the whole site (SQLite, and PostgreSQL when it is there): a host
runs a night, a table's phone (no account) scores by its code, the host corrects, and every
refusal has its status and changes nothing."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Iterator
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal"]
_seeds = itertools.count()


def site(db_url: str) -> Starlette:
    """The whole site with the cheapest password hashing."""
    return create_app(Settings(database_url=db_url, bot_delay=0.0, hand_pause=0.0,
                               seed_source=lambda: f"nights-{next(_seeds)}"),
                      accounts=AccountsOptions(password_profile="cheapest"))


def sign_up(client: TestClient, username: str) -> dict[str, str]:
    """Create an account (the client keeps its cookie); the CSRF header."""
    r = client.post("/api/accounts", json={"username": username, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


@contextlib.contextmanager
def cookies_of(client: TestClient, jar: dict[str, str]) -> Iterator[None]:
    """Requests with ``jar``'s cookies instead of the client's (one client: one event loop,
    which an asyncpg pool needs), then the client's own again."""
    own = dict(client.cookies)
    client.cookies.clear()
    client.cookies.update(jar)
    try:
        yield
    finally:
        jar.clear()
        jar.update(client.cookies)
        client.cookies.clear()
        client.cookies.update(own)


def test_a_host_runs_a_night_that_phones_score(db_url: str) -> None:
    with TestClient(site(db_url)) as host:
        phone = other = host
        csrf = sign_up(host, "hostess")
        phone_jar: dict[str, str] = {}
        other_jar: dict[str, str] = {}
        r = host.post("/api/nights", json={"name": "Fire hall", "names": NAMES, "rounds": 2,
                                           "hands": 1, "loner_bonus": True}, headers=csrf)
        assert r.status_code == 201, r.text
        night = r.json()["id"]
        assert r.json()["url"] == f"/nights/{night}"
        assert [n["id"] for n in host.get("/api/nights").json()["nights"]] == [night]

        r = host.post(f"/api/nights/{night}/advance", json={}, headers=csrf)
        assert r.status_code == 200 and r.json()["current_round"] == 1
        tables = r.json()["round_tables"][0]["tables"]
        codes = [t["code"] for t in tables]
        assert all(isinstance(c, str) and len(c) == 6 for c in codes)
        with cookies_of(host, phone_jar):
            public = phone.get(f"/api/nights/{night}").json()
        assert [t["code"] for t in public["round_tables"][0]["tables"]] == [None, None]
        assert public["tie_breaks"][0] == "total points"

        # Table 1's phone: seats 0 & 2 enter, seats 1 & 3 confirm; lower case is forgiven.
        with cookies_of(host, phone_jar):
            card = phone.get(f"/api/score/{codes[0].lower()}").json()
            assert card["seats"] == tables[0]["seats"] and card["open"]
            r = phone.post(f"/api/score/{codes[0]}/hands", json={
                "by_pair": 0, "hand": 1, "makers": 0, "tricks": 5, "lone_seat": 0})
            assert r.status_code == 200 and r.json()["hands"][0]["points"] == [5, 0, 4, 0]
            r = phone.post(f"/api/score/{codes[0]}/confirm", json={"by_pair": 1})
            assert r.status_code == 200 and r.json()["confirmed_by"]

        # Refusals, each with its status, nothing changed.
        before = host.get(f"/api/nights/{night}/log").json()
        with cookies_of(host, phone_jar):
            assert phone.post(f"/api/score/{codes[1]}/hands", json={
                "by_pair": 0, "hand": 2, "makers": 0, "tricks": 3}).status_code == 400
            assert phone.post(f"/api/score/{codes[1]}/hands", json={
                "by_pair": 0, "hand": 1, "makers": 0, "tricks": 3, "colour": 1}
            ).status_code == 400
            assert phone.post("/api/score/QQQQQQ/hands", json={
                "by_pair": 0, "hand": 1, "makers": 0, "tricks": 3}).status_code == 404
            assert phone.post(f"/api/score/{codes[1]}/confirm",
                              json={"by_pair": 1}).status_code == 409
            assert phone.post(f"/api/nights/{night}/advance", json={}).status_code == 401
        with cookies_of(host, other_jar):
            intruder = sign_up(other, "intruder")
            assert other.post(f"/api/nights/{night}/advance", json={},
                              headers=intruder).status_code == 403
        no_csrf = host.post(f"/api/nights/{night}/advance", json={})
        assert no_csrf.status_code == 403
        r = host.post(f"/api/nights/{night}/advance", json={}, headers=csrf)
        assert r.status_code == 409 and "table 2 has 0 of 1" in r.json()["error"]
        assert host.get("/api/nights/nope").status_code == 404
        assert host.post("/api/nights", json={"name": "x", "names": NAMES[:5]},
                         headers=csrf).status_code == 400
        assert host.get(f"/api/nights/{night}/log").json() == before

        # The host enters table 2's hand, corrects table 1's: kept in the log with the name.
        r = host.post(f"/api/nights/{night}/corrections", json={
            "round": 1, "table": 2, "hand": 1, "makers": 1, "tricks": 2}, headers=csrf)
        assert r.status_code == 200, r.text
        r = host.post(f"/api/nights/{night}/corrections", json={
            "round": 1, "table": 1, "hand": 1, "makers": 0, "tricks": 4}, headers=csrf)
        assert r.json()["round_tables"][0]["tables"][0]["confirmed_by"] is None
        log = host.get(f"/api/nights/{night}/log").json()["entries"]
        assert [(e["kind"], e["by"]) for e in log][-2:] == [
            ("correction", "host hostess"), ("correction", "host hostess")]
        assert host.post(f"/api/nights/{night}/advance", json={}, headers=csrf).json()[
            "current_round"] == 2
        with cookies_of(host, phone_jar):
            assert phone.post(f"/api/score/{codes[0]}/hands", json={
                "by_pair": 0, "hand": 1, "makers": 0, "tricks": 3}).status_code == 409
            standings: list[dict[str, Any]] = phone.get(
                f"/api/nights/{night}").json()["standings"]
        assert sorted(s["points"] for s in standings) == [0, 0, 0, 0, 1, 1, 2, 2]


def test_guessing_table_codes_is_limited_and_a_right_code_does_not_count(db_url: str) -> None:
    with TestClient(site(db_url)) as client:
        csrf = sign_up(client, "hostess")
        night = client.post("/api/nights", json={"name": "x", "names": NAMES[:4],
                                                 "rounds": 1, "hands": 1},
                            headers=csrf).json()["id"]
        code = client.post(f"/api/nights/{night}/advance", json={}, headers=csrf).json()[
            "round_tables"][0]["tables"][0]["code"]
        client.cookies.clear()
        for _ in range(40):  # a room's phones: known codes never count
            assert client.get(f"/api/score/{code}").status_code == 200
        misses = [client.get(f"/api/score/ZZZZZ{n % 10}").status_code for n in range(30)]
        assert misses == [404] * 30
        refused = client.get("/api/score/ZZZZZZ")
        assert refused.status_code == 429 and "unknown table codes" in refused.json()["error"]
        assert int(refused.headers["retry-after"]) > 0
