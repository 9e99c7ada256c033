"""``euchre serve --workers 2`` leaves no worker behind when the parent ends, however it
ends: SIGTERM (uvicorn's supervisor stops them), SIGKILL (nobody can: each worker asks the
kernel to be told), or a worker that fails to start (the supervisor gives up). Real
processes, a real PostgreSQL and Redis; every wait is on an event (a log line, a pidfd)."""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from site_helpers import site_urls

from live_server import free_port

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="needs Linux pidfds")

WORKER_UP = "serving the site as"
"""What each worker logs once its site is made."""


@pytest.fixture
def site() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database and a Redis of the test's own."""
    with site_urls() as urls:
        yield urls


def start(db_url: str, redis_url: str, env: dict[str, str] | None = None
          ) -> tuple[subprocess.Popen[str], list[str], threading.Condition, str]:
    """``euchre serve --workers 2``; its log lines so far, a condition told of each, and
    the mark in the environment of it and every process it starts."""
    mark = f"euchre-test-{secrets.token_hex(8)}"
    exe = Path(sys.executable).parent / "euchre"
    proc = subprocess.Popen(
        [str(exe), "serve", "--workers", "2", "--port", str(free_port()), "--database-url",
         db_url, "--redis-url", redis_url, "--bot-delay", "0", "--hand-pause", "0",
         "--lease-seconds", "3"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
        text=True, env={**os.environ, **(env or {}), "EUCHRE_TEST_MARK": mark})
    lines: list[str] = []
    changed = threading.Condition()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            with changed:
                lines.append(line)
                changed.notify_all()
        with changed:
            lines.append("<exit>")
            changed.notify_all()

    threading.Thread(target=read, daemon=True).start()
    return proc, lines, changed, mark


def marked(mark: str) -> list[int]:
    """The running processes with ``mark`` in their environment (zombies have none)."""
    found = []
    wanted = f"EUCHRE_TEST_MARK={mark}".encode()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                environ = Path(f"/proc/{entry}/environ").read_bytes()
            except OSError:
                continue
            if wanted in environ.split(b"\0"):
                found.append(int(entry))
    return found


def ended(pids: list[int], timeout: float = 60) -> list[int]:
    """Wait (on each one's pidfd) until every process of ``pids`` has ended; those that
    have not after ``timeout`` seconds."""
    left = []
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue  # gone already
        try:
            readable, _, _ = select.select([fd], [], [], timeout)
            if not readable:
                left.append(pid)
        finally:
            os.close(fd)
    return left


def workers_up(proc: subprocess.Popen[str], lines: list[str], changed: threading.Condition,
               mark: str) -> list[int]:
    """Wait until both workers have made their site; the pids of every process the parent
    started (the workers, and any helper of multiprocessing's)."""
    with changed:
        if not changed.wait_for(lambda: sum(WORKER_UP in x for x in lines) >= 2
                                or "<exit>" in lines, timeout=120):
            pytest.fail("the workers did not start:\n" + "".join(lines))
        assert "<exit>" not in lines, "".join(lines)
    started = [p for p in marked(mark) if p != proc.pid]
    assert len(started) >= 2, started
    return started


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["term", "kill"])
def test_the_workers_end_with_the_parent(site: tuple[str, str], how: signal.Signals) -> None:
    proc, lines, changed, mark = start(*site)
    workers: list[int] = []
    try:
        workers = workers_up(proc, lines, changed, mark)
        proc.send_signal(how)
        proc.wait(60)
        assert ended(workers) == [], f"workers left running after {how.name}"
    finally:
        for pid in [*ended(workers, 0), proc.pid]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait()


def test_a_worker_that_fails_to_start_ends_the_parent_and_the_others(
        site: tuple[str, str]) -> None:
    # Only the workers build the app, so only they read this (and fail on it).
    proc, lines, _, mark = start(*site, env={"EUCHRE_MOVE_SECONDS": "not a number"})
    try:
        proc.wait(120)  # ends (uvicorn's supervisor exits 0 even then: the log says why)
        assert ended(marked(mark)) == [], "".join(lines)
        assert any("could not make the app" in line for line in lines), "".join(lines)
        assert any("failed to start, stopping the parent" in line for line in lines)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
