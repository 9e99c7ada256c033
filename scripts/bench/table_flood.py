"""A flood at one online table (issue 13, item 10), for the flood-isolation test and the abuse
benchmark: everything a client can throw at a table's socket and seats, counted by the answer
it got.

``quiet_table(base)`` opens table A: Ann (seat 0) and Mal (seat 1) are people, the computers
fill the rest, a 600-second clock; it is played until it is Ann's turn, then left (so nothing
changes at A unless the flood gets through). ``flood(base, table, stop)`` then floods it as Mal
and as strangers until ``stop()`` says so, each round:

- Mal's socket: junk (not JSON, JSON that is not a message, unknown types, a message over the
  size limit), moves for other seats (every bid and a run of plays while it is Ann's turn),
  a second join; more than a socket's message rate allows, so it is told ``rate_limited``
  and closed (4429), and Mal joins again on a new socket (from another address) for the
  next round;
- spectators from five addresses up to and past the table's cap, then leaving and coming
  back with old ``since`` values (each join and leave is an event for every subscriber);
- more sockets on Mal's seat than the cap per seat;
- joins with forged tokens, and seat claims over HTTP at a started table.

Run as a script it floods until its standard input closes, printing ``ready`` once the
spectators are at the cap, ``round N`` after each round, and the counts (one JSON object) at
the end::

    python scripts/bench/table_flood.py BASE_URL TABLE_ID MAL_TOKEN
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from bench_load import folded_table
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

FLOOD_ADDRESSES = [f"127.0.13.{n}" for n in range(1, 6)]
"""Where the spectators come from (five addresses, so the per-address cap is not the one met)."""

SPECTATORS_EACH = 26
"""Spectator sockets tried from each address: 130 in all, past the table's cap of 100."""

MOVES = ["pass", "order", "order alone", "call H", "call S alone", "defend", "farmer keep",
         "discard 9H", "play AS", "play JH", "play 9C", "play TD", "play KS", "play JK"]
"""Moves sent for another seat's turn (any of them may be legal for Ann, none for Mal now)."""



@dataclass
class QuietTable:
    """Table A, left at Ann's turn."""

    id: str
    """The table id."""
    ann: str
    """Ann's seat token (seat 0)."""
    mal: str
    """Mal's seat token (seat 1)."""
    ws: str
    """The socket path."""


def ws_url(base: str, path: str) -> str:
    """The socket URL of ``path`` on the server at ``base``."""
    return base.replace("http://", "ws://") + path


async def recv(ws: ClientConnection, timeout: float = 30.0) -> dict[str, Any] | None:
    """The next message (None when closed or after ``timeout``)."""
    try:
        raw = await asyncio.wait_for(ws.recv(), timeout)
    except (TimeoutError, ConnectionClosed):
        return None
    message: dict[str, Any] = json.loads(raw)
    return message


async def quiet_table(base: str, address: str = "127.0.13.9") -> QuietTable:
    """Open table A (Ann and Mal, easy computers) and play Mal's turns until it is Ann's."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        made = (await http.post("/api/tables", json={
            "kind": "online", "name": "Ann", "level": "easy",
            "seconds_per_move": 600})).json()
        mal = (await http.post(f"/api/tables/{made['id']}/seats",
                               json={"seat": 1, "name": "Mal"})).json()
        started = await http.post(f"/api/tables/{made['id']}/start",
                                  json={"token": made["token"]})
        assert started.status_code == 200, started.text
    rng = random.Random(1)
    async with connect(ws_url(base, made["ws"]), local_addr=(address, 0)) as ws:
        await ws.send(json.dumps({"type": "join", "protocol": 2, "token": mal["token"]}))
        waiting = False  # Mal's move was sent and has not come back yet
        while True:
            m = await recv(ws)
            assert m is not None and m["type"] != "error", m
            event = m.get("event") or {}
            if event.get("kind") == "action" and event.get("seat") == 1:
                waiting = False
            t = folded_table(ws, m)
            if waiting or not t or m["version"] != t["version"] or not t["view"]:
                continue
            if t["view"]["to_act"] == 0:
                break
            if t["view"]["legal"]:
                await ws.send(json.dumps({"type": "action",
                                          "action": rng.choice(t["view"]["legal"])}))
                waiting = True
    return QuietTable(made["id"], made["token"], mal["token"], made["ws"])


@dataclass
class Flood:
    """What the flood got back, by kind of attempt and answer."""

    counts: Counter[str] = field(default_factory=Counter)
    """``"what: answer"`` -> how many times."""
    most_watching: int = 0
    """The most spectator sockets joined at once."""

    def note(self, what: str, answer: str) -> None:
        """Count one answer."""
        self.counts[f"{what}: {answer}"] += 1


async def _drain(ws: ClientConnection) -> None:
    with contextlib.suppress(Exception):
        while True:
            await ws.recv()


class _Spectators:
    """The flood's spectator sockets at table A, each drained by its own task."""

    def __init__(self, base: str, path: str, out: Flood) -> None:
        self.base, self.path, self.out = base, path, out
        self.open: list[tuple[ClientConnection, asyncio.Task[None]]] = []

    async def join(self, address: str, since: int | None) -> None:
        """One more spectator from ``address``; its answer counted."""
        try:
            ws = await connect(ws_url(self.base, self.path), local_addr=(address, 0),
                               open_timeout=30)
        except Exception as e:
            self.out.note("spectator", f"not opened ({type(e).__name__})")
            return
        try:
            await ws.send(json.dumps({"type": "watch", "protocol": 2, "since": since}))
        except ConnectionClosed as e:  # refused on opening (the address's cap)
            self.out.note("spectator", f"closed {e.rcvd.code if e.rcvd else 'open'}")
            return
        m = await recv(ws)
        if m is not None and m["type"] == "joined":
            self.open.append((ws, asyncio.create_task(_drain(ws))))
            self.out.most_watching = max(self.out.most_watching, len(self.open))
            self.out.note("spectator", "joined")
            return
        if m is not None and m["type"] == "error":
            self.out.note("spectator", f"error {m['code']}")
        with contextlib.suppress(Exception):
            await ws.wait_closed()
        code = ws.close_code if ws.close_code is not None else "open"
        self.out.note("spectator", f"closed {code}")
        with contextlib.suppress(Exception):
            await ws.close()

    async def leave(self, n: int) -> None:
        """The ``n`` oldest spectators go."""
        going, self.open = self.open[:n], self.open[n:]
        for ws, task in going:
            task.cancel()
            with contextlib.suppress(Exception):
                await ws.close()

    async def close(self) -> None:
        """Every spectator goes."""
        await self.leave(len(self.open))


async def _join_mal(base: str, table: QuietTable, n: int) -> tuple[ClientConnection, int]:
    """Mal's ``n``-th socket joined to Mal's seat, and the table's version then. Each comes
    from an address of its own: an address whose sockets were closed for their rate three
    times in a minute may open no more for a while."""
    address = FLOOD_ADDRESSES[3] if n == 0 else f"127.0.14.{n % 250 + 1}"
    ws = await connect(ws_url(base, table.ws), local_addr=(address, 0))
    await ws.send(json.dumps({"type": "join", "protocol": 2, "token": table.mal}))
    joined = await recv(ws)
    assert joined is not None and joined["type"] == "joined", joined
    return ws, int(joined["version"])


async def _mal_round(ws: ClientConnection, table: QuietTable, out: Flood) -> bool:
    """Junk and moves for other seats on Mal's socket, then read every answer; False if
    the server closed the socket (its message rate: told once, then closed)."""
    junk: list[str] = ["not json", "[1, 2, 3]", '{"type": "dance"}', '{"type": "action"}',
                       json.dumps({"type": "action", "action": "x" * 5000}),
                       json.dumps({"type": "join", "protocol": 2, "token": table.mal})]
    sent = [("junk", text) for text in junk]
    sent += [("move for another seat", json.dumps({"type": "action", "action": a}))
             for a in MOVES]
    with contextlib.suppress(ConnectionClosed):  # closed for its rate while sending
        for _, text in sent:
            await ws.send(text)
        await ws.send(json.dumps({"type": "ping"}))
    while True:
        m = await recv(ws)
        if m is None:
            with contextlib.suppress(Exception):
                await ws.wait_closed()
            code = ws.close_code if ws.close_code is not None else "open"
            out.note("Mal's socket", f"closed {code}")
            return False
        if m["type"] == "pong":
            return True
        if m["type"] == "error":
            out.note("Mal's message", f"error {m['code']}")


async def _extra_seat_sockets(base: str, table: QuietTable, out: Flood) -> None:
    """Six more sockets on Mal's seat (the cap is four a seat): joined or refused."""
    sockets = []
    for _ in range(6):
        ws = await connect(ws_url(base, table.ws), local_addr=(FLOOD_ADDRESSES[0], 0))
        await ws.send(json.dumps({"type": "join", "protocol": 2, "token": table.mal}))
        m = await recv(ws)
        out.note("another socket on Mal's seat",
                 "joined" if m and m["type"] == "joined" else f"error {m and m.get('code')}")
        sockets.append(ws)
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()


async def _forged(base: str, table: QuietTable, out: Flood, http: httpx.AsyncClient,
                  rng: random.Random) -> None:
    """A join with a forged token, and seat claims at the started table."""
    async with connect(ws_url(base, table.ws), local_addr=(FLOOD_ADDRESSES[1], 0)) as ws:
        await ws.send(json.dumps({"type": "join", "token": f"forged-{rng.random()}",
            "protocol": 2}))
        m = await recv(ws)
        out.note("forged token", f"error {m and m.get('code')}")
    for seat in (1, 2, 3):
        r = await http.post(f"/api/tables/{table.id}/seats", json={"seat": seat, "name": "Eve"})
        out.note("seat claim", str(r.status_code))


async def flood(base: str, table: QuietTable, stop: Callable[[], bool],
                ready: Callable[[], None] | None = None,
                done_round: Callable[[int], None] | None = None) -> Flood:
    """Flood table A until ``stop()``; ``ready()`` is called once the spectators are at the
    cap, ``done_round(n)`` after each round. Returns the counts of every answer."""
    out = Flood()
    rng = random.Random(13)
    spectators = _Spectators(base, table.ws, out)
    transport = httpx.AsyncHTTPTransport(local_address=FLOOD_ADDRESSES[2])
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        mal, version = await _join_mal(base, table, 0)
        for address in FLOOD_ADDRESSES:  # up to and past the cap
            await asyncio.gather(*(spectators.join(address, None)
                                   for _ in range(SPECTATORS_EACH)))
        if ready is not None:
            ready()
        rounds = 0
        while not stop():
            rounds += 1
            if not await _mal_round(mal, table, out):  # closed for its rate: Mal reconnects
                mal, version = await _join_mal(base, table, rounds)
            await spectators.leave(10)
            address = FLOOD_ADDRESSES[rounds % len(FLOOD_ADDRESSES)]
            await asyncio.gather(*(spectators.join(address, rng.choice(
                [None, 0, max(0, version - rng.randrange(1, 50))])) for _ in range(14)))
            if rounds % 5 == 1:
                await _extra_seat_sockets(base, table, out)
                await _forged(base, table, out, http, rng)
            if done_round is not None:
                done_round(rounds)
        out.counts["rounds"] = rounds
        await spectators.close()
        await mal.close()
    return out


async def _until_stdin_closes(stopped: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    stopped.set()


async def _main(base: str, table_id: str, mal: str) -> None:
    stopped = asyncio.Event()
    waiter = asyncio.create_task(_until_stdin_closes(stopped))
    table = QuietTable(table_id, "", mal, f"/ws/tables/{table_id}")
    result = await flood(base, table, stopped.is_set, lambda: print("ready", flush=True),
                         lambda n: print(f"round {n}", flush=True))
    waiter.cancel()
    print(json.dumps({"counts": dict(result.counts), "most_watching": result.most_watching}),
          flush=True)


if __name__ == "__main__":
    asyncio.run(_main(*sys.argv[1:4]))
