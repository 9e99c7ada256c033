"""Saves that append the record's new lines: the stores keep a base and the lines after it,
read them back as the whole record, and refuse lines that do not follow what is stored or
come from an owner fenced out (memory, SQLite, PostgreSQL)."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from euchre.storage import PLAYING, GameStore, MemoryStore, StaleFenceError, StoredGame
from euchre.storage.fenced import FencedStore
from euchre.storage.journal import RecordTail
from euchre.storage.sql import SqlStore, alembic_config

BASE = {"format": "euchre-record", "version": 1, "rules": {}, "hands": [], "final": None}
OPENING = ("hand 1", "dealer 0", "deal 3-2", "hands 9C TC JC QC KC | 9D TD JD QD KD | "
           "9H TH JH QH KH | 9S TS JS QS KS", "kitty AC AD AH AS")


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[GameStore]:
    """Each kind of store, empty."""
    if request.param == "memory":
        yield MemoryStore()
        return
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/games.db"
    else:
        server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
        if not server:
            pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
        from testdb import fresh_postgres

        url = await fresh_postgres(server)
    s = await SqlStore.open(url)
    try:
        yield s
    finally:
        await s.close()
        if request.param == "postgres":
            from testdb import drop_postgres

            await drop_postgres(url)


def game(version: int, tail: RecordTail | None = None, fence: int = 0) -> StoredGame:
    """Table ``t`` at ``version``: its record whole (the base), or only ``tail``."""
    return StoredGame(id="t", kind="practice", status=PLAYING, version=version,
                      meta={"v": version}, record={} if tail else BASE, created_at=1.0,
                      updated_at=1.0 + version, fence=fence, journal=tail)


def record(*lines: str) -> dict[str, object]:
    """BASE with one hand of ``lines`` after OPENING."""
    hand = {"dealer": 0, "pattern": "3-2", "hands": [h.split() for h in OPENING[3][6:].split("|")],
            "kitty": OPENING[4].split()[1:], "actions": [], "result": None}
    hand["actions"] = [[int(line[0]), line[2:]] for line in lines]
    return {**BASE, "hands": [hand]}


async def test_lines_are_appended_and_read_back_as_the_record(store: GameStore) -> None:
    await store.save(game(1))
    await store.save(game(2, RecordTail(0, OPENING)))
    await store.save(game(3, RecordTail(5, ("1 pass",))))
    got = await store.get("t")
    assert got is not None and got.record == record("1 pass") and got.version == 3
    assert got.meta == {"v": 3}
    assert [g.record for g in await store.unfinished()] == [record("1 pass")]
    assert [g.record for g in await store.recent()] == [record("1 pass")]


async def test_lines_written_again_from_an_earlier_place_replace_those_after_it(
        store: GameStore) -> None:
    await store.save(game(1))
    await store.save(game(2, RecordTail(0, (*OPENING, "1 pass", "2 pass"))))
    await store.save(game(3, RecordTail(6, ("2 order",))))  # "2 pass" was undone
    got = await store.get("t")
    assert got is not None and got.record == record("1 pass", "2 order")
    await store.save(game(4))  # written whole again: no lines after it
    got = await store.get("t")
    assert got is not None and got.record == BASE


async def test_lines_that_do_not_follow_the_stored_ones_are_refused(store: GameStore) -> None:
    with pytest.raises(LookupError):
        await store.save(game(1, RecordTail(0, OPENING)))  # nothing stored to follow
    assert await store.get("t") is None
    await store.save(game(1))
    with pytest.raises((ValueError, LookupError)):
        await store.save(game(2, RecordTail(3, ("1 pass",))))  # lines 0-2 never stored
    got = await store.get("t")
    assert got is not None and got.version == 1 and got.record == BASE


async def test_saves_waiting_together_are_written_in_order(store: GameStore) -> None:
    await store.save(game(1))
    await asyncio.gather(store.save(game(2, RecordTail(0, OPENING))),
                         store.save(game(3, RecordTail(5, ("1 pass",)))),
                         store.save(game(4, RecordTail(6, ("2 pass",)))))
    got = await store.get("t")
    assert got is not None and got.version == 4 and got.record == record("1 pass", "2 pass")


async def test_a_claim_reads_the_base_and_the_lines_that_count(store: GameStore) -> None:
    # PostgreSQL claims in statements of its own (the fence raised returning the row, then
    # the lines before the row's count): the same game as the others read.
    await store.save(game(1, fence=1))
    await store.save(game(2, RecordTail(0, OPENING), fence=1))
    await store.save(game(3, RecordTail(5, ("1 pass", "2 pass")), fence=1))
    claimed = await store.claim("t", 2)
    assert claimed is not None
    assert (claimed.version, claimed.fence, claimed.meta) == (3, 2, {"v": 3})
    assert claimed.record == record("1 pass", "2 pass") == (await store.get("t")).record
    assert await store.fence_of("t") == 2
    with pytest.raises(StaleFenceError) as refused:
        await store.claim("t", 1)
    assert (refused.value.fence, refused.value.stored_fence) == (1, 2)
    assert await store.claim("missing", 3) is None and await store.fence_of("missing") is None
    await store.save(game(4, fence=2))  # a base written whole again: no lines count now
    claimed = await store.claim("t", 3)
    assert claimed is not None and claimed.record == BASE and claimed.fence == 3


async def test_lines_from_an_owner_fenced_out_are_refused_and_not_written(
        store: GameStore) -> None:
    old, new = FencedStore(store, 1), FencedStore(store, 2)
    await old.save(game(1))
    await old.save(game(2, RecordTail(0, OPENING)))
    assert [g.fence for g in await new.unfinished()] == [2]  # claimed by the new owner
    with pytest.raises(StaleFenceError):
        await old.save(game(3, RecordTail(5, ("1 pass",))))
    got = await store.get("t")
    assert got is not None and got.version == 2 and got.record == record()
    await new.save(game(3, RecordTail(5, ("1 order",))))
    got = await store.get("t")
    assert got is not None and got.record == record("1 order") and got.fence == 2


async def test_a_game_read_while_its_lines_are_being_written_has_them(tmp_path: Path) -> None:
    store = await SqlStore.open(f"sqlite+aiosqlite:///{tmp_path}/g.db", commit_window=0.05)
    try:
        await store.save(game(1))
        await store.save(game(2, RecordTail(0, OPENING)))
        saving = asyncio.ensure_future(store.save(game(3, RecordTail(5, ("1 pass",)))))
        await asyncio.sleep(0)
        got = await store.get("t")  # still in the commit window
        assert got is not None and got.version == 3 and got.record == record("1 pass")
        await saving
    finally:
        await store.close()


def hold_commits(store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> tuple[
        asyncio.Event, asyncio.Event]:
    """Makes ``store``'s writer stop once it has taken its saves, before it writes them:
    (set once it has taken them, set it to let the commit go on)."""
    taken, go = asyncio.Event(), asyncio.Event()
    owner, name = ((store._sqlite, "write") if store._sqlite is not None
                   else (store, "_write_pg") if store._pg is not None else (store, "_write"))
    commit = getattr(owner, name)

    async def held(*args: Any) -> Any:
        taken.set()
        await go.wait()
        return await commit(*args)

    monkeypatch.setattr(owner, name, held)
    return taken, go


@pytest.mark.parametrize("store", ["sqlite", "postgres"], indirect=True)  # (the memory
async def test_a_game_read_while_its_save_is_being_committed_has_it(  # store writes at once)
        store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # The writer takes the waiting saves, then commits them: a read in between once found
    # neither (the row as before the save) on a busy machine.
    assert isinstance(store, SqlStore)
    await store.save(game(1, fence=1))
    taken, go = hold_commits(store, monkeypatch)
    committing = asyncio.ensure_future(store.save(game(2, RecordTail(0, OPENING), fence=3)))
    await taken.wait()
    assert store._pending == {} and not committing.done()
    got = await store.get("t")
    assert got is not None and (got.version, got.fence, got.record) == (2, 3, record())
    assert await store.fence_of("t") == 3
    waiting = asyncio.ensure_future(store.save(game(3, RecordTail(5, ("1 pass",)), fence=3)))
    await asyncio.sleep(0)
    assert "t" in store._pending  # behind the commit: both count
    got = await store.get("t")
    assert got is not None and (got.version, got.record) == (3, record("1 pass"))
    go.set()
    await asyncio.gather(committing, waiting)
    got = await store.get("t")
    assert got is not None and (got.version, got.fence, got.record) == (3, 3, record("1 pass"))
    assert await store.fence_of("t") == 3


async def test_the_base_is_not_written_again_by_a_move(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    store = await SqlStore.open(f"sqlite+aiosqlite:///{path}")
    try:
        await store.save(dataclasses.replace(game(1), record_text='{"format":"euchre-record",'
                                             '"version":1,"rules":{},"hands":[],"final":null}'))
        for i, line in enumerate(OPENING):
            await store.save(game(2 + i, RecordTail(i, (line,))))
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT record, lines FROM games").fetchone() == (
            '{"format":"euchre-record","version":1,"rules":{},"hands":[],"final":null}', 5)
        assert db.execute("SELECT count(*) FROM game_lines").fetchone() == (5,)


def test_the_migration_keeps_games_saved_before_it_and_folds_lines_back_down(
        tmp_path: Path) -> None:
    from alembic import command

    url = f"sqlite+aiosqlite:///{tmp_path}/m.db"
    config = alembic_config(url)
    command.upgrade(config, "0006_stake_pots")
    with sqlite3.connect(tmp_path / "m.db") as db:
        db.execute("INSERT INTO games (id, kind, status, version, meta, record, created_at, "
                   "updated_at, fence) VALUES ('old', 'practice', 'playing', 7, '{}', "
                   "'{\"format\":\"euchre-record\",\"hands\":[]}', 1, 2, 0)")
    command.upgrade(config, "head")

    async def use() -> None:
        store = await SqlStore.open(url, run_migrations=False)
        try:
            got = await store.get("old")
            assert got is not None and got.record == {"format": "euchre-record", "hands": []}
            await store.save(game(1))
            await store.save(game(2, RecordTail(0, (*OPENING, "1 pass"))))
        finally:
            await store.close()

    asyncio.run(use())
    command.downgrade(config, "0006_stake_pots")
    import json

    with sqlite3.connect(tmp_path / "m.db") as db:
        rows = dict(db.execute("SELECT id, record FROM games").fetchall())
    assert json.loads(rows["t"]) == record("1 pass")
    assert json.loads(rows["old"]) == {"format": "euchre-record", "hands": []}


@pytest.mark.parametrize("store", ["sqlite", "postgres"], indirect=True)
async def test_closing_waits_for_the_commit_under_way(
        store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # A store closed while its writer was committing cancelled the commit's wait: the
    # saves in it never heard how it ended (their tables would wait for ever).
    assert isinstance(store, SqlStore)
    taken, go = hold_commits(store, monkeypatch)
    committing = asyncio.ensure_future(store.save(game(1, fence=1)))
    await taken.wait()
    closing = asyncio.ensure_future(store.close())
    await asyncio.sleep(0.05)
    assert not closing.done()  # it waits for the commit
    go.set()
    await asyncio.wait_for(committing, timeout=10)  # stored, and told so
    await asyncio.wait_for(closing, timeout=10)
