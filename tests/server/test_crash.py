"""A real crash: the server process is killed (SIGKILL) mid-game and started again on the
same SQLite file; the table comes back from storage and is played to the end.

Real processes, real sockets: the test waits for each server by reading its log for the
startup line (no sleeping), and asserts nothing about time.
"""

from __future__ import annotations

import json
import random
import secrets
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from euchre.record import GameRecord
from folding import held_table


def free_port() -> int:
    """A free loopback port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(db: Path, port: int) -> Iterator[subprocess.Popen[str]]:
    """``euchre serve`` on ``port`` with the SQLite file ``db``, computers at zero delay."""
    exe = Path(sys.executable).parent / "euchre"
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", str(port), "--bot-delay", "0", "--hand-pause", "0",
         "--database-url", f"sqlite+aiosqlite:///{db}", "--log-level", "info"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            # "Uvicorn running on", not "Application startup complete": that is logged
            # before uvicorn listens, and a request in between is refused.
            if "Uvicorn running on" in line:
                break
        else:
            pytest.fail("the server did not start")
        drain = threading.Thread(target=proc.stderr.read, daemon=True)  # keep the pipe empty
        drain.start()
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


WAIT = 30.0
"""How long a test client waits for the table's next message before it fails."""


def receive(ws: ClientConnection, waiting_for: str = "the table's next message",
            refusals: tuple[str, ...] = ()) -> dict[str, Any]:
    """The next message; fails (naming ``waiting_for``) if none comes in :data:`WAIT`
    seconds, or if it is an error (other than one of the codes ``refusals``). Not a
    ``TimeoutError``: that is an ``OSError``, which a caller reconnecting on a broken
    socket would take for one and wait again."""
    try:
        text = ws.recv(timeout=WAIT)
    except TimeoutError:
        table = held_table(ws)
        held = table["version"] if table is not None else None
        pytest.fail(f"no message in {WAIT:.0f} s while waiting for {waiting_for} "
                    f"(the client holds table version {held})")
    message: dict[str, Any] = json.loads(text)
    assert message["type"] != "error" or message.get("code") in refusals, message
    return message


def seed_first_hand(ws: ClientConnection, table: dict[str, Any]) -> bool:
    """Send a shuffle seed for the first hand, as a page does once the table has committed
    to its own (the first deal waits up to ``--seed-wait``, 3 s, for the people's seeds);
    True if sent. A seed that comes after the deal is refused (``bad_seed``): harmless."""
    ahead = table.get("next_commitment")
    if not ahead or ahead["hand_number"] != 1:
        return False
    ws.send(json.dumps({"type": "seed", "hand_number": 1, "seed": secrets.token_hex(32)}))
    return True


def play(ws: ClientConnection, rng: random.Random, moves: int | None,
         seen: list[tuple[int, str]] | None = None) -> dict[str, Any]:
    """Play random legal moves (``moves`` of them, or to the end); returns the last table.
    Every action shown is appended to ``seen`` as (seat, action as the event says it)."""
    table: dict[str, Any] = {}
    waiting = False
    seeded = False
    made = 0
    while moves is None or made < moves or waiting:
        m = receive(ws, "the answer to our move" if waiting else
                    "our turn" if table else "a table (a snapshot, or events onto one held)",
                    refusals=("bad_seed",))
        if m["type"] == "error":
            continue  # our seed came after the first deal: dealt without it
        if seen is not None and m["type"] == "event" and m["event"]["kind"] == "action":
            seen.append((m["event"]["seat"], m["event"]["action"]))
        if m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
            waiting = False
        if m["type"] == "joined" and (held := held_table(ws)) is not None \
                and held["version"] == m["version"]:
            m = {**m, "type": "event", "table": held}  # rejoined since the table it holds
        if "table" not in m:
            continue
        table = m["table"]
        seeded = seeded or seed_first_hand(ws, table)
        if m["version"] != table["version"] or waiting:
            continue
        if table["game_over"]:
            return table
        if table["view"] and table["view"]["legal"] and (moves is None or made < moves) \
                and m["type"] == "event":
            ws.send(json.dumps({"type": "action", "action": rng.choice(table["view"]["legal"])}))
            waiting = True
            made += 1
    return table


def test_a_killed_server_resumes_the_table_from_storage(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    rng = random.Random(11)
    shown: list[tuple[int, str]] = []  # every action the server showed before the kill
    with server(db, port) as first:
        table = httpx.post(f"{base}/api/tables", json={"kind": "practice"}).json()
        with connect(f"ws://127.0.0.1:{port}{table['ws']}") as ws:
            ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            before = play(ws, rng, moves=4, seen=shown)
        first.kill()  # SIGKILL: no shutdown, nothing flushed on the way out
        first.wait()
    with server(db, port):
        r = httpx.get(f"{base}/api/tables/{table['id']}", params={"token": table["token"]})
        assert r.status_code == 200
        after = r.json()
        # A change is shown only once it is stored, so everything shown before the kill comes
        # back. The computers may have moved (and been stored) after the last change we saw
        # and before the kill landed, so the table may be further on, never behind.
        assert after["version"] >= before["version"]
        if after["version"] == before["version"]:
            assert after["view"] == before["view"]
        with connect(f"ws://127.0.0.1:{port}{table['ws']}") as ws:
            ws.send(json.dumps({"type": "join", "protocol": 2, "token": table["token"]}))
            end = play(ws, rng, moves=None)
        assert end["game_over"] and end["winner"] in (0, 1)
        record = httpx.get(f"{base}/api/games/{table['id']}/record").text
        assert record.startswith("euchre-record 1") and "\nend " in record
    # the finished game begins with every action shown before the kill, in order (another
    # seat's discard is shown to us as its kind only)
    played = [(seat, action) for hand in GameRecord.from_text(record).hands
              for seat, action in hand.actions]
    assert shown and len(played) >= len(shown)
    for (seat, text), (played_seat, action) in zip(shown, played, strict=False):
        assert seat == played_seat
        assert text == str(action) or (seat != 0 and text == action.kind), (text, action)
