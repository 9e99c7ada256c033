"""The SQLite store's group commit runs on a connection and thread of its own: a commit that
fails writes nothing and fails every save in it, and the store goes on writing after."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from pathlib import Path

import pytest

from euchre.storage import FINISHED, PLAYING, StaleFenceError, StoredGame
from euchre.storage.journal import RecordTail
from euchre.storage.sql import SqlStore, make_engine
from euchre.storage.sqlite_writer import SYNCHRONOUS_ENV, SqliteWriter, set_pragmas

BASE = {"format": "euchre-record", "version": 1, "rules": {}, "hands": [], "final": None}


def game(game_id: str, version: int, tail: RecordTail | None = None) -> StoredGame:
    """Table ``game_id`` at ``version``: written whole, or only ``tail``'s lines."""
    return StoredGame(id=game_id, kind="practice", status=PLAYING, version=version,
                      meta={"v": version}, record={} if tail else BASE, created_at=1.0,
                      updated_at=1.0 + version, journal=tail)


async def test_a_file_store_writes_through_its_own_connection(tmp_path: Path) -> None:
    store = await SqlStore.open(f"sqlite+aiosqlite:///{tmp_path}/g.db")
    try:
        assert isinstance(store._sqlite, SqliteWriter)
        assert store._sqlite.path == f"{tmp_path}/g.db"
    finally:
        await store.close()


async def test_a_failed_commit_writes_nothing_and_fails_every_save_in_it(
        tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await SqlStore.open(f"sqlite+aiosqlite:///{path}", commit_window=0.05)
    try:
        await asyncio.gather(store.save(game("a", 1)), store.save(game("b", 1)))
        with sqlite3.connect(path) as db:  # the next line written for b breaks the commit
            db.execute("CREATE TRIGGER refuse BEFORE INSERT ON game_lines "
                       "WHEN NEW.line = 'bad' BEGIN SELECT RAISE(ABORT, 'refused'); END")
        results = await asyncio.gather(
            store.save(game("a", 2, RecordTail(0, ("hand 1",)))),
            store.save(game("b", 2, RecordTail(0, ("bad",)))), return_exceptions=True)
        assert all(isinstance(r, sqlite3.IntegrityError) for r in results), results
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT id, version, lines FROM games ORDER BY id").fetchall() \
                == [("a", 1, 0), ("b", 1, 0)]
            assert db.execute("SELECT count(*) FROM game_lines").fetchone() == (0,)
            db.execute("DROP TRIGGER refuse")
        await store.save(game("a", 2, RecordTail(0, ("hand 1",))))  # and it writes on
        got = await store.get("a")
        assert got is not None and got.version == 2 and len(got.record["hands"]) == 1
    finally:
        await store.close()


@pytest.mark.parametrize("url", ["sqlite+aiosqlite://", "sqlite+aiosqlite:///:memory:"])
async def test_a_database_in_memory_is_written_through_the_engine(url: str) -> None:
    store = SqlStore(make_engine(url))
    try:
        assert store._sqlite is None
    finally:
        await store.close()


async def test_a_whole_save_after_lines_trims_them(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await SqlStore.open(f"sqlite+aiosqlite:///{path}")
    try:
        await store.save(game("a", 1))
        await store.save(game("a", 2, RecordTail(0, ("hand 1", "dealer 0"))))
        await store.save(dataclasses.replace(game("a", 3), record=BASE))
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version, lines FROM games").fetchone() == (3, 0)
        assert db.execute("SELECT count(*) FROM game_lines").fetchone() == (0,)


async def test_appends_in_one_commit_fail_alone_when_fenced_out_or_not_following(
        tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await SqlStore.open(f"sqlite+aiosqlite:///{path}", commit_window=0.05)
    try:
        await asyncio.gather(*(store.save(game(i, 1)) for i in "abcd"))
        await store.claim("b", 5)
        results = await asyncio.gather(
            store.save(game("a", 2, RecordTail(0, ("hand 1",)))),
            store.save(game("b", 2, RecordTail(0, ("hand 1",)))),  # fenced out by the claim
            store.save(game("c", 2, RecordTail(3, ("hand 1",)))),  # lines 0-2 are missing
            store.save(game("d", 2, RecordTail(0, ("hand 1", "dealer 0")))),
            return_exceptions=True)
        assert results[0] is None and results[3] is None
        assert isinstance(results[1], StaleFenceError) and results[1].stored_fence == 5
        assert isinstance(results[2], ValueError) and "missing" in str(results[2])
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT id, version, lines FROM games ORDER BY id").fetchall() \
                == [("a", 2, 1), ("b", 1, 0), ("c", 1, 0), ("d", 2, 2)]
            assert db.execute("SELECT game_id, seq FROM game_lines ORDER BY 1, 2").fetchall() \
                == [("a", 0), ("d", 0), ("d", 1)]
    finally:
        await store.close()


async def test_a_save_that_finishes_its_game_among_others_stores_its_status(
        tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await SqlStore.open(f"sqlite+aiosqlite:///{path}", commit_window=0.05)
    try:
        await asyncio.gather(*(store.save(game(i, 1)) for i in "abc"))
        await store.claim("c", 5)
        results = await asyncio.gather(
            store.save(game("a", 2, RecordTail(0, ("hand 1",)))),
            store.save(dataclasses.replace(game("b", 2, RecordTail(0, ("end 10 4",))),
                                           status=FINISHED)),
            store.save(game("c", 2, RecordTail(0, ("hand 1",)))),  # fenced out by the claim
            return_exceptions=True)
        assert results[:2] == [None, None]
        assert isinstance(results[2], StaleFenceError) and results[2].stored_fence == 5
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT id, status, version, lines, meta FROM games "
                              "ORDER BY id").fetchall() == [
                ("a", PLAYING, 2, 1, '{"v":2}'), ("b", FINISHED, 2, 1, '{"v":2}'),
                ("c", PLAYING, 1, 0, '{"v":1}')]
            assert db.execute("SELECT game_id, seq, line FROM game_lines ORDER BY 1, 2"
                              ).fetchall() == [("a", 0, "hand 1"), ("b", 0, "end 10 4")]
        # and a save that keeps a finished status is written in the commit's one statement
        await store.save(game("a", 3, RecordTail(1, ("dealer 0",))))
        await store.save(dataclasses.replace(game("b", 3, RecordTail(1, ())), status=FINISHED))
        with sqlite3.connect(path) as db:
            assert db.execute("SELECT id, status, version, lines FROM games WHERE id < 'c' "
                              "ORDER BY id").fetchall() == [("a", PLAYING, 3, 2),
                                                            ("b", FINISHED, 3, 1)]
    finally:
        await store.close()


async def test_the_connections_checkpoint_every_4000_pages_the_writer_caches_16_mib(
        tmp_path: Path) -> None:
    from sqlalchemy import text

    store = await SqlStore.open(f"sqlite+aiosqlite:///{tmp_path}/g.db")
    try:
        await store.save(game("a", 1))  # the writer's connection is made
        writer = store._sqlite
        assert writer is not None and writer._db is not None
        db = writer._db  # used on its own thread
        assert await asyncio.get_running_loop().run_in_executor(
            writer._thread, lambda: db.execute("PRAGMA wal_autocheckpoint").fetchone()) \
            == (4000,)
        assert await asyncio.get_running_loop().run_in_executor(
            writer._thread, lambda: db.execute("PRAGMA cache_size").fetchone()) \
            == (-16384,)  # the writer's own page cache, 16 MiB
        async with store.engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA wal_autocheckpoint"))).scalar() == 4000
    finally:
        await store.close()


def test_each_connection_takes_the_synchronous_level_asked_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unset, SQLite's own FULL (each commit flushed); the suite's NORMAL; anything else is
    refused naming the choices, before the connection is changed."""

    def level() -> int:
        db = sqlite3.connect(tmp_path / "games.db")
        try:
            set_pragmas(db)
            return int(db.execute("PRAGMA synchronous").fetchone()[0])
        finally:
            db.close()

    monkeypatch.delenv(SYNCHRONOUS_ENV, raising=False)
    assert level() == 2  # FULL
    monkeypatch.setenv(SYNCHRONOUS_ENV, "normal")
    assert level() == 1
    monkeypatch.setenv(SYNCHRONOUS_ENV, "sometimes")
    with pytest.raises(ValueError, match="OFF, NORMAL, FULL, EXTRA"):
        level()
