"""A whole online progressive tournament on the whole site: 8 people over sockets and 4
computers (12: three tables), 3 rounds of 2 hands at ordinary online tables, the start driven
by the site's clock (a fake one), a person who leaves a round's table played by a computer for
that round and back at the next, standings and each person's results at the end.

The people play in threads, one socket each, random legal moves; nothing asserts on time.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

from euchre.record import GameRecord
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.root import Site, root_of
from euchre.server.tournaments.tournaments_api import drive
from euchre.table.actor.seats import TableConfig
from euchre.tournament import schedule

NAMES = ["ann", "bob", "cyd", "dee", "eve", "flo", "gus", "hal"]
T0 = dt.datetime(2026, 12, 6, 19, 0, tzinfo=dt.UTC)
_seeds = itertools.count()
WAIT = 120.0
"""Longest wait for the site to do a thing (a failure, never a pace)."""


def site(db_url: str) -> Starlette:
    """The whole site, computers at once, the cheapest password hashing."""
    return create_app(Settings(database_url=db_url, bot_delay=0.0, hand_pause=0.0,
                               seed_source=lambda: f"tour-{next(_seeds)}"),
                      accounts=AccountsOptions(password_profile="cheapest"))


def sign_up(client: TestClient, username: str) -> dict[str, str]:
    """Create an account (the client keeps its cookie); the CSRF header."""
    r = client.post("/api/accounts", json={"username": username, "password": "correct horse"})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


@contextlib.contextmanager
def cookies_of(client: TestClient, jar: dict[str, str]) -> Iterator[None]:
    """Requests with ``jar``'s cookies instead of the client's."""
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


def site_of_app(client: TestClient) -> Site:
    """The running app's site."""
    return root_of(client.app)


class Person(threading.Thread):
    """One person: finds their table each round on the tournament's page, joins it with
    their seat token and plays random legal moves to the end of the round."""

    def __init__(self, client: TestClient, tid: str, name: str, token: str, seed: int,
                 leave_round: int | None = None) -> None:
        super().__init__(daemon=True)
        self.client, self.tid, self.name, self.token = client, tid, name, token
        self.rng = random.Random(seed)
        self.leave_round = leave_round
        self.rounds: list[tuple[int, str, int]] = []
        """(round, table id, seat) of every table played."""
        self.error: BaseException | None = None
        self.leaks: list[Any] = []

    def run(self) -> None:
        try:
            self.play_all()
        except BaseException as e:  # reported by the test
            self.error = e

    def my_table(self, after: int) -> tuple[int, dict[str, Any]] | None:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            state = self.client.get(f"/api/tournaments/{self.tid}").json()
            for rnd in state["round_tables"][after:]:
                for table in rnd["tables"]:
                    if self.name in table["seats"]:
                        return rnd["round"], table
            if state["status"] == "finished":
                return None
            time.sleep(0.02)
        raise AssertionError(f"{self.name}: no table after round {after}: "
                             f"{state['round_tables']} {state['status']}")

    def play_all(self) -> None:
        played = 0
        while (found := self.my_table(played)) is not None:
            number, table = found
            seat = table["seats"].index(self.name)
            self.rounds.append((number, table["table_id"], seat))
            self.play(table["table_id"], seat, leave=number == self.leave_round)
            played = number

    def play(self, table_id: str, seat: int, leave: bool) -> None:
        # The round is on the page from the moment it is seated; its tables open just after.
        deadline = time.monotonic() + WAIT
        while not self.play_once(table_id, seat, leave):
            assert time.monotonic() < deadline, f"{self.name}: table {table_id} never opened"
            time.sleep(0.02)

    def play_once(self, table_id: str, seat: int, leave: bool) -> bool:
        """Play the table; False if it is not open yet."""
        with self.client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": self.token})
            first = ws.receive_json()
            if first["type"] == "error" and first["code"] == "no_table":
                return False
            pending = [first]
            if leave:
                r = self.client.post(f"/api/online/{table_id}/leave-game",
                                     json={"token": self.token})
                assert r.status_code == 200, r.text
                return True
            waiting = False
            while True:
                m = pending.pop() if pending else ws.receive_json()
                assert m["type"] != "error", m
                if m["type"] == "event" and m["event"]["kind"] == "action" \
                        and m["event"]["seat"] == seat:
                    waiting = False
                table = m.get("table")
                if table is None:
                    continue
                if table["seat"] != seat or (table["view"] is not None
                                             and table["view"]["seat"] != seat):
                    self.leaks.append(m)
                if table["game_over"]:
                    return True
                if m["version"] != table["version"] or waiting:
                    continue
                view = table["view"]
                if view and view["legal"]:
                    ws.send_json({"type": "action", "action": self.rng.choice(view["legal"])})
                    waiting = True


def test_a_tournament_of_twelve_over_sockets_on_the_fake_clock(tmp_path: Any) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/tour.db"
    with TestClient(site(url)) as client:
        the_site = site_of_app(client)
        now = [T0]
        the_site.tournaments.service.now = lambda: now[0]
        jars: dict[str, dict[str, str]] = {n: {} for n in NAMES}
        csrf: dict[str, dict[str, str]] = {}
        for name in NAMES:
            with cookies_of(client, jars[name]):
                csrf[name] = sign_up(client, name)
        with cookies_of(client, jars["ann"]):
            r = client.post("/api/tournaments", headers=csrf["ann"], json={
                "name": "Legion hall", "hands": 2, "rounds": 3, "seconds_per_move": 30,
                "starts_at": (T0 + dt.timedelta(hours=1)).isoformat(), "loner_bonus": True,
                "level": "easy", "fill_to": 12})
            assert r.status_code == 201, r.text
        tid = r.json()["id"]
        tokens: dict[str, str] = {}
        for name in NAMES:
            with cookies_of(client, jars[name]):
                r = client.post(f"/api/tournaments/{tid}/register", headers=csrf[name],
                                json={})
                assert r.status_code == 201, r.text
                tokens[name] = r.json()["token"]
        listed = client.get("/api/tournaments").json()
        assert [t["id"] for t in listed["open"]] == [tid] and listed["running"] == []
        state = client.get(f"/api/tournaments/{tid}").json()
        assert [p["name"] for p in state["people_in"]] == NAMES and state["status"] == \
            "registering"

        # The clock has not reached the start: the drive starts nothing.
        client.portal.call(drive, the_site)  # type: ignore[union-attr]
        assert client.get(f"/api/tournaments/{tid}").json()["status"] == "registering"
        now[0] = T0 + dt.timedelta(hours=1)
        people = [Person(client, tid, n, tokens[n], i, leave_round=2 if n == "cyd" else None)
                  for i, n in enumerate(NAMES)]
        client.portal.call(drive, the_site)  # type: ignore[union-attr]
        state = client.get(f"/api/tournaments/{tid}").json()
        assert state["status"] == "playing" and state["field"] == 12
        assert state["filled"] == "8 registered; 4 computers fill the count to 12"
        assert client.get("/api/tournaments").json()["running"][0]["id"] == tid
        for p in people:
            p.start()
        for p in people:
            p.join(WAIT * 4)
        for p in people:
            assert not p.is_alive(), f"{p.name} still plays"
        failed = [f"{p.name}: {type(p.error).__name__} {str(p.error)[:160]}"
                  for p in people if p.error is not None]
        assert not failed, "\n".join(failed)
        for p in people:
            assert p.leaks == []
        state = client.get(f"/api/tournaments/{tid}").json()
        assert state["status"] == "finished"
        plan = schedule(12, 3)
        # One name per computer for the whole tournament: its tables, the page, the standings.
        names = [*NAMES, *(f"Computer {i} (computer)" for i in range(1, 5))]
        for rnd, tables in zip(state["round_tables"], plan, strict=True):
            assert [t["seats"] for t in rnd["tables"]] == [
                [names[a], names[b], names[c], names[d]] for (a, c), (b, d) in tables]
            assert all(t["over"] for t in rnd["tables"])
            for t in rnd["tables"]:  # the table itself names its seats so too
                stored = client.portal.call(the_site.store.get, t["table_id"])  # type: ignore[union-attr]
                config = TableConfig.from_json(stored.meta["config"])
                assert [seat.name for seat in config.seats] == t["seats"]
        for p in people:
            assert [r for r, _, _ in p.rounds] == [1, 2, 3]
        # Cy left round 2's table: a computer played it, and Cy was back for round 3.
        cy = next(p for p in people if p.name == "cyd")
        left_table = cy.rounds[1][1]
        replay = client.get(f"/api/games/{left_table}/record").text
        assert "\nend " in replay
        lines = state["standings"]
        assert len(lines) == 12 and {s["name"] for s in lines} == set(names)
        keys = [(-s["points"], -s["loners_made"], s["euchred"], -s["rounds"][-1])
                for s in lines]
        assert keys == sorted(keys) and all(len(s["rounds"]) == 3 for s in lines)
        # Each table's points add up to what its games scored (the records say so).
        for rnd in state["round_tables"]:
            for t in rnd["tables"]:
                text = client.get(f"/api/games/{t['table_id']}/record").text
                game = GameRecord.from_text(text).replay()
                assert game.is_over and game.rules.hands_limit == 2
                assert list(game.score) == t["side_points"], t
        results = client.get("/api/people/ann/tournaments").json()["results"]
        ann = next(s for s in lines if s["name"] == "ann")
        assert results == [{"id": tid, "name": "Legion hall", "url": f"/tournaments/{tid}",
                            "place": ann["place"], "points": ann["points"], "field": 12,
                            "rounds": 3, "format": "progressive", "partner": None}]
        assert client.get("/api/tournaments").json() == {"open": [], "running": []}
        json.dumps(state)  # the page's answer is plain JSON
