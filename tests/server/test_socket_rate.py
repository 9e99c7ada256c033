"""Every table socket has a message rate (issue 20 item 4): a flood is told once, then the
socket is closed with 4429; a person's play, double clicks and reconnects included, never is.

The floods run against a live server (uvicorn on a real port) over real sockets. The rate's
clock is the test's own (a flood is "at once" because the clock does not move; a person's
"one move a second" because the test moves it), so nothing depends on the machine's pace.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from euchre.server import Given, Settings, create_app
from euchre.server.tables.practice_api import practice_extension
from euchre.server.tables.session import FREE_TRIES
from euchre.server.tables.socket_guard import SocketGuard, SocketLimits
from euchre.server.tables.socket_rate import TABLE_RATE, Bucket, MessageRate
from euchre.table.actor.pacing import LoopScheduler
from live_server import live_server


class FakeClock(LoopScheduler):
    """The loop's timers, with a clock only the test moves."""

    def __init__(self) -> None:
        self.t = 1000.0

    def now(self) -> float:
        """The test's time."""
        return self.t


def test_a_bucket_allows_a_burst_then_its_rate_and_takes_back_what_is_given() -> None:
    t = [0.0]
    bucket = Bucket(MessageRate(burst=3, per_second=2.0), lambda: t[0])
    assert [bucket.take() for _ in range(4)] == [True, True, True, False]
    t[0] += 0.5  # one token back
    assert [bucket.take(), bucket.take()] == [True, False]
    bucket.give_back()  # an accepted move
    assert bucket.take() and not bucket.take()
    t[0] += 100.0  # never more than a burst
    for _ in range(10):
        bucket.give_back()
    assert sum(bucket.take() for _ in range(10)) == 3


@contextmanager
def served(limits: SocketLimits, clock: FakeClock) -> Iterator[str]:
    """A live server whose socket guard keeps ``limits`` on ``clock``; its base URL."""
    app = create_app(Settings(bot_delay=0.0, hand_pause=0.0, database_url="memory:"),
                     [practice_extension()], given=Given(socket_guard=SocketGuard(limits, clock)))
    with live_server(app) as url:
        yield url


def open_table(base: str) -> dict[str, Any]:
    """A practice table against easy computers."""
    r = httpx.post(f"{base}/api/tables", json={"kind": "practice", "partner": "easy",
                                               "left": "easy", "right": "easy"})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


@contextmanager
def joined(base: str, table: dict[str, Any]) -> Iterator[ClientConnection]:
    """A socket joined to the person's seat."""
    with connect(base.replace("http://", "ws://") + table["ws"]) as ws:
        ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
        yield ws


def until_closed(ws: ClientConnection) -> tuple[list[dict[str, Any]], ConnectionClosed]:
    """Every message until the server closes the socket, and the close."""
    messages = []
    while True:
        try:
            messages.append(json.loads(ws.recv(timeout=30)))
        except ConnectionClosed as closed:
            return messages, closed


def test_a_flood_of_illegal_moves_is_told_once_then_closed_and_a_reconnect_plays() -> None:
    clock = FakeClock()
    with served(SocketLimits(), clock) as base:
        table = open_table(base)
        with joined(base, table) as ws:
            flood = json.dumps({"type": "action", "action": "play 9Z"})  # never a card
            with contextlib.suppress(ConnectionClosed):  # it may close while these go out
                for _ in range(500):
                    ws.send(flood)
            messages, closed = until_closed(ws)
        errors = [m for m in messages if m["type"] == "error"]
        # The join took one token: the rest of the burst answered (and the first tries at
        # the seat's own turn, if it came meanwhile, are free), then one flood error.
        codes = [e["code"] for e in errors]
        assert codes[-1] == "rate_limited" and set(codes[:-1]) == {"illegal"}
        assert TABLE_RATE.burst - 1 <= len(codes) - 1 <= TABLE_RATE.burst - 1 + FREE_TRIES
        assert messages[-1] == errors[-1]  # nothing after it
        assert "too many messages" in errors[-1]["message"]
        assert closed.rcvd is not None and closed.rcvd.code == 4429
        assert closed.rcvd.reason == "too many messages: reconnect later"
        # The same person reconnects at once: a new socket, joined, and playing.
        with joined(base, table) as again:
            while True:
                m = json.loads(again.recv(timeout=30))
                assert m["type"] != "error", m
                t = m.get("table")
                if t and m["version"] == t["version"] and t["view"]["legal"]:
                    break
            again.send(json.dumps({"type": "action", "action": t["view"]["legal"][0]}))
            while True:
                m = json.loads(again.recv(timeout=30))
                assert m["type"] != "error", m
                if m["type"] == "event" and m["event"].get("seat") == 0:
                    break


def test_a_whole_game_of_double_clicks_is_never_refused() -> None:
    """Every move sent twice at once, a move a second: the first is played, the second
    refused as the game refuses it (never for the rate), and the socket plays to the end."""
    clock = FakeClock()
    with served(SocketLimits(), clock) as base, joined(base, open_table(base)) as ws:
        moves = seconds = 0
        codes: list[str] = []
        waiting = False
        while True:
            m = json.loads(ws.recv(timeout=30))
            if m["type"] == "error":
                codes.append(m["code"])
                continue
            event = m.get("event") or {}
            if event.get("kind") == "action" and event.get("seat") == 0:
                waiting = False
            t = m.get("table")
            if not t or m["version"] != t["version"]:
                continue
            if t["game_over"]:
                break
            if t["view"]["legal"] and not waiting:
                clock.t += 1.0
                seconds += 1
                click = json.dumps({"type": "action", "action": t["view"]["legal"][0]})
                ws.send(click)
                ws.send(click)
                waiting = True
                moves += 1
        ws.send(json.dumps({"type": "ping"}))  # still open, still answered
        while (m := json.loads(ws.recv(timeout=30)))["type"] != "pong":
            assert m["type"] != "error" or m["code"] != "rate_limited"
    assert moves >= 20  # more than a burst of double clicks
    assert "rate_limited" not in codes
    assert codes and set(codes) <= {"illegal"}


def test_a_bots_fast_play_is_held_only_by_the_game() -> None:
    """A client that answers every turn at once (as a bot does), with no time passing at
    all: its accepted moves give their tokens back, so a whole game goes through."""
    clock = FakeClock()  # never moved: a burst is all it could send if moves counted
    with served(SocketLimits(), clock) as base, joined(base, open_table(base)) as ws:
        moves = 0
        waiting = False
        while True:
            m = json.loads(ws.recv(timeout=30))
            assert m["type"] != "error", m
            event = m.get("event") or {}
            if event.get("kind") == "action" and event.get("seat") == 0:
                waiting = False
            t = m.get("table")
            if not t or m["version"] != t["version"]:
                continue
            if t["game_over"]:
                break
            if t["view"]["legal"] and not waiting:
                ws.send(json.dumps({"type": "action", "action": t["view"]["legal"][-1]}))
                waiting = True
                moves += 1
    assert moves > TABLE_RATE.burst


def socket_from(address: str, base: str, path: str) -> ClientConnection:
    """A socket to ``path`` whose connection comes from ``address`` (a loopback address)."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), source_address=(address, 0))
    return connect(base.replace("http://", "ws://") + path, sock=sock)


def flood_once(ws: ClientConnection, token: str) -> int | None:
    """Join, flood until closed; the close code."""
    ws.send(json.dumps({"type": "join", "protocol": 2, "token": token}))
    with contextlib.suppress(ConnectionClosed):
        for _ in range(100):
            ws.send(json.dumps({"type": "ping"}))
    _, closed = until_closed(ws)
    return closed.rcvd.code if closed.rcvd else None


def test_an_address_that_keeps_flooding_is_refused_new_sockets_for_a_minute() -> None:
    clock = FakeClock()
    with served(SocketLimits(), clock) as base:
        table = open_table(base)
        for _ in range(3):
            with socket_from("127.0.0.5", base, table["ws"]) as ws:
                assert flood_once(ws, table["token"]) == 4429
        with socket_from("127.0.0.5", base, table["ws"]) as ws:  # refused on opening
            messages, closed = until_closed(ws)
            assert messages == [] and closed.rcvd is not None and closed.rcvd.code == 4429
            assert closed.rcvd.reason == "too many messages from your address: wait 60 seconds"
        with socket_from("127.0.0.6", base, table["ws"]) as ws:  # another address: no flood
            ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "joined"
        clock.t += 60.0  # the minute has passed
        with socket_from("127.0.0.5", base, table["ws"]) as ws:
            ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "joined"
