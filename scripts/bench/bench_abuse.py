"""Abuse benchmark: each attack of issue 9 against a real server, while another table plays.

Starts ``euchre serve`` (uvicorn, one worker, SQLite in a temporary folder) on loopback only,
with ``--rate-loopback``: the attackers' loopback addresses (127.0.0.2 and up) have their
socket openings rated as any client's would be.
A separate process plays a practice table (easy computers, short bot delay) the whole time,
measuring the time from sending a move to receiving the event that applies it. Each attack
then runs for a bounded time from its own loopback address (127.0.0.N, so the per-address
limits of one attack do not spill into the next), at a lower CPU priority than the server
(``--nice``: real attackers are on other machines), and the script prints one line per attack:
what the attack was, what the server answered, and the other table's p50/p99 during it.

Usage: python scripts/bench/bench_abuse.py [--seconds 5] [--only NAME ...] [--redis-url URL]
       [--nice 10] [--tables 4]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing as mp
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_load import cpu_seconds, folded_table, free_port, percentile, wait_healthy
from table_flood import flood, quiet_table

PASSWORD = "correct horse battery"
VICTIM = f"victim-{os.getpid() % 100000}"
"""The account attacked (a new name each run: counts kept in Redis outlive a run)."""


# -- the other table ---------------------------------------------------------------------


async def _measure(base: str, out: Any, stop: Any, tables: int) -> None:
    """Play ``tables`` practice tables at once; put (when, latency) on out."""
    addresses = (f"127.4.{n // 250}.{n % 250 + 1}" for n in itertools.count())
    await asyncio.gather(*(_play(base, out, stop, random.Random(7 + i), addresses)
                           for i in range(tables)))


async def _play(base: str, out: Any, stop: Any, rng: random.Random,
                addresses: Iterator[str]) -> None:
    """Play practice tables one after another, each opened from a new loopback address
    (the tables per address limit is for attackers); put (when, latency) on out."""
    ws_base = base.replace("http://", "ws://")
    while not stop.is_set():
        async with client_at(base, next(addresses)) as http:
            r = await http.post("/api/tables", json={
                "kind": "practice", "partner": "easy", "left": "easy", "right": "easy"})
            r.raise_for_status()
            table = r.json()
        async with connect(ws_base + table["ws"], max_size=2**22) as ws:
            await ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            sent_at: float | None = None
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except TimeoutError:
                    continue
                m = json.loads(raw)
                if m["type"] == "event" and m["event"]["kind"] == "action" \
                        and m["event"]["seat"] == 0 and sent_at is not None:
                    now = time.monotonic()
                    out.put((now, now - sent_at))
                    sent_at = None
                if m["type"] == "error":
                    sent_at = None
                t = folded_table(ws, m)
                if t is None or m.get("version") != t["version"] or sent_at is not None:
                    continue
                if t["game_over"]:
                    break
                legal = t["view"]["legal"] if t["view"] else []
                if legal and m["type"] == "event":
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({"type": "action",
                                              "action": rng.choice(legal)}))



def measure_forever(base: str, out: Any, stop: Any, tables: int) -> None:
    """The measuring process's body."""
    asyncio.run(_measure(base, out, stop, tables))


# -- helpers -----------------------------------------------------------------------------


def client_at(base: str, address: str, **kwargs: Any) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``address`` (a loopback address)."""
    transport = httpx.AsyncHTTPTransport(local_address=address, retries=0,
                                         limits=httpx.Limits(max_connections=100))
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=30, **kwargs)


def ws_at(base: str, path: str, address: str) -> Any:
    """A WebSocket connection to ``path`` from ``address``."""
    return connect(base.replace("http://", "ws://") + path, local_addr=(address, 0),
                   max_size=2**24, open_timeout=30)


def counts(statuses: Sequence[int | str]) -> str:
    """``201×3, 429×97`` in order of first appearance."""
    c = Counter(statuses)
    return ", ".join(f"{k}×{v}" for k, v in c.items()) or "nothing"


async def for_a_while(seconds: float, make: Callable[[], Awaitable[int | str]],
                      concurrency: int) -> list[int | str]:
    """Run ``make`` from ``concurrency`` workers until ``seconds`` pass; every answer."""
    stop_at = time.monotonic() + seconds
    answers: list[int | str] = []

    async def worker() -> None:
        while time.monotonic() < stop_at:
            try:
                answers.append(await make())
            except (httpx.HTTPError, OSError) as e:
                answers.append(type(e).__name__)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return answers


async def recv_json(ws: ClientConnection, timeout: float = 5.0) -> dict[str, Any] | None:
    """The next message, or None after ``timeout`` or when closed."""
    try:
        raw = await asyncio.wait_for(ws.recv(), timeout)
    except (TimeoutError, ConnectionClosed):
        return None
    message: dict[str, Any] = json.loads(raw)
    return message


async def my_turn(ws: ClientConnection, timeout: float = 20.0) -> dict[str, Any] | None:
    """Wait until the seat has legal moves; the table then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        m = await recv_json(ws, deadline - time.monotonic())
        if m is None:
            return None
        t: dict[str, Any] | None = folded_table(ws, m)
        if t and m.get("version") == t["version"] and t["view"] and t["view"]["legal"]:
            return t
    return None


# -- the attacks -------------------------------------------------------------------------


@dataclass
class Attack:
    """One attack: its name (issue item) and what it does; returns what the server said."""

    name: str
    run: Callable[[str, float], Awaitable[str]]


async def sign_in_burst(base: str, seconds: float) -> str:
    """Item 1: parallel wrong passwords for one username, then a burst with the right one
    last, then guesses until the time is up."""
    async with client_at(base, "127.0.0.10") as c:
        r = await c.post("/api/accounts", json={"username": VICTIM, "password": PASSWORD})
        assert r.status_code == 201, r.text
    async with client_at(base, "127.0.0.11") as c:
        async def guess(password: str) -> int:
            r = await c.post("/api/session", json={"username": VICTIM,
                                                   "password": password})
            return r.status_code

        first = await asyncio.gather(*(guess(f"guess {i}") for i in range(40)))
        burst = await asyncio.gather(*(guess(f"again {i}") for i in range(29)),
                                     guess(PASSWORD))
        rest = await for_a_while(max(0.0, seconds - 1), lambda: guess("more"), 10)
    return (f"40 parallel wrong: {counts(list(first))}; burst of 30, right one last: "
            f"{counts(list(burst))} (signed in: {'yes' if 200 in burst else 'no'}); "
            f"then {counts(rest)}")


async def sign_up_taken(base: str, seconds: float) -> str:
    """Item 9: sign-ups with a taken name (enumeration), then with new names (coin farming)."""
    async with client_at(base, "127.0.0.12") as c:
        async def taken() -> int:
            r = await c.post("/api/accounts", json={"username": VICTIM,
                                                    "password": PASSWORD})
            return r.status_code

        answers = await for_a_while(seconds / 2, taken, 10)
    names = iter(range(10**6))
    async with client_at(base, "127.0.0.13") as c:
        async def farm() -> int:
            r = await c.post("/api/accounts", json={"username": f"farm{next(names)}",
                                                    "password": PASSWORD})
            return r.status_code

        farmed = await for_a_while(seconds / 2, farm, 10)
    return f"taken name: {counts(answers)}; new names: {counts(farmed)}"


async def table_flood(base: str, seconds: float) -> str:
    """Item 4: anonymous practice tables as fast as one client can ask."""
    async with client_at(base, "127.0.0.14") as c:
        async def practice() -> int:
            return (await c.post("/api/tables", json={"kind": "practice"})).status_code

        answers = await for_a_while(seconds, practice, 20)
    return f"practice tables: {counts(answers)}"


async def online_hoard(base: str, seconds: float) -> str:
    """Item 3: one client opens online tables to fill every open slot."""
    async with client_at(base, "127.0.0.15") as c:
        async def online() -> int:
            r = await c.post("/api/tables", json={"kind": "online", "name": "Hoarder"})
            return r.status_code

        answers = await for_a_while(seconds, online, 20)
        r = await c.post("/api/tables", json={"kind": "online", "name": "Hoarder"})
        wait = r.headers.get("retry-after")
    async with client_at(base, "127.0.0.20") as c:
        other = (await c.post("/api/tables", json={"kind": "online", "name": "Other"}))
    return (f"online tables: {counts(answers)} (Retry-After {wait} s); "
            f"another client then: {other.status_code}")


async def online_readers(base: str, seconds: float) -> str:
    """Item 3: 450 open tables from 150 addresses, then four clients read the list in a loop
    (two the first page, two every page)."""
    async def fill(n: int) -> None:
        async with client_at(base, f"127.0.2.{n}") as c:
            for _ in range(3):
                await c.post("/api/tables", json={"kind": "online", "name": f"P{n}"})

    for batch in range(0, 150, 25):
        await asyncio.gather(*(fill(n) for n in range(batch + 1, batch + 26)))
    sizes: list[int] = []
    reads = 0

    async def reader(i: int) -> None:
        nonlocal reads
        stop_at = time.monotonic() + seconds
        async with client_at(base, f"127.0.3.{i + 1}") as c:
            while time.monotonic() < stop_at:
                cursor: str | None = None
                while True:
                    r = await c.get("/api/online", params={"cursor": cursor} if cursor else {})
                    reads += 1
                    sizes.append(len(r.content))
                    cursor = r.json().get("next") if i >= 2 else None
                    if not cursor or time.monotonic() >= stop_at:
                        break

    await asyncio.gather(*(reader(i) for i in range(4)))
    mean = sum(sizes) / len(sizes) / 1000
    return (f"{reads} reads of GET /api/online ({reads / seconds:.0f}/s), "
            f"largest answer {max(sizes) / 1000:.0f} kB, mean {mean:.0f} kB")


async def nested_json(base: str, seconds: float) -> str:
    """Item 7: deeply nested JSON over HTTP (each on a new connection) and on a socket,
    again and again until the time is up."""
    depth = 8000  # 16 kB: within the body size limit
    body = "[" * depth + "]" * depth

    async def over_http() -> str:
        async with client_at(base, "127.0.0.21") as c:
            try:
                r = await c.post("/api/tables", content=body,
                                 headers={"content-type": "application/json"})
            except httpx.HTTPError:
                return "connection dropped"
            return f"{r.status_code} {r.headers.get('content-type', '?').split(';')[0]}"

    async with client_at(base, "127.0.0.21") as c:
        table = (await c.post("/api/tables", json={"kind": "practice"})).json()

    async def on_socket() -> str:
        async with ws_at(base, table["ws"], "127.0.0.21") as ws:
            await ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            await recv_json(ws)
            try:
                await ws.send('{"type": "action", "action": ' + body + "}")
                m = await recv_json(ws)
                while m is not None and m.get("type") != "error":  # table events go on
                    m = await recv_json(ws)
                answer = f"error {m.get('code')}" if m and m.get("type") == "error" else (
                    "no answer" if m is None else m.get("type", "?"))
                await ws.send(json.dumps({"type": "ping"}))
                pong = await recv_json(ws)
            except ConnectionClosed:
                answer, pong = "no answer", None
            kept = "socket kept" if pong and pong.get("type") == "pong" else "socket dropped"
            return f"{answer}, {kept}"

    http = await for_a_while(seconds / 2, over_http, 4)
    sock = await for_a_while(seconds / 2, on_socket, 4)
    return f"HTTP: {counts(http)}; socket: {counts(sock)}"


async def hint_hog(base: str, seconds: float) -> str:
    """Item 10: one client asks for hints at two tables at once, all the time; another
    client asks at its own table."""
    async def table_at(address: str) -> tuple[Any, dict[str, Any]]:
        async with client_at(base, address) as c:
            made = (await c.post("/api/tables", json={"kind": "practice"})).json()
        ws = await ws_at(base, made["ws"], address).__aenter__()
        await ws.send(json.dumps({"type": "join", "protocol": 2, "token": made["token"]}))
        await my_turn(ws)
        return ws, made

    hog = [await table_at("127.0.0.22") for _ in range(2)]
    other = await table_at("127.0.0.23")
    stop_at = time.monotonic() + seconds
    answers: dict[str, list[str]] = {"hog": [], "other": []}

    async def ask(ws: Any, who: str) -> None:
        while time.monotonic() < stop_at:
            await ws.send(json.dumps({"type": "hint"}))
            while True:
                m = await recv_json(ws, 10)
                if m is None:
                    answers[who].append("none")
                    return
                if m["type"] == "hint":
                    answers[who].append("hint")
                    break
                if m["type"] == "error":
                    text = m.get("message", "")
                    answers[who].append("busy" if "busy" in text else
                                        "own share used" if "already" in text else
                                        m.get("code", "error"))
                    await asyncio.sleep(0.05)
                    break

    await asyncio.gather(*(ask(ws, "hog") for ws, _ in hog), ask(other[0], "other"))
    for ws, _ in [*hog, other]:
        await ws.close()
    return f"hog (2 tables): {counts(answers['hog'])}; other client: {counts(answers['other'])}"


async def headers_and_names(base: str, seconds: float) -> str:
    """Item 11: security headers, display names that pass for a computer, and invite links
    built from a forged Host header, asked again and again until the time is up."""
    wanted = ["content-security-policy", "x-frame-options", "x-content-type-options",
              "referrer-policy"]
    present: set[str] = set()
    async with client_at(base, "127.0.0.24") as c:
        async def page() -> int:
            r = await c.get("/")
            present.update(h for h in wanted if h in r.headers)
            return r.status_code

        async def name() -> int:
            r = await c.post("/api/tables", json={"kind": "online", "name": "North (hard)"})
            return r.status_code

        await for_a_while(seconds / 2, page, 4)
        names = await for_a_while(seconds / 2, name, 4)
    async with client_at(base, "127.0.0.28") as c:
        forged = await c.post("/api/tables", json={"kind": "online", "name": "Ann"},
                              headers={"host": "evil.example"})
        invite = forged.json().get("invite", "") if forged.status_code == 201 else ""
    host = ("forged host used" if "evil.example" in invite else
            "configured host" if invite else f"refused ({forged.status_code})")
    return (f"headers {len(present)}/4 ({', '.join(sorted(present)) or 'none'}); "
            f"name 'North (hard)': {counts(names)}; invite link: {host}")


async def idle_sockets(base: str, seconds: float) -> str:
    """Item 2: 400 sockets that never join, held open."""
    async with client_at(base, "127.0.0.25") as c:
        made = (await c.post("/api/tables", json={"kind": "practice"})).json()
    opened: list[Any] = []
    refused = 0
    for _ in range(400):
        try:
            opened.append(await ws_at(base, made["ws"], "127.0.0.25").__aenter__())
        except (OSError, ConnectionClosed, Exception):
            refused += 1
    await asyncio.sleep(seconds)
    closed = 0
    for ws in opened:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.ping(), 1)
            continue
        closed += 1
    for ws in opened:
        with contextlib.suppress(Exception):
            await ws.close()
    return (f"400 sockets never joining: {len(opened)} opened, {refused} refused, "
            f"{closed} closed by the server after {seconds:g} s")


async def fan_out(base: str, seconds: float) -> str:
    """Item 2: 300 sockets joined to one seat of a table that is being played."""
    async with client_at(base, "127.0.0.26") as c:
        made = (await c.post("/api/tables", json={"kind": "practice"})).json()
    joined = refused = 0
    watchers: list[Any] = []
    for _ in range(300):
        try:
            ws = await ws_at(base, made["ws"], "127.0.0.26").__aenter__()
        except Exception:
            refused += 1
            continue
        await ws.send(json.dumps({"type": "join", "protocol": 2, "token": made["token"]}))
        m = await recv_json(ws, 5)
        if m is not None and m.get("type") != "error":
            joined += 1
            watchers.append(ws)
        else:
            refused += 1
            with contextlib.suppress(Exception):
                await ws.close()

    async def drain(ws: Any) -> None:
        with contextlib.suppress(Exception):
            while True:
                await ws.recv()

    drains = [asyncio.create_task(drain(ws)) for ws in watchers[1:]]
    rng = random.Random(3)
    stop_at = time.monotonic() + seconds
    moves = 0
    if watchers:
        player = watchers[0]
        while time.monotonic() < stop_at:
            t = await my_turn(player, max(0.1, stop_at - time.monotonic()))
            if t is None:
                break
            await player.send(json.dumps({"type": "action",
                                          "action": rng.choice(t["view"]["legal"])}))
            moves += 1
    for task in drains:
        task.cancel()
    for ws in watchers:
        with contextlib.suppress(Exception):
            await ws.close()
    return f"300 sockets on one seat: {joined} joined, {refused} refused; {moves} moves played"


async def old_rejoin(base: str, seconds: float) -> str:
    """Item 12: a rejoin with an old ``since`` after a table has moved on."""
    async with client_at(base, "127.0.0.27") as c:
        made = (await c.post("/api/tables", json={"kind": "practice"})).json()
    rng = random.Random(5)
    async with ws_at(base, made["ws"], "127.0.0.27") as ws:
        await ws.send(json.dumps({"type": "join", "protocol": 2, "token": made["token"]}))
        stop_at = time.monotonic() + seconds
        version = 0
        while time.monotonic() < stop_at:
            t = await my_turn(ws, max(0.1, stop_at - time.monotonic()))
            if t is None:
                break
            version = t["version"]
            await ws.send(json.dumps({"type": "action", "action": rng.choice(t["view"]["legal"])}))
    total = 0
    async with ws_at(base, made["ws"], "127.0.0.27") as ws:
        await ws.send(json.dumps({"type": "join", "token": made["token"], "since": 1,
            "protocol": 2}))
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), 1.0)
            except (TimeoutError, ConnectionClosed):
                break
            total += len(raw)
    return f"rejoin with since=1 at version {version}: {total / 1000:.1f} kB sent back"


async def one_table_flood(base: str, seconds: float) -> str:
    """Issue 13 item 10: a flood at one online table (``scripts/bench/table_flood.py``: junk,
    moves for other seats, spectators past the cap and churning, sockets past a seat's cap,
    forged tokens, seat claims), the table's game checked unchanged after."""
    table = await quiet_table(base)

    async def game() -> Any:
        async with client_at(base, "127.0.13.9") as c:
            t = (await c.get(f"/api/tables/{table.id}",
                             headers={"X-Seat-Token": table.ann})).json()
        return t["hand_number"], t["view"]["history"], t["view"]["to_act"]

    before = await game()
    stop_at = time.monotonic() + seconds
    got = await flood(base, table, lambda: time.monotonic() >= stop_at)
    unchanged = await game() == before
    c = got.counts

    def n(key: str) -> int:
        return c.get(key, 0)

    junk, moves = n("Mal's message: error bad_message"), n("Mal's message: error illegal")
    seat = n("another socket on Mal's seat: error too_many")
    return (f"{c['rounds']} rounds: spectators joined×{n('spectator: joined')} (at most "
            f"{got.most_watching} at once), refused×{n('spectator: closed 4429')}; "
            f"junk: bad_message×{junk}; moves for other seats: illegal×{moves}; seat "
            f"sockets refused×{seat}; forged token: bad_token×"
            f"{n('forged token: error bad_token')}; seat claims: 409×{n('seat claim: 409')}; "
            f"the table's game unchanged: {'yes' if unchanged else 'NO'}")


async def seat_hoard(base: str, seconds: float) -> str:
    """Issue 13 item 10: one client presses Play now without end (each time another clock,
    so each would open a table) and claims seats at others' tables; another then plays."""
    async with client_at(base, "127.0.0.30") as c:
        clocks = iter(range(10**9))

        async def play_now() -> str:
            r = await c.post("/api/online/quick",
                             json={"name": "Hoarder", "seconds_per_move": 5 + next(clocks) % 500})
            return f"{r.status_code} {r.json().get('code', '')}".strip()

        answers = await for_a_while(seconds, play_now, 20)
    async with client_at(base, "127.0.0.31") as c:
        other = await c.post("/api/online/quick", json={"name": "Other"})
    return f"Play now: {counts(answers)}; another client then: {other.status_code}"


async def lobby_sockets(base: str, seconds: float) -> str:
    """Issue 13 item 10: one address opens 100 lobby sockets and floods one with pings;
    a lobby elsewhere still hears of a table opened, at once."""
    opened: list[Any] = []
    refused = 0
    for _ in range(100):
        try:
            ws = await ws_at(base, "/ws/lobby", "127.0.0.32").__aenter__()
            if await recv_json(ws, 5) is None:
                raise OSError("closed")
            opened.append(ws)
        except Exception:
            refused += 1
    pings = 0
    stop_at = time.monotonic() + seconds

    cut = "not closed"

    async def flood() -> None:
        nonlocal pings, cut
        ws = opened[0]
        try:
            while time.monotonic() < stop_at:
                await ws.send('{"type": "ping"}')
                pings += 1
                if pings % 100 == 0:
                    await asyncio.sleep(0)
        except ConnectionClosed as e:
            cut = f"closed by the server ({e.rcvd.code if e.rcvd else '?'})"

    async def drain(ws: Any) -> None:
        with contextlib.suppress(Exception):
            while time.monotonic() < stop_at + 1:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(ws.recv(), 1)

    heard: list[float] = []

    async def watcher() -> None:
        async with ws_at(base, "/ws/lobby", "127.0.0.33") as ws, \
                client_at(base, "127.0.0.34") as c:
            await recv_json(ws)
            while time.monotonic() < stop_at:
                sent = time.monotonic()
                made = (await c.post("/api/online/quick", json={
                    "name": "Watcher", "seconds_per_move": 7})).json()
                while True:
                    message = await recv_json(ws)
                    if message is None or (message.get("table") or {}).get("id") == made["id"]:
                        break
                heard.append(time.monotonic() - sent)
                await c.post(f"/api/online/{made['id']}/leave", json={"token": made["token"]})
                await asyncio.sleep(0.2)

    await asyncio.gather(flood(), watcher(), *(drain(ws) for ws in opened))
    for ws in opened:
        with contextlib.suppress(Exception):
            await ws.close()
    heard.sort()
    median = heard[len(heard) // 2] * 1000 if heard else float("nan")
    return (f"100 lobby sockets from one address: {len(opened)} open, {refused} refused; "
            f"{pings} pings sent on one, {cut}; another lobby heard {len(heard)} tables opened, "
            f"median {median:.1f} ms from the request")


async def move_flood(base: str, seconds: float) -> str:
    """Issue 20 item 4: illegal moves as fast as they are answered, from 12 sockets (three
    addresses, four practice tables each, each socket joined to its seat, at most 50
    messages unanswered); a socket the server closes opens again at once, and again if
    refused."""
    got: Counter[str] = Counter()
    stop_at = time.monotonic() + seconds
    move = json.dumps({"type": "action", "action": "play 9Z"})  # never legal: no such card

    async def one(address: str) -> None:
        async with client_at(base, address) as c:
            made = (await c.post("/api/tables", json={"kind": "practice"})).json()
        while time.monotonic() < stop_at:
            answers = 0
            try:
                async with ws_at(base, made["ws"], address) as ws:
                    await ws.send(json.dumps({"type": "join", "token": made["token"],
                        "protocol": 2}))
                    while time.monotonic() < stop_at:
                        for _ in range(50):
                            await ws.send(move)
                        answered = 0
                        while answered < 50:
                            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                            answers += 1
                            if message["type"] == "error":
                                got[message["code"]] += 1
                                answered += 1
            except ConnectionClosed as e:
                code = e.rcvd.code if e.rcvd else "?"
                got[f"closed {code}" if answers else f"refused on opening {code}"] += 1
            except TimeoutError:
                got["no answer"] += 1

    await asyncio.gather(*(one(f"127.0.20.{a}") for a in (1, 2, 3) for _ in range(4)))
    return (f"12 sockets: {', '.join(f'{k}×{v}' for k, v in got.items())}; "
            f"illegal moves answered {got['illegal'] / seconds:.0f}/s")


async def hint_flood(base: str, seconds: float) -> str:
    """Issue 20 item 5: three addresses flood hint asks from four sockets each (four practice
    tables each; each socket asks again as soon as it is answered, and opens again if
    closed); a fourth person asks for a hint, waits for it, and asks again after a pause."""
    stop_at = time.monotonic() + seconds
    flood: Counter[str] = Counter()
    mine: list[str] = []
    waits: list[float] = []

    def kind(m: dict[str, Any]) -> str:
        if m["type"] == "hint":
            return "hint"
        text = m.get("message", "")
        return ("busy" if "busy" in text else "own share" if "already" in text
                else m.get("code", "error"))

    async def table(address: str) -> dict[str, Any]:
        async with client_at(base, address) as c:
            made: dict[str, Any] = (await c.post("/api/tables", json={"kind": "practice"})).json()
        return made

    async def flooder(address: str) -> None:
        made = await table(address)
        while time.monotonic() < stop_at:
            try:
                async with ws_at(base, made["ws"], address) as ws:
                    await ws.send(json.dumps({"type": "join", "token": made["token"],
                        "protocol": 2}))
                    if await my_turn(ws) is None:
                        return
                    while time.monotonic() < stop_at:
                        await ws.send(json.dumps({"type": "hint"}))
                        while (m := json.loads(await asyncio.wait_for(ws.recv(), 30))
                               )["type"] not in ("hint", "error"):
                            pass
                        flood[kind(m)] += 1
            except ConnectionClosed as e:
                flood[f"closed {e.rcvd.code if e.rcvd else '?'}"] += 1
                await asyncio.sleep(0.05)
            except (TimeoutError, OSError):
                flood["no answer"] += 1

    async def person() -> None:
        address = "127.0.20.9"
        made = await table(address)
        async with ws_at(base, made["ws"], address) as ws:
            await ws.send(json.dumps({"type": "join", "protocol": 2, "token": made["token"]}))
            if await my_turn(ws) is None:
                return
            await asyncio.sleep(0.5)  # the flood gets going first
            while time.monotonic() < stop_at:
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "hint"}))
                while (m := json.loads(await asyncio.wait_for(ws.recv(), 30))
                       )["type"] not in ("hint", "error"):
                    pass
                mine.append(kind(m))
                if m["type"] == "hint":
                    waits.append(time.monotonic() - sent)
                await asyncio.sleep(0.3)

    await asyncio.gather(person(), *(flooder(f"127.0.20.{a}") for a in (5, 6, 7)
                                     for _ in range(4)))
    waits.sort()
    took = (f" (median {waits[len(waits) // 2]:.2f} s, longest {waits[-1]:.2f} s)"
            if waits else "")
    return (f"floods (12 sockets): {', '.join(f'{k}×{v}' for k, v in flood.items())}; "
            f"another person: {counts(list(mine))}{took}")


async def replay_readers(base: str, seconds: float) -> str:
    """Issue 34 item 8: a practice game played to its end from one address, then 24 readers
    at once from that address read its replay over and over (each read rebuilt it before)."""
    address = "127.0.0.34"
    async with client_at(base, address) as c:
        made = (await c.post("/api/tables", json={"kind": "practice"})).json()
    rng = random.Random(34)
    async with ws_at(base, made["ws"], address) as ws:
        await ws.send(json.dumps({"type": "join", "token": made["token"]}))
        while (m := await recv_json(ws, 60.0)) is not None:
            t = m.get("table")
            if t is None or m.get("version") != t["version"]:
                continue
            if t["game_over"]:
                break
            if t["view"] and t["view"]["legal"]:
                await ws.send(json.dumps({"type": "action",
                                          "action": rng.choice(t["view"]["legal"])}))
    async with client_at(base, address) as c:
        path = f"/api/games/{made['id']}/replay"
        size = len((await c.get(path)).content)

        async def read() -> int:
            return (await c.get(path)).status_code

        answers = await for_a_while(seconds, read, 24)
    return f"24 readers of one replay ({size / 1000:.0f} kB): {counts(answers)}"


STORM_ADDRESSES = [f"127.0.34.{n}" for n in range(1, 13)]
"""The reconnect storm's 12 attackers: loopback addresses the server rates (it is started
with ``--rate-loopback``; only 127.0.0.1 and ::1 stay unrated)."""


async def reconnect_storm(base: str, seconds: float) -> str:
    """Issue 34 item 4: 12 addresses open and close sockets to one table as fast as they
    can (four loops each), never joining: the shape of the probe that made 6,056 opens in
    10 s, all accepted. A refused opening is closed by the server with 4429 as soon as it
    is accepted, before anything else is done for it."""
    from websockets.exceptions import InvalidStatus

    async with client_at(base, "127.0.34.100") as c:
        made = (await c.post("/api/tables", json={"kind": "practice"})).json()

    def storm(address: str) -> Callable[[], Awaitable[int | str]]:
        async def once() -> int | str:
            try:
                async with ws_at(base, made["ws"], address) as ws:
                    pass  # closed at once; a refused one was closed by the server first
            except InvalidStatus as e:
                return f"refused {e.response.status_code}"
            except (OSError, ConnectionClosed, TimeoutError) as e:
                return type(e).__name__
            return "closed 4429" if ws.close_code == 4429 else "opened"
        return once

    answers = await asyncio.gather(*(for_a_while(seconds, storm(a), 4)
                                     for a in STORM_ADDRESSES))
    every = [a for one in answers for a in one]
    return (f"12 addresses opening and closing sockets: {len(every)} tries "
            f"({len(every) / seconds:.0f}/s): {counts(every)}")


ATTACKS = [
    Attack("1 sign-in guesses at once", sign_in_burst),
    Attack("9 sign-ups: taken name, farming", sign_up_taken),
    Attack("4 practice table flood", table_flood),
    Attack("3 online table hoard", online_hoard),
    Attack("3 online list readers", online_readers),
    Attack("7 nested JSON", nested_json),
    Attack("10 hint hog", hint_hog),
    Attack("11 headers, names, Host", headers_and_names),
    Attack("2 sockets that never join", idle_sockets),
    Attack("2 fan-out to one seat", fan_out),
    Attack("12 rejoin with an old since", old_rejoin),
    Attack("13.10 flood at one online table", one_table_flood),
    Attack("13 Play now and seat hoard", seat_hoard),
    Attack("13 lobby sockets", lobby_sockets),
    Attack("20.4 illegal moves, 12 sockets", move_flood),
    Attack("20.5 hint flood, 12 sockets", hint_flood),
    Attack("34.8 replay readers", replay_readers),
    Attack("34.4 reconnect storm, 12 addresses", reconnect_storm),
]


# -- driver ------------------------------------------------------------------------------


def summary(latencies: list[tuple[float, float]], start: float, end: float) -> str:
    """p50/p99 of the other table's moves between ``start`` and ``end``."""
    ms = [lat * 1000 for when, lat in latencies if start <= when <= end]
    if not ms:
        return "no moves measured"
    return f"p50 {percentile(ms, 50):.1f} ms, p99 {percentile(ms, 99):.1f} ms ({len(ms)} moves)"


async def run_attacks(base: str, attacks: list[Attack], seconds: float, out: Any,
                      latencies: list[tuple[float, float]], server_pid: int | None
                      ) -> list[tuple[str, str, float, float, float | None]]:
    """Each attack in turn; (name, answer, start, end, server CPU seconds)."""
    rows = []

    def drain() -> None:
        while True:
            try:
                latencies.append(out.get_nowait())
            except Exception:
                return

    await asyncio.sleep(2.0)  # the other table gets going
    start = time.monotonic()
    cpu = cpu_seconds(server_pid) if server_pid else None
    await asyncio.sleep(seconds)
    rows.append(("baseline (no attack)", "-", start, time.monotonic(),
                 cpu_seconds(server_pid) - cpu if server_pid and cpu is not None else None))
    for attack in attacks:
        start = time.monotonic()
        cpu = cpu_seconds(server_pid) if server_pid else None
        try:
            answer = await asyncio.wait_for(attack.run(base, seconds), seconds * 6 + 60)
        except Exception as e:  # report, go on with the next attack
            answer = f"the attack failed: {type(e).__name__}: {e}"
        end = time.monotonic()
        drain()
        used = cpu_seconds(server_pid) - cpu if server_pid and cpu is not None else None
        rows.append((attack.name, answer, start, end, used))
        await asyncio.sleep(1.0)  # let the server settle between attacks
    start = time.monotonic()
    cpu = cpu_seconds(server_pid) if server_pid else None
    await asyncio.sleep(seconds)
    drain()
    rows.append(("baseline again (no attack)", "-", start, time.monotonic(),
                 cpu_seconds(server_pid) - cpu if server_pid and cpu is not None else None))
    return rows


def forget_loopback_counts(redis_url: str) -> None:
    """Delete the counts an earlier run left in Redis for the loopback addresses (windows
    last up to an hour, and every run attacks from the same addresses)."""
    from redis import Redis

    from euchre.limits.redis import PREFIX

    client = Redis.from_url(redis_url)
    try:
        stale = list(client.scan_iter(match=f"{PREFIX}*:127.*", count=1000))
        if stale:
            client.delete(*stale)
    finally:
        client.close()


def main() -> int:
    """Start a server, run the attacks, print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per attack")
    parser.add_argument("--only", nargs="*", default=None,
                        help="run only attacks whose name contains one of these words")
    parser.add_argument("--redis-url", default=None, help="serve with its limits in Redis")
    parser.add_argument("--bot-delay", type=float, default=0.05)
    parser.add_argument("--nice", type=int, default=10,
                        help="niceness of the attacking process (0: same priority as the "
                             "server)")
    parser.add_argument("--tables", type=int, default=4,
                        help="other tables played while attacked (more moves measured)")
    parser.add_argument("--unrated-loopback", action="store_true",
                        help="start the server without --rate-loopback (every attacker "
                             "unrated, as before issue 34: the storm's before figure)")
    parser.add_argument("--url", default=None, help="use a server already running here "
                        "(it must accept connections from 127.0.0.0/8)")
    args = parser.parse_args()
    attacks = [a for a in ATTACKS if not args.only or any(w in a.name for w in args.only)]

    if args.redis_url:
        forget_loopback_counts(args.redis_url)
    tmp = tempfile.TemporaryDirectory()
    server: subprocess.Popen[bytes] | None = None
    base = args.url
    if base is None:
        port = free_port()
        exe = Path(sys.executable).parent / "euchre"
        cmd = [str(exe), "serve", "--host", "127.0.0.1", "--port", str(port),
               "--bot-delay", str(args.bot_delay), "--hand-pause", "0.2",
               "--database-url", f"sqlite+aiosqlite:///{tmp.name}/abuse.db",
               "--log-level", "warning"] + ([] if args.unrated_loopback
                                            else ["--rate-loopback"])
        if args.redis_url:
            cmd += ["--redis-url", args.redis_url]
        server = subprocess.Popen(cmd, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                                  stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    stop = ctx.Event()
    measurer = None
    latencies: list[tuple[float, float]] = []
    try:
        asyncio.run(wait_healthy(base))
        measurer = ctx.Process(target=measure_forever, args=(base, out, stop, args.tables),
                               daemon=True)
        measurer.start()
        if args.nice:
            # The attackers would be on other machines: here they share two cores with the
            # server, so they run at a lower priority than the server and the measurer.
            os.nice(args.nice)
        rows = asyncio.run(run_attacks(base, attacks, args.seconds, out, latencies,
                                       server.pid if server else None))
        alive = server is None or server.poll() is None
    finally:
        stop.set()
        if measurer is not None:
            measurer.join(timeout=10)
            if measurer.is_alive():
                measurer.terminate()
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
        tmp.cleanup()
    print(f"abuse benchmark: {args.seconds:g} s per attack, attackers at nice {args.nice}; "
          f"other tables: {args.tables} "
          f"practice, easy computers, bot delay {args.bot_delay} s; limits "
          f"{'in Redis' if args.redis_url else 'in memory'}")
    for name, answer, start, end, cpu in rows:
        used = f"; server CPU {cpu / (end - start):.0%}" if cpu is not None else ""
        print(f"{name:32} | {answer} | other tables: {summary(latencies, start, end)}{used}")
    load = os.getloadavg()[0]
    print(f"server still answering at the end: {'yes' if alive else 'NO'}; machine load "
          f"average (1 min) {load:.1f} on {os.cpu_count()} cores")
    return 0 if alive else 1


if __name__ == "__main__":
    sys.exit(main())
