"""People at a live server (a thread, or a real process): accounts over HTTP, and four table
sockets playing random legal moves, for the stake tables' end-to-end and crash tests."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import httpx
from sqlalchemy import func, select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from euchre.storage.accounts_models import ledger_entries
from euchre.storage.sql import make_engine
from euchre.storage.stake_models import stake_pots

PASSWORD = "correct horse"


_homes = itertools.count(1)


class Person:
    """A signed-up person with their own cookies and CSRF token, at an address of their own
    (``X-Forwarded-For``, which the test server takes from 127.0.0.1, a trusted proxy, as
    ``euchre serve`` takes it from nginx): a rated table seats one person per address."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        self.name = name
        self.address = f"10.30.{next(_homes) % 250}.{len(name) % 250 + 1}"
        """Where this person plays from."""
        self.http = httpx.Client(base_url=base, timeout=60,
                                 headers={"X-Forwarded-For": self.address})
        r = self.http.post("/api/accounts", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        self.csrf: str = r.json()["csrf"]

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        """POST with the CSRF header."""
        return self.http.post(path, json=body, headers={"X-CSRF-Token": self.csrf})

    def balance(self) -> int:
        """The balance now."""
        return int(self.http.get("/api/me").json()["balance"])

    def ledger(self) -> list[tuple[str, int]]:
        """(reason, amount) of every entry, newest first."""
        return [(e["reason"], e["amount"])
                for e in self.http.get("/api/me/ledger").json()["entries"]]

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()


def stake_table(people: list[Person], stake: int, seconds: float = 60) -> tuple[str, list[str]]:
    """The first person opens a table with ``stake``, the others take seats 1-3 in order;
    (table id, seat tokens)."""
    r = people[0].post("/api/tables", {"kind": "online", "stake": stake,
                                       "seconds_per_move": seconds})
    assert r.status_code == 201, r.text
    table_id, tokens = r.json()["id"], [r.json()["token"]]
    for seat, person in enumerate(people[1:], 1):
        r = person.post(f"/api/tables/{table_id}/seats", {"seat": seat})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    return table_id, tokens


class Players:
    """Four table sockets, one per seat, each playing random legal moves on its turn."""

    def __init__(self, base: str, table_id: str, tokens: list[str], seed: int = 1) -> None:
        ws_base = base.replace("http://", "ws://")
        self.rng = random.Random(seed)
        self.sockets: dict[int, ClientConnection] = {}
        self.tables: dict[int, dict[str, Any]] = {}
        self.events: dict[int, list[dict[str, Any]]] = {s: [] for s in range(4)}
        self.errors: dict[int, list[dict[str, Any]]] = {s: [] for s in range(4)}
        self.moves = dict.fromkeys(range(4), 0)
        self._waiting: set[int] = set()  # seats whose move has not come back yet
        self._stack = contextlib.ExitStack()
        for seat, token in enumerate(tokens):
            ws = self._stack.enter_context(connect(f"{ws_base}/ws/tables/{table_id}"))
            ws.send(json.dumps({"type": "join", "protocol": 2, "token": token}))
            self.sockets[seat] = ws

    def _read(self, seat: int, timeout: float) -> bool:
        ws = self.sockets.get(seat)
        if ws is None:
            return False
        try:
            m = json.loads(ws.recv(timeout=timeout))
        except TimeoutError:
            return False
        except ConnectionClosed:
            del self.sockets[seat]
            return False
        if m["type"] == "error":
            self.errors[seat].append(m)
            self._waiting.discard(seat)
        if m["type"] == "event":
            self.events[seat].append(m["event"])
            if m["event"].get("kind") == "action" and m["event"].get("seat") == seat:
                self._waiting.discard(seat)
        if "table" in m:
            self.tables[seat] = m["table"]
        return True

    def over(self) -> bool:
        """Whether every open, seated socket's table says the game is over."""
        seated = [t for s, t in self.tables.items() if s in self.sockets]
        return bool(seated) and all(t.get("game_over") for t in seated)

    def play(self, until: Callable[[Players], bool], idle: frozenset[int] = frozenset(),
             rounds: int = 200_000) -> None:
        """Read and move (seats in ``idle`` only read) until ``until(self)``."""
        for _ in range(rounds):
            if until(self):
                return
            got = False
            for seat in list(self.sockets):
                while self._read(seat, 0.0):
                    got = True
                table = self.tables.get(seat)
                if seat in idle or table is None or table.get("game_over"):
                    continue
                view = table.get("view")
                # Not again until the move comes back: events that change no turn (away,
                # replaced, clocks) bring new versions of a table where it is still our turn.
                turn = (table.get("to_act") == seat and view and view.get("legal")
                        and seat not in self._waiting)
                if turn:
                    self._waiting.add(seat)
                    self.sockets[seat].send(json.dumps(
                        {"type": "action", "action": self.rng.choice(view["legal"])}))
                    self.moves[seat] += 1
                    got = True
            if not got and self.sockets:
                self._read(next(iter(self.sockets)), 0.05)
        raise AssertionError("the game did not get there")

    def close(self) -> None:
        """Close every socket."""
        self.sockets.clear()
        self._stack.close()


def leave_at_once(base: str, table_id: str, token: str, times: int) -> list[httpx.Response]:
    """``times`` leave-game requests for one seat, sent at once (asyncio.gather)."""

    async def run() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            return list(await asyncio.gather(*(
                http.post(f"/api/online/{table_id}/leave-game", json={"token": token})
                for _ in range(times))))

    return asyncio.run(run())


async def pot_figures(db_url: str, table_id: str) -> dict[str, Any]:
    """The pot's row and the ledger's sums for the table, by reason, and each key's count."""
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            pot = (await conn.execute(select(stake_pots).where(
                stake_pots.c.table_id == table_id))).first()
            sums = dict((await conn.execute(
                select(ledger_entries.c.reason, func.sum(ledger_entries.c.amount))
                .where(ledger_entries.c.table_id == table_id)
                .group_by(ledger_entries.c.reason))).all())
            keys = (await conn.execute(
                select(ledger_entries.c.key, func.count())
                .where(ledger_entries.c.table_id == table_id)
                .group_by(ledger_entries.c.key))).all()
    finally:
        await engine.dispose()
    assert pot is not None
    return {"status": pot.status, "winner": pot.winner, "paid_out": pot.paid_out,
            "house": pot.house, "sums": {k: int(v) for k, v in sums.items()},
            "key_counts": {k: int(c) for k, c in keys}}


def check_no_coin_created_or_lost(figures: dict[str, Any], pot: int) -> None:
    """The stakes taken equal the payouts plus the house; no key was applied twice."""
    sums = figures["sums"]
    assert -sums["stake"] == pot
    assert -sums["stake"] == sums.get("payout", 0) + sums.get("refund", 0) + figures["house"]
    assert sums.get("payout", 0) == figures["paid_out"]
    assert set(figures["key_counts"].values()) == {1}


def stake_app(database_url: str, scheduler: Any = None) -> Any:
    """The whole site at fast pacing (no computer delay, no pause between hands), easy
    computers, the cheapest password hashing (``scheduler``: the tables' clock)."""
    import itertools

    from euchre.bots import make
    from euchre.server import Settings, create_app
    from euchre.server.accounts.accounts_api import AccountsOptions
    from limits_helpers import roomy_limits

    seeds = itertools.count()
    settings = Settings(database_url=database_url, bot_delay=0.0, hand_pause=0.0,
                        limits=roomy_limits(),
                        bot_factory=lambda level, seed: make("easy", seed),
                        seed_source=lambda: f"stake-{next(seeds)}", scheduler=scheduler)
    app = create_app(settings, accounts=AccountsOptions(password_profile="cheapest"))
    return app


