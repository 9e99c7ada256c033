"""Crash safety: every change is saved, and a restarted server resumes unfinished tables."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from msgspec import to_builtins

from euchre.shuffle import commitment
from euchre.storage import GameStore, MemoryStore
from euchre.storage.sql import SqlStore
from euchre.table.actor.events import HAND_OVER
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.kinds.practice import PracticeOptions, practice_table
from table_helpers import Recorder, make_manager, play_game, until_person


async def crash_and_resume(store: GameStore) -> None:
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, token = practice_table(PracticeOptions(), table_id="t1", first_dealer=3)
    actor = await manager.open(config)
    rng = random.Random(5)
    for _ in range(3):  # a few of the person's moves into the first hand
        assert await until_person(actor, sched)
        view = actor.view(0)
        assert view is not None
        await actor.act(0, str(rng.choice(view.legal)))
    await actor.settle()
    before = actor.game
    version = actor.version
    published = to_builtins(actor.snapshot(0))["commitment"]
    await manager.close()  # the process dies: nothing is kept but the store

    sched2 = ManualScheduler()
    manager2 = make_manager(store, sched2, prefix="after")
    # a practice table waits in storage until asked for (table/hosting/retire.py)
    assert await manager2.resume_unfinished() == []
    assert "t1" in manager2.retirement.dormant
    resumed = await manager2.get("t1")
    assert resumed is not None
    assert resumed.version == version
    assert resumed.seat_of(token) == 0
    assert resumed.record().to_json() == actor.record().to_json()
    assert [h.history() for h in resumed.game.all_hands()] == [
        h.history() for h in before.all_hands()
    ]
    rec = Recorder(0, resumed)
    await resumed.join(rec, since=version)
    # the hand in progress keeps its secret seed: the revealed one matches the commitment
    await play_game(resumed, sched2, rng)
    assert resumed.game.is_over
    over = next(m for m in rec.events() if m["event"]["kind"] == HAND_OVER)
    assert commitment(over["event"]["summary"]["seed"]) == published
    stored = await store.get("t1")
    assert stored is not None and stored.status == "finished"
    assert await store.unfinished() == []
    await manager2.close()


async def test_restart_resumes_an_unfinished_table_from_memory_store() -> None:
    await crash_and_resume(MemoryStore())


async def test_restart_resumes_an_unfinished_table_from_sqlite(tmp_path: Path) -> None:
    store = await SqlStore.open(f"sqlite+aiosqlite:///{tmp_path}/games.db", commit_window=0)
    try:
        await crash_and_resume(store)
    finally:
        await store.close()


async def test_every_change_is_saved_at_once() -> None:
    store = MemoryStore()
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, _ = practice_table(PracticeOptions(), table_id="t2", first_dealer=0)
    actor = await manager.open(config)
    await actor.settle()
    for _ in range(3):
        sched.advance(0.5)
        await actor.settle()
        stored = await store.get("t2")
        assert stored is not None and stored.version == actor.version
        assert stored.record == actor.record().to_json()
    await manager.close()


async def test_the_saved_record_text_is_the_record() -> None:
    import json

    store = MemoryStore()
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, _ = practice_table(PracticeOptions(), table_id="t4", first_dealer=1)
    actor = await manager.open(config)
    await play_game(actor, sched, random.Random(3))
    stored = actor.stored()
    assert stored.record_text is not None
    assert json.loads(stored.record_text) == stored.record == actor.record().to_json()
    await manager.close()


@pytest.mark.postgres
async def test_restart_resumes_an_unfinished_table_from_postgresql() -> None:
    server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
    if not server:
        pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
    from testdb import drop_postgres, fresh_postgres

    url = await fresh_postgres(server)
    store = await SqlStore.open(url, commit_window=0)
    try:
        await crash_and_resume(store)
    finally:
        await store.close()
        await drop_postgres(url)
