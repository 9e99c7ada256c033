"""The one live server of the tests: an app under uvicorn on a free port, in a thread with its
own event loop, for as long as a ``with`` block lasts (the browser tests use it)."""

from __future__ import annotations

import contextlib
import socket
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
