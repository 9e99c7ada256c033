"""Three real ``euchre serve`` processes on one PostgreSQL and one Redis: one serves, two
wait as standbys. SIGKILL the active one mid-game: a standby takes over, resumes the table
from PostgreSQL and the game is played to its end through it. Pause the next active one
past its lease (SIGSTOP): the last standby takes over; resumed (SIGCONT), the paused one
writes nothing and shuts itself down.

Real processes, sockets, PostgreSQL and Redis; the test waits for log lines and states,
and asserts nothing about time.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_crash import free_port, play, receive
from websockets.sync.client import connect

from euchre.record import GameRecord
from euchre.storage.sql import SqlStore
from redis_fixtures import REDIS_URL, needs_redis
from testdb import drop_postgres, fresh_postgres, postgres_url

LEASE = "3"
"""Seconds of the site lease: a standby takes over about this long after a death (long
enough that a busy shared machine's pauses do not lose it by accident)."""

STARTED = "Uvicorn running on"
"""Logged once the server listens (a standby never gets there)."""


class Served:
    """One ``euchre serve`` process and the lines of its log so far."""

    def __init__(self, db_url: str, redis_url: str, bot_delay: float) -> None:
        self.port = free_port()
        exe = Path(sys.executable).parent / "euchre"
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(self.port), "--database-url", db_url,
             "--redis-url", redis_url, "--lease-seconds", LEASE, "--bot-delay",
             str(bot_delay), "--hand-pause", "0", "--log-level", "info"],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        self.lines: list[str] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.lines.append("<exit>")
            self.changed.notify_all()

    def has(self, text: str) -> bool:
        """Whether the log has a line containing ``text``."""
        with self.changed:
            return any(text in line for line in self.lines)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def wait_until(servers: list[Served], text: str, timeout: float = 60) -> Served:
    """The first of ``servers`` whose log shows ``text``."""
    deadline = threading.Event()
    timer = threading.Timer(timeout, deadline.set)
    timer.start()
    try:
        while not deadline.is_set():
            for s in servers:
                if s.has(text):
                    return s
            with servers[0].changed:
                servers[0].changed.wait(0.1)
        pytest.fail(f"no server logged {text!r}: " + "".join(
            "".join(s.lines[-5:]) for s in servers))
    finally:
        timer.cancel()


@contextmanager
def three_servers(db_url: str, redis_url: str, bot_delay: float) -> Iterator[list[Served]]:
    servers = [Served(db_url, redis_url, bot_delay) for _ in range(3)]
    try:
        yield servers
    finally:
        for s in servers:
            if s.proc.poll() is None:
                s.proc.send_signal(signal.SIGCONT)
                s.proc.kill()
            s.proc.wait()
            print(f"--- server on port {s.port}:\n" + "".join(s.lines[-30:]))  # on failure


async def _row(db_url: str, table_id: str) -> tuple[int, int, str]:
    store = await SqlStore.open(db_url, run_migrations=False)
    try:
        game = await store.get(table_id)
        assert game is not None
        return game.version, game.fence, json.dumps(game.record, sort_keys=True)
    finally:
        await store.close()


def row(db_url: str, table_id: str) -> tuple[int, int, str]:
    """(version, fence, record) of the table's game row."""
    return asyncio.run(_row(db_url, table_id))


@pytest.fixture
def site() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database and the test Redis."""
    server = postgres_url()
    if server is None or not REDIS_URL:
        pytest.skip("needs EUCHRE_TEST_DATABASE_URL and EUCHRE_TEST_REDIS_URL")
    url = asyncio.run(fresh_postgres(server))
    try:
        yield url, REDIS_URL
    finally:
        asyncio.run(drop_postgres(url))


@needs_redis
def test_a_killed_active_process_is_replaced_and_a_paused_one_writes_nothing(site):
    db_url, redis_url = site
    rng = random.Random(5)
    with three_servers(db_url, redis_url, bot_delay=0.2) as servers:
        first = wait_until(servers, STARTED)
        standbys = [s for s in servers if s is not first]
        wait_until(standbys, "standby:")
        assert not any(s.has(STARTED) for s in standbys)

        table = httpx.post(f"{first.base}/api/tables", json={"kind": "practice"}).json()
        with connect(f"ws://127.0.0.1:{first.port}{table['ws']}") as ws:
            ws.send(json.dumps({"type": "join", "token": table["token"]}))
            before = play(ws, rng, moves=6)
        version, fence, _ = row(db_url, table["id"])
        assert fence >= 1 and before["version"] >= 1

        # 1. SIGKILL the active process: a standby takes over with a higher fence.
        first.proc.kill()
        first.proc.wait()
        second = wait_until(standbys, STARTED)
        last = next(s for s in standbys if s is not second)
        assert not last.has(STARTED)
        r = httpx.get(f"{second.base}/api/tables/{table['id']}",
                      params={"token": table["token"]})
        assert r.status_code == 200
        after = r.json()
        assert after["version"] >= version  # resumed from the last saved point
        _, fence2, _ = row(db_url, table["id"])
        assert fence2 > fence  # claimed by the new owner

        # 2. Play on through it, stop at the person's turn, and pause it past its lease.
        with connect(f"ws://127.0.0.1:{second.port}{table['ws']}") as ws:
            ws.send(json.dumps({"type": "join", "token": table["token"],
                                "since": after["version"]}))
            middle = play(ws, rng, moves=3)
        assert not middle["game_over"]
        second.proc.send_signal(signal.SIGSTOP)
        third = wait_until([last], STARTED)
        frozen = row(db_url, table["id"])
        assert frozen[1] > fence2  # the third process claimed it
        with connect(f"ws://127.0.0.1:{third.port}{table['ws']}") as ws:
            ws.send(json.dumps({"type": "join", "token": table["token"]}))
            at_turn = persons_turn(ws)
            # Nothing moves now until the person does: once the socket is quiet (our
            # joining is an event too) and the last save is in, keep the row.
            latest = quiet(ws, at_turn["version"])
            frozen = row(db_url, table["id"])
            while frozen[0] < latest:
                with last.changed:
                    last.changed.wait(0.1)
                frozen = row(db_url, table["id"])
            assert frozen[0] == latest

            # 3. Resume the paused one: it notices the lost lease, writes nothing, and
            # shuts down (uvicorn ends by re-raising the SIGTERM it handled).
            second.proc.send_signal(signal.SIGCONT)
            assert second.proc.wait(60) in (0, -signal.SIGTERM)
            assert second.has("lost the site lease")
            assert second.has("Application shutdown complete")
            assert row(db_url, table["id"]) == frozen

            # 4. The game ends through the third process; its record replays.
            end = at_turn
            if not at_turn["game_over"]:
                legal = at_turn["view"]["legal"]
                ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
                end = play(ws, rng, moves=None)
        assert end["game_over"] and end["winner"] in (0, 1)
        record = httpx.get(f"{third.base}/api/games/{table['id']}/record").text
        assert record.startswith("euchre-record 1") and "\nend " in record
        final = asyncio.run(_stored_record(db_url, table["id"]))
        assert final.replay().is_over


def quiet(ws: Any, version: int) -> int:
    """Read until nothing comes for a second; the last version seen."""
    while True:
        try:
            m = json.loads(ws.recv(timeout=1.0))
        except TimeoutError:
            return version
        version = max(version, int(m.get("version", version)))


def persons_turn(ws: Any) -> dict[str, Any]:
    """Read until the person is to move (or the game is over) with nothing pending."""
    while True:
        m = receive(ws)
        table = m.get("table")
        if table is None or m["version"] != table["version"]:
            continue
        if table["game_over"] or table["view"]["legal"]:
            return dict(table)


async def _stored_record(db_url: str, table_id: str) -> GameRecord:
    store = await SqlStore.open(db_url, run_migrations=False)
    try:
        game = await store.get(table_id)
        assert game is not None
        return GameRecord.from_json(game.record)
    finally:
        await store.close()


