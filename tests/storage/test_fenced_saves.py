"""Fenced saves: a save with an older fence than the stored one is refused, atomically, on
memory, SQLite and PostgreSQL; a new owner claims a table before it loads it."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from euchre.storage import FINISHED, PLAYING, GameStore, MemoryStore, StaleFenceError, StoredGame
from euchre.storage.sql import SqlStore


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def stores(request: pytest.FixtureRequest,
                 tmp_path: Path) -> AsyncIterator[tuple[GameStore, GameStore]]:
    """Two stores on one database, as two processes would have (memory: one store twice)."""
    if request.param == "memory":
        s = MemoryStore()
        yield s, s
        return
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/games.db"
    else:
        server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
        if not server:
            pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
        from testdb import fresh_postgres

        url = await fresh_postgres(server)
    a = await SqlStore.open(url)
    b = await SqlStore.open(url, run_migrations=False)
    try:
        yield a, b
    finally:
        await a.close()
        await b.close()
        if request.param == "postgres":
            from testdb import drop_postgres

            await drop_postgres(url)


def game(game_id: str, version: int, fence: int, status: str = PLAYING) -> StoredGame:
    """A stored game at ``version`` written by the owner holding ``fence``."""
    return StoredGame(
        id=game_id, kind="practice", status=status, version=version,
        meta={"config": {"id": game_id}}, record={"hands": [{"actions": [[0, "pass"]] * version}]},
        created_at=1.0, updated_at=1.0 + version, fence=fence,
    )


async def test_a_save_with_an_older_fence_is_refused_and_changes_nothing(stores):
    a, b = stores
    await a.save(game("t", 5, fence=2))
    with pytest.raises(StaleFenceError) as refused:
        await b.save(game("t", 9, fence=1))
    assert (refused.value.fence, refused.value.stored_fence) == (1, 2)
    assert "another process owns this table" in str(refused.value)
    assert await a.get("t") == game("t", 5, fence=2)
    await b.save(game("t", 6, fence=2))  # the same owner writes on
    await b.save(game("t", 7, fence=3))  # and a newer one
    assert await a.get("t") == game("t", 7, fence=3)
    assert [g.fence for g in await a.unfinished()] == [3]


async def test_a_claim_fences_out_the_old_owner_before_the_new_one_loads(stores):
    old, new = stores
    await old.save(game("t", 4, fence=1))
    claimed = await new.claim("t", 2)
    assert claimed == game("t", 4, fence=2)  # the state as the old owner left it
    with pytest.raises(StaleFenceError):
        await old.save(game("t", 5, fence=1))  # the paused old owner, resumed
    await new.save(game("t", 5, fence=2))
    assert await old.get("t") == game("t", 5, fence=2)
    assert await new.claim("t", 2) == game("t", 5, fence=2)  # claiming again is harmless
    with pytest.raises(StaleFenceError):
        await old.claim("t", 1)
    assert await new.claim("missing", 3) is None
    assert await new.get("missing") is None


async def test_fences_default_to_zero_in_one_process(stores):
    a, _ = stores
    await a.save(dataclasses.replace(game("t", 1, 0)))
    await a.save(game("t", 2, 0, FINISHED))
    assert (await a.get("t")).fence == 0
    assert (await a.recent(status=FINISHED))[0].version == 2


async def test_one_group_commit_writes_the_fresh_saves_and_refuses_the_stale_one(stores):
    a, _ = stores
    await a.save(game("x", 1, fence=3))
    await a.save(game("y", 1, fence=3))
    results = await asyncio.gather(
        a.save(game("x", 2, fence=2)), a.save(game("y", 2, fence=3)),
        a.save(game("z", 1, fence=1)), return_exceptions=True)
    assert isinstance(results[0], StaleFenceError) and results[0].game_id == "x"
    assert results[1:] == [None, None]
    assert [(await a.get(i)).version for i in "xyz"] == [1, 2, 1]


async def test_racing_owners_leave_the_newest_owners_last_state(stores):
    """Owners 1..8 each claim the table and save in a burst, all at once: whatever the
    interleaving, the row ends with the highest fence that saved, and every save refused
    was older than the fence stored when it was refused."""
    a, b = stores
    await a.save(game("t", 0, fence=0))

    async def owner(fence: int) -> list[bool]:
        store = a if fence % 2 else b
        ok = []
        with contextlib.suppress(StaleFenceError):  # a newer owner claimed first
            await store.claim("t", fence)
        for step in range(1, 4):
            try:
                await store.save(game("t", fence * 10 + step, fence))
                ok.append(True)
            except StaleFenceError as e:
                assert e.stored_fence > fence
                ok.append(False)
        return ok

    results = await asyncio.gather(*(owner(f) for f in range(1, 9)))
    final = await a.get("t")
    assert final is not None
    assert final.fence == max(f for f, ok in zip(range(1, 9), results, strict=True) if any(ok))
    assert final.version // 10 == final.fence
    assert final.fence == 8 or not any(results[7])


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_the_migration_gives_games_saved_before_it_fence_zero(backend, tmp_path):
    from alembic import command
    from sqlalchemy import text

    from euchre.storage.sql import alembic_config, make_engine, migrate

    if backend == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/old.db"
    else:
        server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
        if not server:
            pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
        from testdb import fresh_postgres

        url = await fresh_postgres(server)
    try:
        await asyncio.to_thread(command.upgrade, alembic_config(url), "0002_accounts")
        engine = make_engine(url)
        async with engine.begin() as conn:
            await conn.execute(text(
                "INSERT INTO games (id, kind, status, version, meta, record, created_at, "
                "updated_at) VALUES ('old', 'practice', 'playing', 7, '{}', '{}', 1, 2)"))
        await engine.dispose()
        await asyncio.to_thread(migrate, url)
        store = await SqlStore.open(url)
        try:
            old = await store.get("old")
            assert old is not None and (old.version, old.fence) == (7, 0)
            assert (await store.claim("old", 1)).fence == 1
            with pytest.raises(StaleFenceError):
                await store.save(dataclasses.replace(old, version=8))
        finally:
            await store.close()
    finally:
        if backend == "postgres":
            from testdb import drop_postgres

            await drop_postgres(url)


async def test_a_fenced_store_changes_saves_and_loading_only(stores):
    from euchre.storage.fenced import FencedStore

    a, b = stores
    await a.save(game("t", 3, fence=1))
    await a.save(game("done", 4, fence=1, status=FINISHED))
    fenced = FencedStore(b, 2)
    await fenced.ping()
    assert fenced.engine is getattr(b, "engine", None)
    assert await fenced.get("t") == game("t", 3, fence=1)  # reads as they are
    assert await fenced.unfinished_ids() == await b.unfinished_ids()
    assert [g.id for g in await fenced.recent(status=FINISHED)] == ["done"]
    assert await fenced.max_fence() == 1
    assert await fenced.unfinished() == [game("t", 3, fence=2)]  # loading claims
    await fenced.save(game("t", 4, fence=0))  # stamped with its own fence
    assert await a.get("t") == game("t", 4, fence=2)
    with pytest.raises(StaleFenceError):
        await FencedStore(a, 1).save(game("t", 5, fence=9))  # the old owner's fence
    assert await fenced.claim("t", 3) == game("t", 4, fence=3)


async def test_a_games_fence_is_read_without_its_record_as_get_gives_it(stores):
    a, b = stores
    assert await a.fence_of("t") is None  # no such game
    await a.save(game("t", 5, fence=2))
    assert await b.fence_of("t") == 2 == (await b.get("t")).fence
    await b.claim("t", 4)
    assert await a.fence_of("t") == 4 == (await a.get("t")).fence
    assert await a.fence_of("other") is None


async def test_a_save_being_written_counts_in_the_fence_read(stores):
    a, _ = stores
    await a.save(game("t", 1, fence=1))
    writing = asyncio.ensure_future(a.save(game("t", 2, fence=3)))  # waits for its commit
    await asyncio.sleep(0)
    assert await a.fence_of("t") == 3 == (await a.get("t")).fence
    await writing
    assert await a.fence_of("t") == 3


async def test_a_write_refused_by_a_claim_committed_meanwhile_is_told_stale() -> None:
    # PostgreSQL's one-statement write reads the rows of the saves it did not write in the
    # statement's snapshot: a newer owner's claim committed while the write waited on the
    # row stopped the write, yet that read shows the row before it (fence 6, ours 7), which
    # was reported as missing journal lines. The rows that do not explain it are read again.
    from euchre.storage.journal import RecordTail
    from euchre.storage.pg_writer import _ROWS_NOW, PgWriter
    from euchre.storage.sql import _meta_text, _record_text, _refusal, _write

    asked: list[str] = []

    async def fetch(query: str, *args: object) -> list[tuple[str, int, int]]:
        asked.append(query)
        if query == _ROWS_NOW:
            assert list(args[0]) == ["t"]  # type: ignore[call-overload]
            return [("t", 8, 3)]  # as committed now: the newer owner's claim
        return [("t", 6, 3)]  # the statement's snapshot: before the claim

    writer = PgWriter(None, _meta_text, _record_text, _refusal)  # type: ignore[arg-type]
    writer._fetch = fetch  # type: ignore[method-assign]
    whole = game("t", 70, fence=7)
    refused = await writer.write_whole({"t": _write(whole)})
    assert isinstance(refused["t"], StaleFenceError) and refused["t"].stored_fence == 8
    tail = _write(dataclasses.replace(whole, journal=RecordTail(3, ("0 pass",))))
    refused = await writer.write({"t": tail})
    assert isinstance(refused["t"], StaleFenceError), refused
    assert asked.count(_ROWS_NOW) == 2
