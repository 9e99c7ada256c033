"""A round time limit on the whole site, on the fake clock: when a round's time passes, a
table in the middle of a hand plays that hand out and ends; a table between hands ends at
once; the standings count the hands played; bad limits are refused in words and make
nothing.

One person (Ann) over a socket and three computers, two rounds of 8 hands with a 20-minute
limit; the pause between hands is long, so a table whose hand is over stays between hands
until the limit ends it (and the dealer is stuck: no hand is thrown in and dealt again
after that pause). Nothing waits on time: the test moves the tournament's clock and
waits on the socket's events.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession
from test_tournament_online import T0, cookies_of, sign_up, site_of_app

from euchre.record import GameRecord
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.tournaments.tournaments_api import drive
from euchre.storage import FINISHED
from euchre.tournaments import ROUND_TIME


def _site(db_url: str) -> Any:
    return create_app(Settings(database_url=db_url, bot_delay=0.0, hand_pause=3600.0),
                      accounts=AccountsOptions(password_profile="cheapest"))


def _my_table(client: TestClient, tid: str, round_no: int) -> tuple[str, int]:
    state = client.get(f"/api/tournaments/{tid}").json()
    table = state["round_tables"][round_no - 1]["tables"][0]
    return table["table_id"], table["seats"].index("ann")


class Seat:
    """Ann at her table: her socket, and what it has shown so far."""

    def __init__(self, ws: WebSocketTestSession, seat: int, seed: int) -> None:
        self.ws, self.seat, self.rng = ws, seat, random.Random(seed)
        self.table: dict[str, Any] = {}
        self.fresh = False
        self.kinds: list[str] = []

    def next(self) -> dict[str, Any]:
        m = self.ws.receive_json()
        assert m["type"] != "error", m
        if m["type"] == "event":
            self.kinds.append(m["event"]["kind"])
        # A table is a move's whole result only when its version is the message's.
        self.fresh = m.get("table") is not None and m["version"] == m["table"]["version"]
        if self.fresh:
            self.table = m["table"]
        return m

    def until_my_turn(self) -> None:
        """Read until Ann is to act (the table waits for her)."""
        while not (self.table.get("view") and self.table["view"]["legal"]
                   and self.table["to_act"] == self.seat):
            self.next()

    def play_until(self, done: Any) -> None:
        """Play random legal moves until ``done(self)``. The table read so far is acted on
        before the next message is awaited: the message that made it Ann's turn may have
        been read already (by :meth:`until_my_turn`), and nothing else comes until she acts."""
        waiting = False
        while not done(self):
            view = self.table.get("view")
            if self.fresh and not waiting and view and view["legal"] \
                    and self.table["to_act"] == self.seat and not self.table["closed"]:
                self.ws.send_json({"type": "action", "action": self.rng.choice(view["legal"])})
                waiting = True
            m = self.next()
            if m["type"] == "event" and m["event"]["kind"] == "action" \
                    and m["event"]["seat"] == self.seat:
                waiting = False


def test_the_round_time_limit_ends_each_table_after_the_hand_in_play(tmp_path: Any) -> None:
    with TestClient(_site(f"sqlite+aiosqlite:///{tmp_path}/time.db")) as client:
        the_site = site_of_app(client)
        assert the_site.tournaments is not None
        service = the_site.tournaments.service
        now = [T0]
        service.now = lambda: now[0]
        jar: dict[str, str] = {}
        with cookies_of(client, jar):
            csrf = sign_up(client, "ann")
            r = client.post("/api/tournaments", headers=csrf, json={
                "name": "Timed night", "hands": 8, "rounds": 2, "seconds_per_move": 600,
                "round_minutes": 20, "level": "easy", "preset": "stick-the-dealer"})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            token = client.post(f"/api/tournaments/{tid}/register", headers=csrf,
                                json={}).json()["token"]
            r = client.post(f"/api/tournaments/{tid}/start", headers=csrf, json={})
            assert r.status_code == 200, r.text
        state = r.json()
        assert state["round_minutes"] == 20
        assert state["round_ends_at"] == (T0 + dt.timedelta(minutes=20)).isoformat()

        # Round 1: the limit passes while Ann is to act in hand 1.
        table_id, seat = _my_table(client, tid, 1)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": token})
            ann = Seat(ws, seat, 1)
            ann.until_my_turn()
            now[0] = T0 + dt.timedelta(minutes=19)
            client.portal.call(drive, the_site)  # type: ignore[union-attr]
            actor = the_site.manager.peek(table_id)
            assert actor is not None and actor.last_hand is None  # not yet
            now[0] = T0 + dt.timedelta(minutes=20)
            client.portal.call(drive, the_site)  # type: ignore[union-attr]
            assert actor.last_hand == ROUND_TIME and actor.closed is None
            assert len(actor.game.all_hands()) == 1
            ann.play_until(lambda s: s.table.get("closed"))
            assert ann.table["closed"] == ROUND_TIME and not ann.table["game_over"]
            assert ann.kinds.count("hand_over") == 1 and ann.kinds.count("deal") <= 1
            assert ann.kinds[-1] == "closed"
        assert len(actor.game.all_hands()) == 1 and actor.game.current.is_over  # type: ignore[union-attr]

        # The table's end seated round 2 (its finish hook), with its own clock.
        state = client.get(f"/api/tournaments/{tid}").json()
        assert state["current_round"] == 2
        assert state["round_ends_at"] == (now[0] + dt.timedelta(minutes=20)).isoformat()
        first = state["round_tables"][0]["tables"][0]
        assert first["over"]
        record = GameRecord.from_text(client.get(f"/api/games/{table_id}/record").text)
        assert len(record.hands) == 1 and list(record.replay().score) == first["side_points"]

        # Round 2: Ann plays hand 1 out; the table waits between hands when the limit passes.
        started = now[0]
        table_id, seat = _my_table(client, tid, 2)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": token})
            ann = Seat(ws, seat, 2)
            ann.play_until(lambda s: "hand_over" in s.kinds)
            actor = the_site.manager.peek(table_id)
            assert actor is not None and actor.game.needs_deal and actor.closed is None
            now[0] = started + dt.timedelta(minutes=25)
            client.portal.call(drive, the_site)  # type: ignore[union-attr]
            assert actor.closed == ROUND_TIME  # at once: no hand in play
            while not ann.table.get("closed"):
                ann.next()
            assert "deal" not in ann.kinds[ann.kinds.index("hand_over"):]
            assert ann.kinds[-1] == "closed" and len(actor.game.all_hands()) == 1
        state = client.get(f"/api/tournaments/{tid}").json()
        assert state["status"] == "finished" and state["round_ends_at"] is None
        # The standings count the hands played: one a table, each round.
        side = [t["side_points"] for r in state["round_tables"] for t in r["tables"]]
        for r in state["round_tables"]:
            text = client.get(f"/api/games/{r['tables'][0]['table_id']}/record").text
            game = GameRecord.from_text(text).replay()
            assert len(game.all_hands()) == 1 and list(game.score) == r["tables"][0][
                "side_points"]
        line = next(s for s in state["standings"] if s["name"] == "ann")
        seats = [_my_table(client, tid, n)[1] for n in (1, 2)]
        assert line["rounds"] == [p[s % 2] for p, s in zip(side, seats, strict=True)]
        assert line["points"] == sum(line["rounds"])


def test_bad_round_limits_are_refused_in_words_and_make_nothing(tmp_path: Any) -> None:
    with TestClient(_site(f"sqlite+aiosqlite:///{tmp_path}/bad.db")) as client:
        csrf = sign_up(client, "ann")
        for bad, words in ((0, "from 1 to 240"), (241, "from 1 to 240"), (-5, "from 1 to 240"),
                           (True, "round_minutes"), (2.5, "round_minutes"),
                           ("20", "round_minutes")):
            r = client.post("/api/tournaments", headers=csrf, json={
                "name": "Bad night", "round_minutes": bad})
            assert r.status_code == 400, (bad, r.text)
            assert words in r.json()["error"] and "round_minutes" in r.json()["error"], r.text
        assert client.get("/api/tournaments").json() == {"open": [], "running": []}
        r = client.post("/api/tournaments", headers=csrf, json={"name": "No limit"})
        assert r.status_code == 201
        state = client.get(r.json()["url"].replace("/tournaments", "/api/tournaments")).json()
        assert state["round_minutes"] is None and state["round_ends_at"] is None


def test_a_table_end_its_finish_hook_missed_is_kept_by_the_drive(tmp_path: Any) -> None:
    # The hook that keeps a round table's end fails once (the database away a moment, or
    # the process dying between the table's last save and the hook): the drive keeps it.
    with TestClient(_site(f"sqlite+aiosqlite:///{tmp_path}/missed.db")) as client:
        the_site = site_of_app(client)
        assert the_site.tournaments is not None
        service = the_site.tournaments.service
        missed: list[str] = []
        keep = service.table_over

        async def fails_once(table_id: str, game: Any) -> str | None:
            if not missed:
                missed.append(table_id)
                raise OSError("the database went away a moment")
            return await keep(table_id, game)

        service.table_over = fails_once  # type: ignore[method-assign]
        csrf = sign_up(client, "ann")
        r = client.post("/api/tournaments", headers=csrf, json={
            "name": "Computers only", "hands": 1, "rounds": 1, "level": "easy",
            "preset": "stick-the-dealer"})
        tid = r.json()["id"]
        r = client.post(f"/api/tournaments/{tid}/start", headers=csrf, json={})
        assert r.status_code == 200, r.text
        table_id = r.json()["round_tables"][0]["tables"][0]["table_id"]
        deadline = time.monotonic() + 120
        while missed != [table_id]:  # four computers play the hand at once
            assert time.monotonic() < deadline, "the table never ended"
            time.sleep(0.02)
        stored = client.portal.call(the_site.store.get, table_id)  # type: ignore[union-attr]
        assert stored is not None and stored.status == FINISHED
        state = client.get(f"/api/tournaments/{tid}").json()
        assert state["status"] == "playing" and not state["round_tables"][0]["tables"][0]["over"]
        client.portal.call(drive, the_site)  # type: ignore[union-attr]
        state = client.get(f"/api/tournaments/{tid}").json()
        assert state["status"] == "finished" and state["round_tables"][0]["tables"][0]["over"]
        assert len(state["standings"]) == 4
