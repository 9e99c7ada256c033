"""A real ``euchre serve``: a move on a socket after leaving a coin table gets a refusal at
once, and SIGTERM then ends the process promptly with exit code 0 (sockets still open).

Real processes, real sockets: the server is ready when its log says so (no sleeping); the
only bounds on time are generous timeouts so that a hang fails instead of blocking.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_crash import free_port
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def start_server(db: Path, port: int) -> subprocess.Popen[str]:
    """``euchre serve`` on ``port`` with an SQLite file, computers at the real pace."""
    exe = Path(sys.executable).parent / "euchre"
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", str(port), "--database-url", f"sqlite+aiosqlite:///{db}",
         "--log-level", "info"],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:
        # "Uvicorn running on", not "Application startup complete": that is logged before
        # uvicorn listens, and a request in between is refused.
        if "Uvicorn running on" in line:
            break
    else:
        proc.kill()
        pytest.fail("the server did not start")
    threading.Thread(target=proc.stderr.read, daemon=True).start()  # keep the pipe empty
    return proc


def until(ws: ClientConnection, wanted: Any) -> dict[str, Any]:
    """Read messages until one matches ``wanted`` (a predicate)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if wanted(message):
            return message


def test_a_move_after_leaving_a_coin_table_is_refused_and_sigterm_ends_the_server(
        tmp_path: Path) -> None:
    port = free_port()
    proc = start_server(tmp_path / "euchre.db", port)
    try:
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=30) as http:
            r = http.post("/api/accounts", json={"username": "alice", "password": "pw-alice-1"})
            assert r.status_code == 201, r.text
            csrf = {"X-CSRF-Token": r.json()["csrf"]}
            r = http.post("/api/tables", json={"kind": "coin", "stake": 10}, headers=csrf)
            assert r.status_code == 201, r.text
            table = r.json()
            table_id, token = table["id"], table["token"]
            ws_url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
            with connect(ws_url) as playing, connect(ws_url):  # the second never joins
                playing.send(json.dumps({"type": "join", "protocol": 2, "token": token}))
                until(playing, lambda m: m["type"] == "snapshot")
                r = http.post(f"/api/tables/{table_id}/leave", json={}, headers=csrf)
                assert r.status_code == 200 and r.json()["left"], r.text
                # the table closed and stopped: the move is refused, or the socket closes
                # (the table released it), and nothing waits for ever
                refused: dict[str, Any] | None = None
                try:
                    playing.send(json.dumps({"type": "action", "action": "pass"}))
                    refused = until(playing, lambda m: m["type"] == "error")
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None and closed.rcvd.code == 1012
                if refused is not None:
                    assert refused["code"] in ("table_stopped", "illegal"), refused
                # a socket that never joined and one on a reloaded table are open: SIGTERM
                with connect(ws_url) as again:
                    again.send(json.dumps({"type": "join", "protocol": 2, "token": token}))
                    snapshot = until(again, lambda m: m["type"] == "snapshot")
                    assert snapshot["table"]["closed"] == "left"
                    proc.send_signal(signal.SIGTERM)
                    assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
