"""A busy SQLite database (another process holds its write lock past ``busy_timeout``)
answers 503 ``unavailable`` with ``Retry-After``, never 500 with a traceback, and changes
nothing; once the lock is let go the same request succeeds (issue 34, item 9)."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.core.errors import BUSY_RETRY_AFTER
from euchre.storage import sqlite_writer

HOLD = ("import sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "c.execute('BEGIN IMMEDIATE')\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n"
        "c.execute('ROLLBACK')\n")
"""Another process: takes the write lock and holds it until its input ends."""


def test_a_locked_database_answers_503_with_a_retry_hint(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Each statement waits this long for the lock before "locked" (a sign-up's transaction
    # is tried five times): 0.3 s, not the server's 5 s; the lock is held past either.
    monkeypatch.setattr(sqlite_writer, "BUSY_TIMEOUT_MS", 300)
    db = tmp_path / "busy.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              hand_pause=0.0, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/healthz").json()["tables"] == 0
        holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db)], text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "held\n"
            caplog.clear()
            with caplog.at_level(logging.WARNING):
                for path, body in (("/api/tables", {"kind": "practice"}),
                                   ("/api/accounts", {"username": "busy_bee",
                                                      "password": "correct horse"})):
                    r = client.post(path, json=body)
                    assert r.status_code == 503, r.text
                    assert r.headers["retry-after"] == str(BUSY_RETRY_AFTER)
                    assert r.json() == {"error": "the database is busy: try again in a moment",
                                        "code": "unavailable",
                                        "retry_after": BUSY_RETRY_AFTER}
            assert not [rec for rec in caplog.records if rec.exc_info], "a traceback logged"
            assert any("the database is busy" in rec.getMessage() for rec in caplog.records)
        finally:
            assert holder.stdin is not None
            holder.stdin.close()
            holder.wait(30)
        assert client.get("/healthz").json()["tables"] == 0  # nothing was opened
        assert client.post("/api/tables", json={"kind": "practice"}).status_code == 201
        signed = client.post("/api/accounts", json={"username": "busy_bee",
                                                    "password": "correct horse"})
        assert signed.status_code == 201  # the refused sign-up made no account
