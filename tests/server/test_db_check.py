"""Start-up checks of the database: a broken one stops `euchre serve` with one line naming
it and the cause (no traceback), and nothing is served."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from euchre.storage.check import DatabaseUnusable, check_database, unusable_reason
from testdb import postgres_url


def _corrupt(path: Path) -> None:
    """A real database with its b-tree pages overwritten in the middle."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (a, b)")
    conn.executemany("INSERT INTO t VALUES (?, ?)", [(i, "x" * 200) for i in range(3000)])
    conn.execute("CREATE INDEX tb ON t (b)")
    conn.commit()
    conn.close()
    data = bytearray(path.read_bytes())
    data[4096 * 3:4096 * 3 + 3000] = b"Z" * 3000
    path.write_bytes(bytes(data))


def _url(path: Path | str) -> str:
    return f"sqlite+aiosqlite:///{path}"


async def test_a_good_or_new_database_passes(tmp_path: Path) -> None:
    await check_database("memory:")
    await check_database(_url(tmp_path / "new" / "folder" / "euchre.db"))
    assert (tmp_path / "new" / "folder").is_dir()
    (tmp_path / "empty.db").write_bytes(b"")
    await check_database(_url(tmp_path / "empty.db"))


@pytest.mark.parametrize(("make", "cause"), [
    (lambda p: p.write_text("hello, not a database"), "it is not an SQLite database"),
    (lambda p: p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200), "not an SQLite database"),
    (_corrupt, "it is corrupt"),
    (lambda p: p.mkdir(), "it is a folder, not a file"),
])
async def test_a_broken_sqlite_file_is_named_with_its_cause(tmp_path: Path, make, cause) -> None:
    path = tmp_path / "euchre.db"
    make(path)
    with pytest.raises(DatabaseUnusable) as info:
        await check_database(_url(path))
    assert str(info.value).startswith(f"database {_url(path)}: ")
    assert cause in str(info.value) and "\n" not in str(info.value)


async def test_an_unwritable_path_is_named(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("")
    with pytest.raises(DatabaseUnusable, match=r"afile.* is a file, not a folder"):
        await check_database(_url(tmp_path / "afile" / "sub" / "euchre.db"))
    with pytest.raises(DatabaseUnusable, match="cannot"):
        await check_database(_url("/proc/euchre-cannot-be-here.db"))


async def test_postgres_that_does_not_answer_is_named_without_its_password() -> None:
    url = "postgresql+asyncpg://someone:secret@127.0.0.1:1/nothing"
    with pytest.raises(DatabaseUnusable) as info:
        await check_database(url)
    text = str(info.value)
    assert text.startswith("database postgresql+asyncpg://someone:***@127.0.0.1:1/nothing: "
                           "cannot connect")
    assert "secret" not in text


@pytest.mark.postgres
async def test_a_running_postgres_passes() -> None:
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
    await check_database(url)


def test_serve_stops_with_one_line_and_a_failing_status(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.db"
    _corrupt(path)
    size = path.stat().st_size
    run = subprocess.run(
        [str(Path(sys.executable).parent / "euchre"), "serve", "--port", "1",
         "--database-url", _url(path)],
        capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert lines == [f"euchre serve: database {_url(path)}: it is corrupt (database disk "
                     "image is malformed)"]
    assert path.stat().st_size == size
    assert unusable_reason(_url(path)) == lines[0].removeprefix("euchre serve: ")


def test_serve_stops_with_one_line_when_redis_does_not_answer() -> None:
    run = subprocess.run(
        [str(Path(sys.executable).parent / "euchre"), "serve", "--port", "1",
         "--database-url", "memory:", "--redis-url", "redis://user:secret@127.0.0.1:1/0"],
        capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "secret" not in lines[0]
    assert lines[0].startswith("euchre serve: redis redis://user:***@127.0.0.1:1/0: "
                               "cannot connect")
