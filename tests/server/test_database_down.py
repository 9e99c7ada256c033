"""PostgreSQL down under a live table: a move is refused with a clear message and nobody
sees it, ``/readyz`` says the database is down, and once it is back the game plays on
(computers too) with no version gap. The database is a real PostgreSQL behind a TCP proxy
that the test cuts off and brings back."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from euchre.record import GameRecord
from euchre.server import Settings, create_app
from euchre.server.root import root_of
from euchre.server.tables.practice_api import practice_extension
from euchre.storage.sql import SqlStore
from pg_proxy import Proxy, proxy_for
from testdb import drop_postgres, fresh_postgres, postgres_url

pytestmark = pytest.mark.skipif(postgres_url() is None,
                                reason="set EUCHRE_TEST_DATABASE_URL to a PostgreSQL server")


@pytest.fixture
def database() -> Iterator[tuple[str, Proxy]]:
    server = postgres_url()
    assert server is not None
    url = asyncio.run(fresh_postgres(server))
    proxy = proxy_for(url)
    try:
        yield url, proxy
    finally:
        proxy.close()
        asyncio.run(drop_postgres(url))


def _until(check: Any, what: str, tries: int = 400) -> None:
    """Poll ``check`` (bounded; never a time assertion)."""
    for _ in range(tries):
        if check():
            return
        time.sleep(0.05)
    pytest.fail(f"never: {what}")


class Seat:
    """One socket at one seat: every event in order, the table as last sent."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.versions: list[int] = []
        self.actions: list[tuple[int, str]] = []  # (seat, action) of every action event
        self.table: dict[str, Any] = {}

    def receive(self) -> dict[str, Any]:
        m: dict[str, Any] = self.ws.receive_json()
        if m["type"] == "snapshot":
            self.versions.append(m["version"])
            self.table = m["table"]
        elif m["type"] == "event":
            assert m["version"] == self.versions[-1] + 1, (self.versions[-1], m["version"])
            self.versions.append(m["version"])
            self.table = m["table"]
            if m["event"]["kind"] == "action":
                self.actions.append((m["event"]["seat"], m["event"]["action"]))
        return m

    def answer(self) -> dict[str, Any]:
        """The answer to a move: an error, or the move's action event (connection events
        before it are passed over)."""
        while True:
            m = self.receive()
            if m["type"] == "error" or (m["type"] == "event"
                                        and m["event"]["kind"] == "action"):
                return m

    def my_turn(self) -> bool:
        return bool(self.table.get("view", {}).get("legal")) \
            and self.table["version"] == self.versions[-1]

    def until_my_turn(self) -> None:
        while not self.my_turn():
            self.receive()


def test_a_move_is_refused_while_postgresql_is_down_and_the_game_goes_on_after(
        database: tuple[str, Proxy]) -> None:
    url, proxy = database
    settings = Settings(database_url=proxy.url(url), bot_delay=0.2, hand_pause=0.0)
    application = create_app(settings, [practice_extension()])
    with TestClient(application) as client:
        assert client.get("/readyz").json()["database"] == "ok"
        table = client.post("/api/tables", json={"kind": "practice"}).json()
        with client.websocket_connect(table["ws"]) as ws:
            seat = Seat(ws)
            ws.send_json({"type": "join", "protocol": 2, "token": table["token"]})
            assert seat.receive()["type"] == "joined"
            seat.until_my_turn()
            ws.send_json({"type": "ping"})
            while seat.receive()["type"] != "pong":  # whatever the join made is in
                pass
            before = seat.versions[-1]
            actions_before = len(seat.actions)
            move = seat.table["view"]["legal"][0]

            proxy.cut()  # PostgreSQL is gone
            ws.send_json({"type": "action", "action": move})
            m = seat.answer()
            assert m["type"] == "error" and m["code"] == "not_stored", m
            assert "could not be stored" in m["message"] and "try again" in m["message"]
            r = client.get("/readyz")
            assert r.status_code == 503
            assert r.json()["database"].startswith("unavailable")
            assert r.json()["saver"] != "ok"
            # Not made: no action was shown, and the move is still ours to make (a
            # connection event may have been shown meanwhile, so the version may move).
            assert len(seat.actions) == actions_before
            r = client.get(f"/api/tables/{table['id']}", params={"token": table["token"]})
            assert r.status_code == 200 and move in r.json()["view"]["legal"]

            proxy.restore()  # PostgreSQL is back
            _until(lambda: client.get("/readyz").json()["database"] == "ok",
                   "the database answers again")
            ws.send_json({"type": "action", "action": move})
            m = seat.answer()
            assert m["type"] == "event" and m["version"] > before  # in order: Seat checks
            assert m["event"]["kind"] == "action" and m["event"]["seat"] == 0

            # Down again while the computers are to move: they try again until it is back.
            metrics = root_of(application).metrics
            proxy.cut()
            _until(lambda: metrics.last_save_failed, "a computer's move failed to save")
            stuck = seat.versions[-1]
            proxy.restore()
            seat.until_my_turn()
            assert seat.versions[-1] > stuck
            for _ in range(3):  # and the game plays on
                ws.send_json({"type": "action", "action": seat.table["view"]["legal"][0]})
                assert seat.answer()["type"] == "event"
                seat.until_my_turn()
            assert seat.versions == list(range(seat.versions[0],
                                               seat.versions[0] + len(seat.versions)))
            assert client.get("/readyz").status_code == 200
            last = seat.versions[-1]
            saw = list(seat.actions)

    async def stored() -> Any:
        store = await SqlStore.open(url, run_migrations=False)
        try:
            return await store.get(table["id"])
        finally:
            await store.close()

    game = asyncio.run(stored())
    assert game is not None and game.version >= last
    record = GameRecord.from_json(game.record)
    played = [(s, str(a)) for h in record.hands for s, a in h.actions]
    # every move the socket was shown is stored, in the order it was shown (a discard
    # without its card: the card is hidden from the other seats)
    assert any(all(x[0] == y[0] and (x[1] == y[1] or y[1].startswith(x[1] + " "))
                   for x, y in zip(saw, played[k:k + len(saw)], strict=True))
               for k in range(len(played) - len(saw) + 1))
