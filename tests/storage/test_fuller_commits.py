"""The group commit's bounded wait, on a fake clock: the first save after a rest waits the
window; saves that come while a commit is written wait, after it, the linger (within the
window since it began), so a busy writer's commits carry more saves; a commit's budget
(games or record lines) ends the wait at once; and each save still returns only once its
commit is stored (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from euchre.storage import PLAYING, StaleFenceError, StoredGame
from euchre.storage.journal import RecordTail
from euchre.storage.sql import SqlStore
from euchre.table.actor.pacing import ManualScheduler

BASE = {"format": "euchre-record", "version": 1, "rules": {}, "hands": [], "final": None}


def game(game_id: str, version: int, tail: RecordTail | None = None,
         fence: int = 0) -> StoredGame:
    """Table ``game_id`` at ``version``: written whole, or only ``tail``'s lines."""
    return StoredGame(id=game_id, kind="practice", status=PLAYING, version=version,
                      meta={"v": version}, record={} if tail else BASE, created_at=1.0,
                      updated_at=1.0 + version, fence=fence, journal=tail)


Opened = tuple[SqlStore, ManualScheduler]


@pytest.fixture(params=["sqlite", "postgres"])
async def opened(request: pytest.FixtureRequest,
                 tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[Opened]]]:
    """Opens a store of each kind on a fake clock, with the budgets asked for."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/games.db"
    else:
        server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
        if not server:
            pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
        from testdb import fresh_postgres

        url = await fresh_postgres(server)
    stores: list[SqlStore] = []

    async def open_store(**options: Any) -> Opened:
        clock = ManualScheduler()
        store = await SqlStore.open(url, commit_window=1.0, timers=clock, **options)
        stores.append(store)
        return store, clock

    try:
        yield open_store
    finally:
        for s in stores:
            await s.close()
        if request.param == "postgres":
            from testdb import drop_postgres

            await drop_postgres(url)


async def waiting(store: SqlStore, clock: ManualScheduler) -> None:
    """Until the writer waits on the clock (its timer set) with nothing being written."""
    while not (store._full is not None and clock.pending):
        await asyncio.sleep(0)


async def test_saves_wait_out_the_window_then_share_one_commit(opened) -> None:
    store, clock = await opened(commit_saves=10, commit_linger=0.25)
    first = asyncio.ensure_future(store.save(game("a", 1)))
    await waiting(store, clock)
    assert store.commits == 0 and not first.done()  # the window has not passed
    clock.advance(1.0)
    await first
    assert (store.commits, store.written) == (1, 1)
    await waiting(store, clock)  # lingers after the commit, and goes idle: nothing came
    clock.advance(0.25)
    while store._full is not None:
        await asyncio.sleep(0)
    # Three tables' saves come one after another: all wait for the window, one commit.
    saves = [asyncio.ensure_future(store.save(game(t, 1))) for t in "bcd"]
    await waiting(store, clock)
    assert store.commits == 1 and not any(s.done() for s in saves)
    clock.advance(0.5)
    await waiting(store, clock)
    assert store.commits == 1
    clock.advance(0.5)
    await asyncio.gather(*saves)
    assert (store.commits, store.written) == (2, 4)
    for t in "abcd":
        got = await store.get(t)
        assert got is not None and got.version == 1


async def test_saves_that_come_during_a_commit_wait_the_linger_after_it(opened) -> None:
    store, clock = await opened(commit_saves=10, commit_linger=0.25)
    first = asyncio.ensure_future(store.save(game("a", 1)))
    await waiting(store, clock)
    clock.advance(1.0)  # a's commit begins at once, before b's save is queued
    second = asyncio.ensure_future(store.save(game("b", 1)))
    third = asyncio.ensure_future(store.save(game("c", 1)))
    await first
    await waiting(store, clock)  # after a's commit: b and c wait for more to join them
    assert (store.commits, store.written) == (1, 1)
    assert not second.done() and not third.done()
    clock.advance(0.25)  # the linger, not the whole window
    await asyncio.gather(second, third)
    assert (store.commits, store.written) == (2, 3) and clock.now() == 1.25


async def test_a_full_budget_of_games_commits_without_waiting(opened) -> None:
    store, clock = await opened(commit_saves=3)
    saves = [asyncio.ensure_future(store.save(game(t, 1))) for t in "ab"]
    await waiting(store, clock)
    assert store.commits == 0
    saves.append(asyncio.ensure_future(store.save(game("c", 1))))  # the third: budget full
    await asyncio.gather(*saves)  # the clock never moved
    assert (store.commits, store.written) == (1, 3) and clock.now() == 0.0


async def test_a_full_budget_of_lines_commits_without_waiting(opened) -> None:
    store, clock = await opened(commit_lines=4)
    first = asyncio.ensure_future(store.save(game("a", 1)))  # a whole record fills it
    await first
    assert store.commits == 1 and clock.now() == 0.0
    one = asyncio.ensure_future(store.save(game("a", 2, RecordTail(0, ("hand 1",)))))
    await waiting(store, clock)
    assert store.commits == 1
    more = asyncio.ensure_future(store.save(
        game("a", 3, RecordTail(1, ("dealer 0", "deal 3-2", "1 pass")))))
    await asyncio.gather(one, more)
    assert (store.commits, store.written) == (2, 2) and clock.now() == 0.0
    got = await store.get("a")
    assert got is not None and got.version == 3 and len(got.record["hands"]) == 1


async def test_a_refused_save_fails_alone_in_a_fuller_commit(opened) -> None:
    store, _ = await opened(commit_saves=3)
    await asyncio.gather(*(store.save(game(t, 1, fence=1)) for t in "abc"))
    saves = [asyncio.ensure_future(store.save(game("a", 2, RecordTail(0, ("hand 1",)),
                                                    fence=1))),
             asyncio.ensure_future(store.save(game("b", 2, RecordTail(0, ("hand 1",)),
                                                    fence=0))),  # fenced out
             asyncio.ensure_future(store.save(game("c", 2, RecordTail(3, ("1 pass",)),
                                                    fence=1)))]  # lines 0-2 missing
    results = await asyncio.gather(*saves, return_exceptions=True)
    assert results[0] is None
    assert isinstance(results[1], StaleFenceError)
    assert isinstance(results[2], (ValueError, LookupError))
    assert store.commits == 2
    versions = {t: getattr(await store.get(t), "version", None) for t in "abc"}
    assert versions == {"a": 2, "b": 1, "c": 1}


@pytest.mark.parametrize("opened", ["postgres"], indirect=True)  # PostgreSQL's writer's
async def test_a_held_connection_that_dropped_fails_one_commit_and_is_replaced(
        opened) -> None:
    store, clock = await opened(commit_linger=0.25)
    for save in (game("a", 1), game("a", 2, RecordTail(0, ("hand 1",)))):
        first = asyncio.ensure_future(store.save(save))  # whole, then a line: one commit
        await asyncio.sleep(0)
    await waiting(store, clock)
    clock.advance(1.0)
    await first
    assert store.commits == 1
    ends = asyncio.ensure_future(store.save(game("a", 2, RecordTail(1, ()))))
    await waiting(store, clock)
    clock.advance(0.25)
    await ends  # a save of lines only: through the held connection
    await waiting(store, clock)  # lingering after the commit: the connection is held
    assert store._pg is not None and store._pg._raw is not None
    pid = store._pg._raw.get_server_pid()
    async with store.engine.connect() as conn:  # the server ends it, as a restart would
        assert await conn.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    second = asyncio.ensure_future(store.save(game("a", 3, RecordTail(1, ("dealer 0",)))))
    clock.advance(0.25)
    with pytest.raises(Exception):  # noqa: B017 - asyncpg's own error for a lost connection
        await second  # that commit alone fails, writing nothing
    third = asyncio.ensure_future(store.save(game("a", 3, RecordTail(1, ("dealer 1",)))))
    await waiting(store, clock)
    clock.advance(1.0)
    await third  # a new connection from the pool
    assert store._pg._raw is not None and store._pg._raw.get_server_pid() != pid
    got = await store.get("a")
    assert got is not None and got.version == 3 and got.record["hands"][0]["dealer"] == 1
