"""The whole online progressive tournament of 12 on a live server (uvicorn on a port, real
sockets): 8 people over WebSocket connections and 4 computers (three tables a round), 3
rounds of 1 hand, started by the drive in the server's background when the site's (fake)
clock reaches the start time. Every round is played to its end; the standings add up to
what the tables scored; and no socket ever got a card its seat may not see (each message,
as sent and as folded, against the game's record at that moment).

Kept fast: one hand a round, computers at once, the drive looking every 0.1 s, and no
sleep in the people's play: they wait on their sockets, and between rounds on one watcher
of the tournament's page (the only poll, 20 a second for everyone).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosedOK
from websockets.sync.client import connect

from euchre import actions as A
from euchre.cards import card_text
from euchre.game import GameState
from euchre.record import GameRecord
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.root import root_of
from euchre.server.tournaments import tournaments_api
from euchre.tournament import schedule
from live_server import live_server
from table_helpers import CARD_TEXTS, cards_in

pytestmark = pytest.mark.xdist_group("live_tournaments")

NAMES = ["ann", "bob", "cyd", "dee", "eve", "flo", "gus", "hal"]
COMPUTERS = [f"Computer {i} (computer)" for i in range(1, 5)]
T0 = dt.datetime(2026, 12, 6, 19, 0, tzinfo=dt.UTC)
ROUNDS = 3
WAIT = 120.0
"""Longest wait for the server to do a thing (a failure, never a pace)."""


class Watcher(threading.Thread):
    """Reads the tournament's page and wakes whoever waits for it to change."""

    def __init__(self, base: str, tid: str) -> None:
        super().__init__(daemon=True)
        self.base, self.tid = base, tid
        self.state: dict[str, Any] = {}
        self.looks = 0
        self.changed = threading.Condition()
        """Notified at each look at the page."""
        self.done = threading.Event()

    def run(self) -> None:
        with httpx.Client(base_url=self.base) as http:
            while not self.done.is_set():
                state = http.get(f"/api/tournaments/{self.tid}").json()
                with self.changed:
                    self.looks += 1
                    self.state = state
                    self.changed.notify_all()
                if state["status"] == "finished":
                    return
                self.done.wait(0.05)

    def next_look(self) -> None:
        """Wait for the watcher's next look at the page."""
        with self.changed:
            seen = self.looks
            assert self.changed.wait_for(lambda: self.looks > seen, WAIT), "no look"

    def table_after(self, name: str, after: int) -> tuple[int, dict[str, Any]] | None:
        """``name``'s table in the first round after ``after`` (None: the tournament is
        over), as soon as the page shows it."""
        deadline = time.monotonic() + WAIT
        with self.changed:
            while True:
                for rnd in self.state.get("round_tables", [])[after:]:
                    for table in rnd["tables"]:
                        if name in table["seats"]:
                            return rnd["round"], table
                if self.state.get("status") == "finished":
                    return None
                assert self.changed.wait(deadline - time.monotonic()), \
                    f"{name}: no table after round {after}"


class LivePerson(threading.Thread):
    """One person over real sockets: each round their table from the page, then random
    legal moves to the end of the game; every message kept to be checked."""

    def __init__(self, base: str, watcher: Watcher, name: str, token: str, seed: int) -> None:
        super().__init__(daemon=True)
        self.base, self.watcher, self.name, self.token = base, watcher, name, token
        self.rng = random.Random(seed)
        self.rounds: list[int] = []
        self.got: list[tuple[str, int, dict[str, Any]]] = []
        """(table id, seat, message) of every message received."""
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            played = 0
            while (found := self.watcher.table_after(self.name, played)) is not None:
                number, table = found
                self.play(table["table_id"], table["seats"].index(self.name))
                self.rounds.append(number)
                played = number
        except BaseException as e:  # reported by the test
            self.error = e

    def play(self, table_id: str, seat: int) -> None:
        # The page shows a round as it is seated; its tables open a moment later: a socket
        # that comes first is told no_table (and closed), and tries again after a look.
        deadline = time.monotonic() + WAIT
        while not self.play_once(table_id, seat):
            assert time.monotonic() < deadline, f"{self.name}: {table_id} never opened"
            self.watcher.next_look()

    def play_once(self, table_id: str, seat: int) -> bool:
        """Play the table to the end of its game; False if it is not open yet."""
        url = self.base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
        with connect(url) as ws:
            ws.send(json.dumps({"type": "join", "protocol": 2, "token": self.token}))
            waiting = False
            heard = False
            while True:
                try:
                    m = json.loads(ws.recv(timeout=60))
                except ConnectionClosedOK as e:
                    if heard:  # what it heard last, to explain a close in the game
                        last = [(x["type"], x.get("version"), x.get("event", {}).get("kind"))
                                for t, _, x in self.got[-6:] if t == table_id]
                        raise AssertionError(f"{self.name}: {table_id} closed ({e.rcvd}) "
                                             f"in the game after {last}") from e
                    return False  # closed before a word: no table yet (its error not sent)
                heard = True
                if m["type"] == "error" and m["code"] == "no_table":
                    return False
                self.got.append((table_id, seat, m))
                assert m["type"] != "error", m
                if m["type"] == "event" and m["event"]["kind"] == "action" \
                        and m["event"]["seat"] == seat:
                    waiting = False
                table = m.get("table")
                if table is None:
                    continue
                assert table["seat"] == seat
                if table["game_over"]:
                    return True
                view = table["view"]
                if m["version"] == table["version"] and not waiting and view \
                        and view["legal"]:
                    ws.send(json.dumps({"type": "action",
                                        "action": self.rng.choice(view["legal"])}))
                    waiting = True


def may_see(game: GameState, seat: int, table: dict[str, Any] | None) -> set[int]:
    """The cards ``seat`` may see at the moment the folded ``table`` shows: the first
    dealer's draw (face up), its own cards as dealt, the upcard, and the cards played so far
    in the hand. The view's history is the record's up to that moment, each entry as the
    record has it or with its card left out (another seat's discard; plays before the last
    trick, table law 11)."""
    if table is None:
        return set()
    drawn = {CARD_TEXTS[c["card"]] for c in (table["first_draw"] or {}).get("cards", [])}
    if not table["hand_number"] or table["view"] is None:
        return drawn
    hand = game.all_hands()[table["hand_number"] - 1]
    shown = table["view"]["history"]
    done = hand.history()[:len(shown)]
    assert len(done) == len(shown)
    for (seat_shown, text), (by, action) in zip(shown, done, strict=True):
        assert seat_shown == by and text in (str(action), action.kind), (shown, done)
    played = {a.card for _, a in done if a.kind == A.PLAY}
    return {*drawn, *hand.deal.hands[seat], hand.upcard, *played}


def test_a_tournament_of_twelve_on_a_live_server(tmp_path: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournaments_api, "DRIVE_EVERY", 0.1)  # the start, without the wait
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
                        "name": "Live night", "hands": 1, "rounds": ROUNDS, "fill_to": 12,
                        "level": "easy",
                        "starts_at": (T0 + dt.timedelta(minutes=30)).isoformat()})
                    assert r.status_code == 201, r.text
                    tid = r.json()["id"]
                r = http.post(f"/api/tournaments/{tid}/register", headers=csrf, json={})
                assert r.status_code == 201, r.text
                tokens[name] = r.json()["token"]
        watcher = Watcher(base, tid)
        people = [LivePerson(base, watcher, n, tokens[n], i) for i, n in enumerate(NAMES)]
        watcher.start()
        for p in people:
            p.start()
        now[0] = T0 + dt.timedelta(minutes=30)  # the server's own drive starts it
        for p in people:
            p.join(WAIT * ROUNDS)
        watcher.done.set()
        watcher.join(WAIT)
        assert [(p.name, p.error) for p in people if p.error or p.is_alive()] == []
        assert all(p.rounds == list(range(1, ROUNDS + 1)) for p in people)
        with httpx.Client(base_url=base) as http:
            state = http.get(f"/api/tournaments/{tid}").json()
            records = {t["table_id"]: GameRecord.from_text(
                http.get(f"/api/games/{t['table_id']}/record").text).replay()
                for r in state["round_tables"] for t in r["tables"]}
    assert state["status"] == "finished" and state["field"] == 12
    assert state["filled"] == "8 registered; 4 computers fill the count to 12"

    # Every round played to its end, seated as the schedule says.
    names = [*NAMES, *COMPUTERS]
    for rnd, plan in zip(state["round_tables"], schedule(12, ROUNDS), strict=True):
        assert [t["seats"] for t in rnd["tables"]] == [
            [names[a], names[b], names[c], names[d]] for (a, c), (b, d) in plan]
        for t in rnd["tables"]:
            game = records[t["table_id"]]
            assert t["over"] and game.is_over and len(game.all_hands()) == 1
            assert list(game.score) == t["side_points"]

    # The standings are what the tables scored: each person's side's points, round by round.
    lines = {s["name"]: s for s in state["standings"]}
    assert sorted(lines) == sorted(names)
    for name in names:
        mine = [next(t["side_points"][t["seats"].index(name) % 2]
                     for t in rnd["tables"] if name in t["seats"])
                for rnd in state["round_tables"]]
        assert lines[name]["rounds"] == mine and lines[name]["points"] == sum(mine), name
    assert sum(s["points"] for s in lines.values()) == 2 * sum(
        sum(t["side_points"]) for r in state["round_tables"] for t in r["tables"])

    # No socket got a card its seat may not see, in any message, as sent or as folded.
    checked = 0
    for p in people:
        table: dict[str, Any] | None = None
        at = ""
        for table_id, seat, message in p.got:
            if table_id != at:
                table, at = None, table_id  # a new table: nothing folded yet
            table = message.get("table", table)
            leaked = cards_in(message) - may_see(records[table_id], seat, table)
            assert not leaked, (p.name, seat, sorted(card_text(c) for c in leaked),
                                json.dumps(message))
            checked += 1
    assert checked > 8 * ROUNDS * 5
