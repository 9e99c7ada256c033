"""Bytes a table socket sends per person move over REAL sockets: a fresh ``euchre serve``
(SQLite in a temporary folder), an online table with four people and one spectator, whole
games.

Sums the text of every message each of the four seats' sockets and the spectator's hands over
(the WebSocket library's text, UTF-8 bytes, before any compression: permessage-deflate is
off), from its join or watch to game over, and divides by the moves the four people made
(each person sends a random legal move when the table it folded says it is its turn)::

    .venv/bin/python scripts/bench/bench_socket_bytes.py --games 3

Prints per game and over all: bytes and messages per person move, and bytes per message.
The in-process figure of the same table is ``scripts/bench/bench_bytes.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from euchre.table.actor.delta import Folder

WAIT = 120.0
"""Seconds a socket waits for its next message before the run is called stalled."""


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_healthy(base: str, timeout: float = 60.0) -> None:
    """Until the server answers ``/healthz``."""
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as http:
        while True:
            try:
                if (await http.get(f"{base}/healthz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server at {base} did not come up")
            await asyncio.sleep(0.2)


class Reader:
    """One socket's count: the text it was handed, and the table it folds from it."""

    def __init__(self) -> None:
        self.bytes = 0
        self.messages = 0
        self.moves = 0
        self.folder = Folder()
        self.kinds: Counter[str] = Counter()  # bytes by message type (an event's by kind)

    async def receive(self, ws: ClientConnection) -> dict[str, Any]:
        """The next message (decoded), counted and folded."""
        raw = await asyncio.wait_for(ws.recv(), WAIT)
        text = raw if isinstance(raw, str) else raw.decode()
        self.bytes += len(text.encode())
        self.messages += 1
        m: dict[str, Any] = json.loads(text)
        event = m.get("event")
        self.kinds[f"{m['type']} {event['kind']}" if event else m["type"]] += len(text.encode())
        if m["type"] == "error":
            raise RuntimeError(f"the server refused: {m}")
        self.folder.receive(m)
        return m


async def person(url: str, token: str, seed: int, reader: Reader) -> None:
    """Join with ``token`` and play random legal moves until game over; a move is sent only
    from a table folded to a move's whole result, after the answer to the last one."""
    rng = random.Random(seed)
    async with connect(url, compression=None, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "join", "token": token, "protocol": 2}))
        answered = True
        while True:
            m = await reader.receive(ws)
            answered = answered or "you" in m  # the answer rides on the move's first event
            table = reader.folder.table
            if table is None or m.get("version") != table["version"]:
                continue
            if table["game_over"]:
                return
            legal = table["view"]["legal"] if table["view"] else []
            if legal and answered:
                await ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
                reader.moves += 1
                answered = False


async def spectator(url: str, reader: Reader) -> None:
    """Watch until game over."""
    async with connect(url, compression=None, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "watch", "protocol": 2}))
        while True:
            await reader.receive(ws)
            table = reader.folder.table
            if table is not None and table["game_over"]:
                return


async def one_game(base: str, seed: int) -> list[Reader]:
    """Open an online table for four people, play it out; the five readers (seats 0-3,
    then the spectator)."""
    async with httpx.AsyncClient(base_url=base) as http:
        made = await http.post("/api/tables", json={
            "kind": "online", "name": "Ann", "preset": "classic", "seconds_per_move": 90})
        made.raise_for_status()
        table_id, tokens = made.json()["id"], [made.json()["token"]]
        for seat, name in ((1, "Bob"), (2, "Cy"), (3, "Di")):
            # Each person claims from an address of their own (127.0.0.2-4), as four
            # people do: one address may hold only a few seats.
            transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{seat + 1}")
            async with httpx.AsyncClient(base_url=base, transport=transport) as own:
                got = await own.post(f"/api/tables/{table_id}/seats",
                                     json={"seat": seat, "name": name})
            got.raise_for_status()
            tokens.append(got.json()["token"])
        started = await http.post(f"/api/tables/{table_id}/start", json={"token": tokens[0]})
        started.raise_for_status()
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    readers = [Reader() for _ in range(5)]
    await asyncio.gather(spectator(url, readers[4]),
                         *(person(url, tokens[s], seed * 10 + s, readers[s]) for s in range(4)))
    return readers


async def run(base: str, games: int, seed: int) -> None:
    """Play ``games`` games one after another and print the figures."""
    await wait_healthy(base)
    total = messages = moves = 0
    kinds: Counter[str] = Counter()
    for game in range(games):
        readers = await one_game(base, seed + game)
        b = sum(r.bytes for r in readers)
        n = sum(r.messages for r in readers)
        m = sum(r.moves for r in readers)
        total, messages, moves = total + b, messages + n, moves + m
        for r in readers:
            kinds.update(r.kinds)
        print(f"game {game + 1}: {m} person moves, {n} messages, {b} bytes: "
              f"{b / max(1, m):.0f} bytes per person move", flush=True)
    print(f"{games} games over real sockets, {moves} person moves, {messages} messages, "
          f"{total} bytes")
    print(f"bytes per person move: {total / max(1, moves):.0f}; messages per person move: "
          f"{messages / max(1, moves):.1f}; bytes per message: {total / max(1, messages):.0f}")
    print("bytes per person move by message: " + ", ".join(
        f"{kind} {n / max(1, moves):.0f}" for kind, n in kinds.most_common()))


def main() -> int:
    """Start the server, play, stop it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", default=None, help="use a server already running here")
    args = parser.parse_args()
    if args.url is not None:
        asyncio.run(run(args.url, args.games, args.seed))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        exe = Path(sys.executable).parent / "euchre"
        server = subprocess.Popen(
            [str(exe), "serve", "--port", str(port), "--bot-delay", "0", "--hand-pause", "0",
             "--database-url", f"sqlite+aiosqlite:///{tmp}/bench.db", "--log-level", "warning"],
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            asyncio.run(run(f"http://127.0.0.1:{port}", args.games, args.seed))
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
