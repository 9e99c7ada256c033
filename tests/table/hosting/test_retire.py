"""Practice tables wait in storage until asked for and are retired once abandoned; coin and
online tables are resumed at start-up as before. Fake clocks, memory store."""

from __future__ import annotations

from dataclasses import replace

from euchre.storage import MemoryStore
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.hosting.retire import ABANDONED, RETIRE_AFTER
from euchre.table.kinds.coin import coin_table
from euchre.table.kinds.practice import PracticeOptions, practice_table
from table_helpers import Recorder, make_manager, until_person


class Wall:
    """A fake wall clock."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


async def test_an_abandoned_practice_table_is_retired_and_not_resumed() -> None:
    store = MemoryStore()
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    manager.retirement.now = wall = Wall()
    config, _ = practice_table(PracticeOptions(), table_id="p1", first_dealer=0)
    actor = await manager.open(config)
    watcher = Recorder(0, actor)
    await actor.join(watcher)
    assert await until_person(actor, sched)
    sched.advance(RETIRE_AFTER * 2)
    wall.now += RETIRE_AFTER * 2
    assert await manager.sweep(600) == []  # someone is watching: kept
    actor.leave(watcher)
    await actor.settle()
    sched.advance(RETIRE_AFTER)
    wall.now += RETIRE_AFTER
    assert await manager.sweep(600) == ["p1"]
    stored = await store.get("p1")
    assert stored is not None and stored.status == "finished"
    assert stored.meta["closed"] == ABANDONED
    assert await store.unfinished() == []
    back = await manager.get("p1")  # its page still shows it, closed
    assert back is not None and back.closed == ABANDONED and back.finished
    await manager.close()


async def test_practice_tables_wait_in_storage_at_start_and_are_retired_when_due() -> None:
    store = MemoryStore()
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    wall = Wall()
    for table_id in ("old", "new"):
        config, _ = practice_table(PracticeOptions(), table_id=table_id, first_dealer=0)
        actor = await manager.open(config)
        assert await until_person(actor, sched)
    coin, _ = coin_table("c1", "alice", 10, token="t", first_dealer=0)
    await manager.open(coin)
    await manager.close()  # the server stops
    for table_id, age in (("old", RETIRE_AFTER + 1), ("new", 60.0)):
        stored = await store.get(table_id)
        assert stored is not None
        await store.save(replace(stored, updated_at=wall.now - age))

    manager2 = make_manager(store, ManualScheduler(), prefix="after")
    manager2.retirement.now = wall
    assert await manager2.resume_unfinished() == ["c1"]  # only the coin table runs
    assert len(manager2) == 1 and set(manager2.retirement.dormant) == {"new"}
    old = await store.get("old")
    assert old is not None and old.status == "finished" and old.meta["closed"] == ABANDONED
    wall.now += RETIRE_AFTER
    await manager2.sweep(600)
    new = await store.get("new")
    assert new is not None and new.status == "finished" and new.meta["closed"] == ABANDONED
    assert not manager2.retirement.dormant
    await manager2.close()


async def test_a_dormant_table_asked_for_is_loaded_and_not_retired() -> None:
    store = MemoryStore()
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, token = practice_table(PracticeOptions(), table_id="p2", first_dealer=0)
    actor = await manager.open(config)
    assert await until_person(actor, sched)
    await manager.close()
    manager2 = make_manager(store, ManualScheduler(), prefix="after")
    manager2.retirement.now = wall = Wall()
    stored = await store.get("p2")
    assert stored is not None
    await store.save(replace(stored, updated_at=wall.now))
    assert await manager2.resume_unfinished() == []
    back = await manager2.get("p2")
    assert back is not None and back.running and back.seat_of(token) == 0
    wall.now += RETIRE_AFTER * 2
    await manager2.sweep(600)  # loaded (and not idle by its own clock): kept
    again = await store.get("p2")
    assert again is not None and again.status == "playing"
    await manager2.close()
