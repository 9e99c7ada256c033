"""Operations: JSON log lines, the default public URL, ``euchre db upgrade``."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from euchre.cli import main
from euchre.cli.serve import public_url
from euchre.server.core.middleware import REQUEST_ID
from euchre.server.ops.logs import JsonFormatter
from euchre.table.actor.logcontext import TABLE_ID


def test_a_json_log_line_names_the_table_and_the_request() -> None:
    record = logging.LogRecord("euchre.table", logging.WARNING, __file__, 1,
                               "table %s: could not save", ("abc",), None)
    table, request = TABLE_ID.set("abc"), REQUEST_ID.set("r-1")
    try:
        line = json.loads(JsonFormatter().format(record))
    finally:
        TABLE_ID.reset(table)
        REQUEST_ID.reset(request)
    assert line["message"] == "table abc: could not save"
    assert (line["level"], line["logger"]) == ("warning", "euchre.table")
    assert (line["table_id"], line["request_id"]) == ("abc", "r-1")
    assert line["time"].endswith("Z")


def test_the_public_url_defaults_from_the_bind_address() -> None:
    assert public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert public_url("0.0.0.0", 9000) == "http://127.0.0.1:9000"
    assert public_url("::1", 80) == "http://[::1]:80"


def test_db_upgrade_migrates_a_new_database(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "sub" / "euchre.db"
    assert main(["db", "upgrade", "--database-url", f"sqlite+aiosqlite:///{db}"]) == 0
    assert "newest schema" in capsys.readouterr().out
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert {"games", "accounts", "alembic_version"} <= tables
    assert main(["db", "upgrade", "--database-url", f"sqlite+aiosqlite:///{db}"]) == 0
    assert main(["db", "upgrade", "--database-url", "memory:"]) == 2
