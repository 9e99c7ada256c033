"""The same tournament on a live server (uvicorn on a port, real sockets): 4 people over
WebSocket connections and 4 computers (two tables), 2 rounds of 1 hand, started by the drive
in the server's background when the site's (fake) clock reaches the start time. A smaller run
than the in-process one of 12, to keep the shared machine's load down.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
import time
from typing import Any

import httpx
from websockets.sync.client import connect

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.root import root_of
from live_server import live_server

NAMES = ["ann", "bob", "cyd", "dee"]
T0 = dt.datetime(2026, 12, 6, 19, 0, tzinfo=dt.UTC)
WAIT = 120.0
"""Longest wait for the server to do a thing (a failure, never a pace)."""


class LivePerson(threading.Thread):
    """One person over real sockets: each round, their table from the page, then play."""

    def __init__(self, base: str, tid: str, name: str, token: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.tid, self.name, self.token = base, tid, name, token
        self.rng = random.Random(seed)
        self.rounds: list[int] = []
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with httpx.Client(base_url=self.base) as http:
                played = 0
                while (found := self.table_after(http, played)) is not None:
                    number, table = found
                    self.play(table["table_id"], table["seats"].index(self.name))
                    self.rounds.append(number)
                    played = number
        except BaseException as e:  # reported by the test
            self.error = e

    def table_after(self, http: httpx.Client, after: int) -> tuple[int, Any] | None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            state = http.get(f"/api/tournaments/{self.tid}").json()
            for rnd in state["round_tables"][after:]:
                for table in rnd["tables"]:
                    if self.name in table["seats"]:
                        return rnd["round"], table
            if state["status"] == "finished":
                return None
            time.sleep(0.05)
        raise AssertionError(f"{self.name}: no table after round {after}")

    def play(self, table_id: str, seat: int) -> None:
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        deadline = time.monotonic() + WAIT
        while True:
            with connect(url) as ws:
                ws.send(json.dumps({"type": "join", "protocol": 2, "token": self.token}))
                m = json.loads(ws.recv(timeout=30))
                if m["type"] == "error" and m["code"] == "no_table":
                    assert time.monotonic() < deadline, "the table never opened"
                    time.sleep(0.05)
                    continue
                waiting = False
                while True:
                    assert m["type"] != "error", m
                    if m["type"] == "event" and m["event"]["kind"] == "action" \
                            and m["event"]["seat"] == seat:
                        waiting = False
                    table = m.get("table")
                    if table is not None:
                        assert table["seat"] == seat
                        if table["game_over"]:
                            return
                        view = table["view"]
                        if m["version"] == table["version"] and not waiting and view \
                                and view["legal"]:
                            ws.send(json.dumps({"type": "action",
                                                "action": self.rng.choice(view["legal"])}))
                            waiting = True
                    m = json.loads(ws.recv(timeout=60))


def test_a_tournament_on_a_live_server(tmp_path: Any) -> None:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/live.db",
                              bot_delay=0.0, hand_pause=0.0),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as base:
        now = [T0]
        root_of(app).tournaments.service.now = lambda: now[0]
        tokens: dict[str, str] = {}
        tid = ""
        for name in NAMES:
            with httpx.Client(base_url=base) as http:
                r = http.post("/api/accounts", json={"username": name,
                                                     "password": "correct horse"})
                assert r.status_code == 201, r.text
                csrf = {"X-CSRF-Token": r.json()["csrf"]}
                if not tid:
                    r = http.post("/api/tournaments", headers=csrf, json={
                        "name": "Live night", "hands": 1, "rounds": 2, "fill_to": 8,
                        "starts_at": (T0 + dt.timedelta(minutes=30)).isoformat()})
                    assert r.status_code == 201, r.text
                    tid = r.json()["id"]
                r = http.post(f"/api/tournaments/{tid}/register", headers=csrf, json={})
                assert r.status_code == 201, r.text
                tokens[name] = r.json()["token"]
        people = [LivePerson(base, tid, n, tokens[n], i) for i, n in enumerate(NAMES)]
        for p in people:
            p.start()
        now[0] = T0 + dt.timedelta(minutes=30)  # the server's own drive starts it
        for p in people:
            p.join(WAIT * 3)
        assert [(p.name, p.error) for p in people if p.error or p.is_alive()] == []
        assert all(p.rounds == [1, 2] for p in people)
        with httpx.Client(base_url=base) as http:
            state = http.get(f"/api/tournaments/{tid}").json()
        assert state["status"] == "finished" and state["field"] == 8
        assert state["filled"] == "4 registered; 4 computers fill the count to 8"
        assert len(state["standings"]) == 8
        assert all(t["over"] for r in state["round_tables"] for t in r["tables"])
