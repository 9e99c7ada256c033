"""Kill the real server (SIGKILL) in the middle of a coin game: the restarted server resumes
the table from storage and no coin is lost or paid twice.

Starts ``euchre serve`` as a subprocess on a SQLite file, plays over HTTP and the table
socket, kills it, restarts it on the same file and plays the game to the end.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from live_server import ServerProcess, free_port

NOTICE = "Play coins have no cash value and cannot be cashed out."


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on a fresh SQLite file (stopped at the end)."""
    s = ServerProcess(f"sqlite+aiosqlite:///{tmp_path / 'crash.db'}", free_port())
    s.start()
    try:
        yield s
    finally:
        s.stop()


class Seat:
    """Seat 0 over the socket, random legal moves."""

    def __init__(self, ws: ClientConnection, seed: int) -> None:
        self.ws = ws
        self.rng = random.Random(seed)
        self.table: dict[str, Any] = {}
        self.waiting = False
        self.version = 0

    def receive(self) -> dict[str, Any]:
        m: dict[str, Any] = json.loads(self.ws.recv(timeout=60))
        assert m["type"] != "error", m
        if "table" in m:
            self.table = m["table"]
        if "version" in m:
            self.version = max(self.version, m["version"])
        if m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
            self.waiting = False
        return m

    def play(self, moves: int | None) -> int:
        """Make ``moves`` moves (None: to the end); returns how many were made."""
        made = 0
        while moves is None or made < moves:
            if self.table.get("game_over"):
                break
            m = self.receive()
            turn = (m["type"] in ("event", "snapshot") and not self.waiting
                    and m["version"] == self.table.get("version")
                    and self.table.get("view") and self.table["view"]["legal"])
            if turn:
                self.ws.send(json.dumps({"type": "action",
                                         "action": self.rng.choice(self.table["view"]["legal"])}))
                self.waiting = True
                made += 1
        while self.waiting and not self.table.get("game_over"):
            self.receive()
        return made


def _play(server: ServerProcess, table: dict[str, Any], seed: int, moves: int | None) -> Seat:
    with connect(f"ws://127.0.0.1:{server.port}{table['ws']}") as ws:
        ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
        seat = Seat(ws, seed)
        made = seat.play(moves)
        assert moves is None or made == moves
    return seat


def _ledger(http: httpx.Client) -> list[tuple[str, int]]:
    return [(e["reason"], e["amount"]) for e in http.get("/api/me/ledger").json()["entries"]]


def test_a_killed_server_resumes_the_coin_game_and_settles_it_once(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base, timeout=60) as http:
        me = http.post("/api/accounts", json={"username": "crash", "password": "correct horse"})
        assert me.status_code == 201, me.text
        csrf = me.json()["csrf"]
        r = http.post("/api/tables", json={"kind": "coin", "stake": 100, "request_id": "j1"},
                      headers={"X-CSRF-Token": csrf})
        assert r.status_code == 201, r.text
        table = r.json()
        assert table["balance"] == 900 and table["notice"] == NOTICE
        _play(server, table, 1, 4)
        before = http.get(f"/api/tables/{table['id']}", params={"token": table["token"]}).json()
        moves_before = before["view"]["history"] if before["view"] else []

        server.kill()
        server.start()

        # The session, the balance and the table all survived; nothing was charged again.
        me2 = http.get("/api/me").json()
        assert me2["balance"] == 900 and me2["active_table"]["id"] == table["id"]
        assert _ledger(http) == [("stake", -100), ("welcome", 1000)]
        replayed = http.post("/api/tables", json={"kind": "coin", "stake": 100,
                                                  "request_id": "j1"},
                             headers={"X-CSRF-Token": me2["csrf"]})
        assert replayed.status_code == 201 and replayed.json()["id"] == table["id"]
        after = http.get(f"/api/tables/{table['id']}", params={"token": table["token"]}).json()
        # The same game, where it was (saves are written behind: at most the last few
        # events may be replayed again, never a different past).
        assert after["id"] == table["id"] and not after["game_over"]
        assert after["score"] == before["score"]
        if after["hand_number"] == before["hand_number"] and after["view"]:
            moves_after = after["view"]["history"]
            shorter = min(len(moves_after), len(moves_before))
            def kinds(moves: list[list[Any]]) -> list[list[Any]]:
                # table law 11: a play no longer on view is sent as just "play"
                return [[s, "play" if a.startswith("play") else a] for s, a in moves]

            assert kinds(moves_after[:shorter]) == kinds(moves_before[:shorter])

        seat = _play(server, table, 2, None)
        assert seat.table["game_over"]
        won = seat.table["winner"] == 0
        final = 900 + (200 if won else 0)
        assert http.get("/api/me").json()["balance"] == final
        expected = [("stake", -100), ("welcome", 1000)]
        if won:
            expected.insert(0, ("payout", 200))
        assert _ledger(http) == expected

        # A second crash after the end pays nothing again.
        server.kill()
        server.start()
        assert http.get("/api/me").json()["balance"] == final
        assert _ledger(http) == expected
        games = http.get("/api/me/games").json()
        assert games["games"][0]["status"] == ("won" if won else "lost")
        assert games["stats"]["games"] == 1
