"""Real ``euchre serve`` processes of one site (PostgreSQL and Redis) for the site tests:
start them, read their logs, wait for lines, read the game row."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_crash import free_port, receive

from euchre.storage.sql import SqlStore
from redis_fixtures import REDIS_URL, private_redis
from testdb import drop_postgres, fresh_postgres, postgres_url

LEASE = "3"
"""Seconds of each table's lease: another process takes a dead one's tables about this
long after the death (long enough that a busy shared machine's pauses do not lose it by
accident)."""

STARTED = "Uvicorn running on"
"""Logged once the server listens."""


class Served:
    """One ``euchre serve`` process and the lines of its log so far."""

    def __init__(self, db_url: str, redis_url: str, bot_delay: float,
                 env: dict[str, str] | None = None) -> None:
        self.port = free_port()
        exe = Path(sys.executable).parent / "euchre"
        self.proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(self.port), "--database-url", db_url,
             "--redis-url", redis_url, "--lease-seconds", LEASE, "--bot-delay",
             str(bot_delay), "--hand-pause", "0", "--log-level", "info"],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
            env={**os.environ, **(env or {})})
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


def wait_until(servers: list[Served], text: str, timeout: float = 180) -> Served:
    """The first of ``servers`` whose log shows ``text``. The bound is for a line that
    never comes: on a machine busy with other suites, starting a server has taken over
    60 s (load average 25-33)."""
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
def serving(n: int, db_url: str, redis_url: str, bot_delay: float | Sequence[float],
            env: dict[str, str] | None = None) -> Iterator[list[Served]]:
    """``n`` ``euchre serve`` processes of one site (``env`` added to their environment),
    their computers' delay ``bot_delay`` (or each its own: a process killed mid-game may
    play slowly, so the kill lands mid-game, and the survivor fast); killed (and their logs
    printed) after."""
    delays = [bot_delay] * n if isinstance(bot_delay, int | float) else list(bot_delay)
    assert len(delays) == n, delays
    servers = [Served(db_url, redis_url, delay, env) for delay in delays]
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



@contextmanager
def site_urls() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database and a Redis of the test's own (its rate-limit counters
    start from nothing, whatever ran before)."""
    server = postgres_url()
    if server is None or not REDIS_URL:
        pytest.skip("needs EUCHRE_TEST_DATABASE_URL and EUCHRE_TEST_REDIS_URL")
    url = asyncio.run(fresh_postgres(server))
    try:
        with private_redis() as (redis_url, _):
            yield url, redis_url
    finally:
        asyncio.run(drop_postgres(url))
