"""A rated team event over HTTP and sockets on the whole site: the format and its refusals
on create, pairs by invitation (an unknown name, oneself, a decline, an acceptance), the
lobby's listing with the format, the start, a single elimination final played by four
people over sockets (their sessions open their seats, partners at 0 and 2), the rated game
rated, the final placing and each person's results.

The people play in threads, one socket each, random legal moves; nothing asserts on time.
"""

from __future__ import annotations

import random
import threading
import time
from typing import Any

from starlette.testclient import TestClient
from test_tournament_online import WAIT, site

NAMES = ["ann", "bob", "cyd", "dee"]


def cookie_header(jar: dict[str, str], csrf: dict[str, str] | None = None) -> dict[str, str]:
    """A request's headers for the person whose cookies are ``jar`` (no shared jar, so
    threads may use them at once)."""
    return {"cookie": "; ".join(f"{k}={v}" for k, v in jar.items()), **(csrf or {})}


def play(client: TestClient, table_id: str, seat: int, headers: dict[str, str], seed: int,
         errors: list[BaseException]) -> None:
    """Join ``table_id`` by the session (no token) and play random legal moves to its end."""
    rng = random.Random(seed)
    try:
        deadline = time.monotonic() + WAIT
        while True:
            # A socket's session cookie counts only from this site's own pages (its Origin).
            with client.websocket_connect(f"/ws/tables/{table_id}",
                                          headers={**headers, "origin": "http://127.0.0.1:8000"}
                                          ) as ws:
                ws.send_json({"type": "join", "protocol": 2})
                first = ws.receive_json()
                if first["type"] == "error" and first["code"] == "no_table":
                    assert time.monotonic() < deadline, "the table never opened"
                    time.sleep(0.02)
                    continue
                pending, waiting = [first], False
                while True:
                    m = pending.pop() if pending else ws.receive_json()
                    assert m["type"] != "error", m
                    if m["type"] == "event" and m["event"]["kind"] == "action" \
                            and m["event"]["seat"] == seat:
                        waiting = False
                    table = m.get("table")
                    if table is None:
                        continue
                    assert table["seat"] == seat, "the session opened the pair's own seat"
                    if table["game_over"]:
                        return
                    if m["version"] != table["version"] or waiting:
                        continue
                    view = table["view"]
                    if view and view["legal"]:
                        ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
                        waiting = True
    except BaseException as e:  # reported by the test
        errors.append(e)


def test_a_rated_pair_event_over_http_and_sockets(tmp_path: Any) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/teams.db"
    with TestClient(site(url)) as client:
        jars: dict[str, dict[str, str]] = {}
        csrf: dict[str, dict[str, str]] = {}
        for name in NAMES:
            client.cookies.clear()
            r = client.post("/api/accounts", json={"username": name,
                                                   "password": "correct horse"})
            assert r.status_code == 201, r.text
            csrf[name] = {"X-CSRF-Token": r.json()["csrf"]}
            jars[name] = dict(client.cookies)
        client.cookies.clear()

        def post(name: str, path: str, body: dict[str, Any] | None = None) -> Any:
            return client.post(path, headers=cookie_header(jars[name], csrf[name]),
                               json=body or {})

        def get(path: str, name: str | None = None) -> Any:
            r = client.get(path, headers=cookie_header(jars[name]) if name else {})
            assert r.status_code == 200, r.text
            return r.json()

        refused = post("ann", "/api/tournaments", {"name": "No", "rated": True})
        assert refused.status_code == 400 and "never rated" in refused.json()["error"]
        refused = post("ann", "/api/tournaments", {"name": "No", "format": "pairs"})
        assert refused.status_code == 400 and "round_robin" in refused.json()["error"]
        r = post("ann", "/api/tournaments", {"name": "Pairs final", "format":
                                             "single_elimination", "hands": 1,
                                             "rated": True, "level": "easy"})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        base = f"/api/tournaments/{tid}"

        assert post("ann", f"{base}/register").status_code == 409  # pairs invite
        r = post("ann", f"{base}/invite", {"partner": "nobody"})
        assert r.status_code == 404 and "nobody here" in r.json()["error"]
        r = post("ann", f"{base}/invite", {"partner": "Ann"})
        assert r.status_code == 400 and "own partner" in r.json()["error"]
        r = post("ann", f"{base}/invite", {"partner": "bob"})
        assert r.status_code == 200, r.text
        assert r.json()["invites"][0] | {"id": 0} == {"id": 0, "sent": True,
                                                       "status": "pending", "to": "bob",
                                                       "from": "ann"}
        asked = get(base, "bob")["invites"]
        assert [(i["from"], i["sent"]) for i in asked] == [("ann", False)]
        assert get(base, "cyd")["invites"] == []  # nobody else sees it
        r = post("bob", f"{base}/invites/{asked[0]['id']}/accept")
        assert r.status_code == 200, r.text
        assert r.json()["partner"] == "ann" and r.json()["registered"]
        # A decline, then the same invitation again, accepted.
        first = post("cyd", f"{base}/invite", {"partner": "dee"}).json()["invites"][0]["id"]
        assert post("dee", f"{base}/invites/{first}/decline").status_code == 200
        assert get(base, "cyd")["invites"][0]["status"] == "declined"
        again = post("cyd", f"{base}/invite", {"partner": "dee"}).json()["invites"][0]["id"]
        assert post("dee", f"{base}/invites/{first}/accept").status_code == 409
        assert post("dee", f"{base}/invites/{again}/accept").status_code == 200

        listed = get("/api/tournaments")["open"]
        assert [(t["id"], t["format_name"], t["rated"]) for t in listed] == [
            (tid, "Single elimination (fixed pairs)", True)]
        state = get(base)
        assert [p["name"] for p in state["pairs"]] == ["ann & bob", "cyd & dee"]

        r = post("ann", f"{base}/start")
        assert r.status_code == 200, r.text
        table = r.json()["round_tables"][0]["tables"][0]
        assert table["match"] == "W1.1" and table["seats"] == ["ann", "cyd", "bob", "dee"]
        errors: list[BaseException] = []
        threads = [threading.Thread(target=play, args=(client, table["table_id"], seat,
                                                       cookie_header(jars[name]), seat,
                                                       errors), daemon=True)
                   for seat, name in enumerate(table["seats"])]
        for t in threads:
            t.start()
        for t in threads:
            t.join(WAIT)
        assert not errors, errors
        deadline = time.monotonic() + WAIT
        while (state := get(base))["status"] != "finished":
            assert time.monotonic() < deadline, state
            time.sleep(0.02)
        lines = state["team_standings"]
        assert [(x["place"], x["status"]) for x in lines] == [(1, "champion"), (2, "out")]
        champion = lines[0]["name"]
        for name in NAMES:
            results = get(f"/api/people/{name}/tournaments")["results"]
            assert len(results) == 1 and results[0]["format"] == "single_elimination"
            assert results[0]["place"] == (1 if name in champion else 2)
            assert results[0]["partner"] in NAMES
            # The final was rated: four people, a rated event.
            rating = get(f"/api/people/{name}")["person"]["rating"]
            assert rating is not None and rating["games"] == 1, rating
