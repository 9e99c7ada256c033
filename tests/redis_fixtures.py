"""The Redis of tests that need one: ``EUCHRE_TEST_REDIS_URL`` (``scripts/start-redis``
prints one; ``scripts/test`` sets it), else those tests are skipped. Every test writes under
a fresh key prefix, so tests (and engineers sharing the Redis) never see each other's keys."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest

REDIS_URL = os.environ.get("EUCHRE_TEST_REDIS_URL")
"""The test Redis, or None."""

needs_redis = pytest.mark.skipif(not REDIS_URL, reason="set EUCHRE_TEST_REDIS_URL "
                                 "(scripts/start-redis prints one)")
"""Marks a test (or a fixture parameter) that needs the test Redis."""


def fresh_prefix() -> str:
    """A key prefix no other test uses."""
    return f"euchre-test:{secrets.token_hex(6)}:"


class FakeClock:
    """Seconds that move only when told."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class TimerClock(FakeClock):
    """A fake clock with a ``sleep`` for the code under test: it returns once the test has
    moved the clock past its end, so background tasks tick only when the test says."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        super().__init__(start)
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []
        self._parked = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock reaches ``seconds`` from now (0 or less: just yield)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        entry = (self.t + seconds, asyncio.get_running_loop().create_future())
        self._sleepers.append(entry)
        self._parked.set()
        try:
            await entry[1]
        finally:
            self._sleepers.remove(entry)

    def advance(self, seconds: float) -> None:
        super().advance(seconds)
        for end, woken in self._sleepers:
            if end <= self.t and not woken.done():
                woken.set_result(None)

    async def sleeping(self) -> float:
        """Wait until a task sleeps on this clock; the seconds until the first wakes."""
        while True:
            waiting = [end for end, woken in self._sleepers if not woken.done()]
            if waiting:
                return min(waiting) - self.t
            self._parked.clear()
            await asyncio.wait_for(self._parked.wait(), 30)  # bounded: never a hang

    async def tick(self) -> float:
        """Wait for a sleeper, then move the clock to its end; the seconds moved."""
        wait = await self.sleeping()
        self.advance(wait)
        return wait


@contextlib.contextmanager
def private_redis() -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A Redis server of the test's own (to kill or pause), on a free port: its URL and
    process. Skips the test if ``redis-server`` is not installed."""
    exe = shutil.which("redis-server")
    if exe is None:
        pytest.skip("redis-server is not installed (scripts/test installs it)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(200):
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.02)
        else:
            pytest.fail("the private redis-server did not start")
        yield f"redis://127.0.0.1:{port}/0", proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
