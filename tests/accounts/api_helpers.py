"""Helpers for the accounts API tests: an app with fast settings, sign-up, a socket player."""

from __future__ import annotations

import itertools
import random
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient, WebSocketTestSession

from euchre.bots import make
from euchre.server import Given, Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.core.limit_settings import LimitSettings

_seeds = itertools.count()


def fast_bots(level: str, seed: int | None) -> Any:
    """Quick computer players (the coin table asks for hard ones; tests use easy)."""
    return make("easy", 7)


def app_for(database_url: str, *, given: Given | None = None,
            limits: LimitSettings | None = None, **options: Any) -> Starlette:
    """The app with zero bot delay, quick bots, the cheapest argon2 profile (``given``:
    parts of the site made beforehand, ``limits``: other limit settings)."""
    settings = Settings(database_url=database_url, bot_delay=0.0, hand_pause=0.0,
                        bot_factory=fast_bots, limits=limits or LimitSettings(),
                        seed_source=lambda: f"api-{next(_seeds)}")
    return create_app(settings, accounts=AccountsOptions(password_profile="cheapest", **options),
                      given=given)


def sign_up(client: TestClient, username: str, password: str = "correct horse"
            ) -> dict[str, Any]:
    """Create an account (the client keeps the cookie); returns the body."""
    r = client.post("/api/accounts", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def open_coin(client: TestClient, csrf: str, stake: Any = 100, **extra: Any
              ) -> tuple[int, dict[str, Any]]:
    """POST a coin table; (status, body)."""
    r = client.post("/api/tables", json={"kind": "coin", "stake": stake, **extra},
                    headers={"X-CSRF-Token": csrf})
    return r.status_code, r.json()


def balance(client: TestClient) -> int:
    """The signed-in balance."""
    value: int = client.get("/api/me").json()["balance"]
    return value


class SocketPlayer:
    """Plays seat 0 over the table socket with random legal moves."""

    def __init__(self, ws: WebSocketTestSession, seed: int = 0) -> None:
        self.ws = ws
        self.rng = random.Random(seed)
        self.table: dict[str, Any] = {}
        self.waiting = False
        self.clocks: list[dict[str, Any] | None] = []
        """The table's clock at each of our turns."""

    def receive(self) -> dict[str, Any]:
        """One message (keeps the latest table)."""
        m: dict[str, Any] = self.ws.receive_json()
        assert m["type"] != "error", m
        if "table" in m:
            self.table = m["table"]
        if m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
            self.waiting = False
        return m

    def _my_turn(self, m: dict[str, Any]) -> bool:
        return (m["type"] == "event" and not self.waiting
                and m["version"] == m["table"]["version"]
                and bool(m["table"]["view"] and m["table"]["view"]["legal"]))

    def play(self, moves: int | None = None) -> None:
        """Make ``moves`` moves (None: to the end of the game)."""
        made = 0
        while moves is None or made < moves:
            m = self.receive()
            if self.table.get("game_over") and m.get("version") == self.table["version"]:
                return
            if self._my_turn(m):
                self.clocks.append(m["table"]["clock"])
                self.ws.send_json({"type": "action",
                                   "action": self.rng.choice(self.table["view"]["legal"])})
                self.waiting = True
                made += 1
        while self.waiting:
            self.receive()
