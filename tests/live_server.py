"""The live servers of the tests: an app under uvicorn on a free port, in a thread with its
own event loop, for as long as a ``with`` block lasts (the browser tests use it); and
``euchre serve`` in a subprocess, to kill and start again (the crash tests)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def live_server(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free port in a thread; yields its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, name=f"euchre-test-server-{port}",
                              daemon=True)
    thread.start()
    for _ in range(1000):  # start-up, not a timing assertion
        if server.started or not thread.is_alive():
            break
        time.sleep(0.02)
    if not server.started:
        pytest.fail("the test server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class ServerProcess:
    """``euchre serve`` in a subprocess on ``database_url``, to be killed (SIGKILL) and
    started again on the same database."""

    def __init__(self, database_url: str, port: int, env: dict[str, str] | None = None
                 ) -> None:
        self.database_url = database_url
        self.port = port
        self.env = env or {}
        """Environment variables of its own (on top of this process's)."""
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        """Start and wait (reading its log, no sleeping) until it listens."""
        env = {**os.environ, "EUCHRE_ARGON2_PROFILE": "cheapest", "PYTHONUNBUFFERED": "1",
               **self.env}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "euchre.cli", "serve", "--port", str(self.port),
             "--database-url", self.database_url, "--bot-delay", "0", "--hand-pause", "0",
             "--log-level", "info"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert self.proc.stderr is not None
        seen = []
        for line in self.proc.stderr:
            seen.append(line)
            if "Uvicorn running on" in line:
                break
        else:
            raise AssertionError("the server did not start:\n" + "".join(seen))
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for _ in self.proc.stderr:
            pass

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        """End it if it runs."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()

    @property
    def base(self) -> str:
        """The HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"
