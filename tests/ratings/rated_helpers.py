"""Four signed-in people at one rated online table, driven over HTTP and the table socket."""

from __future__ import annotations

import itertools
import random
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from addressed import Addressed, at
from euchre.accounts import COOKIE_NAME
from euchre.bots import make
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions

_seeds = itertools.count()

PEOPLE = ("Ann", "Bob", "Cyd", "Dee")
"""Who sits South, West, North and East."""


def app_for(database_url: str) -> Any:
    """The app at fast pacing (no computer delay, no pause between hands), taking each
    request's address from ``x-test-address`` (as ``euchre serve`` takes it from a trusted
    proxy's ``X-Forwarded-For``): each person plays from their own home, as a rated table
    requires."""
    settings = Settings(database_url=database_url, bot_delay=0.0, hand_pause=0.0,
                        bot_factory=lambda level, seed: make("easy", 7),
                        seed_source=lambda: f"rated-{next(_seeds)}")
    app = create_app(settings, accounts=AccountsOptions(password_profile="cheapest"))
    return Addressed(app)


class People:
    """Signed-in people sharing one test client: each request goes with one's cookie."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookies: dict[str, str] = {}
        self.csrf: dict[str, str] = {}
        self.addresses: dict[str | None, str] = {None: "10.20.255.1"}
        """Where each person plays from (each their own; guests share one)."""

    def address(self, name: str | None) -> dict[str, str]:
        """The headers naming ``name``'s address."""
        if name not in self.addresses:
            self.addresses[name] = f"10.20.0.{len(self.addresses)}"
        return at(self.addresses[name])

    def sign_up(self, name: str) -> None:
        """Create the account and keep its session."""
        self.client.cookies.clear()
        r = self.client.post("/api/accounts", json={"username": name,
                                                    "password": "correct horse"},
                             headers=self.address(name))
        assert r.status_code == 201, r.text
        self.cookies[name] = str(self.client.cookies.get(COOKIE_NAME))
        self.csrf[name] = r.json()["csrf"]

    def as_(self, name: str | None) -> TestClient:
        """The client with ``name``'s session (None: a guest)."""
        self.client.cookies.clear()
        if name is not None:
            self.client.cookies.set(COOKIE_NAME, self.cookies[name])
        return self.client

    def post(self, name: str | None, path: str, body: dict[str, Any],
             csrf: bool = True) -> Any:
        """POST as ``name`` (with the CSRF header unless told not to)."""
        headers = {"X-CSRF-Token": self.csrf[name]} if name is not None and csrf else {}
        return self.as_(name).post(path, json=body, headers={**headers, **self.address(name)})


def seat_four(people: People) -> tuple[str, list[str]]:
    """Sign up four people, open a rated table and seat them; (table id, tokens)."""
    for name in PEOPLE:
        people.sign_up(name)
    r = people.post("Ann", "/api/tables", {"kind": "online", "rated": True,
                                           "name": "ignored", "seconds_per_move": 60})
    assert r.status_code == 201, r.text
    table_id, tokens = r.json()["id"], [r.json()["token"]]
    for seat, name in enumerate(PEOPLE[1:], 1):
        r = people.post(name, f"/api/tables/{table_id}/seats", {"seat": seat})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    return table_id, tokens


class Seat:
    """One person's socket: keeps the latest table it was sent."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.table: dict[str, Any] = {}

    def read(self) -> dict[str, Any]:
        """One message."""
        m: dict[str, Any] = self.ws.receive_json()
        assert m["type"] != "error", m
        if "table" in m:
            self.table = m["table"]
        return m

    def act(self, action: str) -> None:
        """Send a move and read until the table has taken it."""
        self.ws.send_json({"type": "action", "action": action})
        while True:
            m = self.read()
            if m["type"] == "event" and m["event"]["kind"] == "action":
                return

    def catch_up(self, version: int) -> None:
        """Read until the table this socket knows is at ``version`` (or later)."""
        while self.table.get("version", -1) < version:
            self.read()


def play_to_the_end(client: TestClient, table_id: str, tokens: list[str], seed: int = 1
                    ) -> dict[str, Any]:
    """Each person joins with their token and plays random legal moves on their own socket
    until the game is over; returns South's last table."""
    rng = random.Random(seed)
    opened = [client.websocket_connect(f"/ws/tables/{table_id}") for _ in tokens]
    seats = [Seat(ws.__enter__()) for ws in opened]
    try:
        for seat, token in zip(seats, tokens, strict=True):
            seat.ws.send_json({"type": "join", "protocol": 2, "token": token})
            seat.read()  # joined
            seat.read()  # snapshot
        south = seats[0]
        while not south.table.get("game_over"):
            table = south.table
            to_act = table.get("to_act")
            if to_act is None:
                south.read()
                continue
            mover = seats[to_act]
            mover.catch_up(table["version"])
            view = mover.table["view"]
            if mover.table["version"] == table["version"] and view and view["legal"]:
                mover.act(rng.choice(view["legal"]))
                south.catch_up(mover.table["version"])
            else:
                south.read()
        return south.table
    finally:
        for ws in opened:
            ws.__exit__(None, None, None)
