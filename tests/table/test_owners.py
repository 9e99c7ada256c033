"""The table manager under leases of its own (two managers on one store and one lease
service, as two processes of a site): the creator owns a new table, the other is told
where it runs, a dead owner's table is taken with a higher fence (on demand, or by the
orphan sweep for tables that run by themselves), the old owner's saves are refused, a new
owner's versions jump, and writes outside an actor go through the table's lease."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from euchre.leases import MemoryLeases
from euchre.storage import MemoryStore, StaleFenceError
from euchre.table.actor import TableActor
from euchre.table.manager import VERSION_JUMP, Elsewhere, TableManager
from euchre.table.owners import LeasedStore, OwnedElsewhere, TableOwners
from euchre.table.pacing import ManualScheduler
from euchre.table.practice import PracticeOptions, practice_table
from table_helpers import make_manager

TTL = 0.3


def _pair() -> tuple[TableManager, TableManager, MemoryStore]:
    store, leases = MemoryStore(), MemoryLeases()
    a, b = make_manager(store, ManualScheduler()), make_manager(store, ManualScheduler())
    a.owners = TableOwners(leases, store, "a", TTL)
    b.owners = TableOwners(leases, store, "b", TTL)
    return a, b, store


async def _die(manager: TableManager) -> None:
    """Stop renewing every lease of ``manager`` without giving them up (a killed process)."""
    assert manager.owners is not None
    for own in manager.owners.held.values():
        await own.keeper.stop(release=False)


async def _until(check: object, what: str) -> object:
    for _ in range(400):
        found = await check()  # type: ignore[operator]
        if found:
            return found
        await asyncio.sleep(0.02)
    pytest.fail(f"never: {what}")


async def test_the_creator_owns_a_table_and_a_dead_owners_table_is_taken_on_demand():
    a, b, store = _pair()
    config, token = practice_table(PracticeOptions(), table_id="t1")
    actor = await a.open(config)
    assert a.owners is not None and b.owners is not None
    assert "t1" in a.owners.held
    assert await b.locate("t1") == Elsewhere("a")
    assert await b.get("t1") is None and "t1" not in b.owners.held
    assert await b.locate("nope") is None
    fence = a.owners.held["t1"].fence
    stored = await store.get("t1")
    assert stored is not None and stored.fence == fence

    await _die(a)

    async def mine() -> TableActor | None:
        found = await b.locate("t1")
        return found if isinstance(found, TableActor) else None

    taken = await _until(mine, "the lease ran out")
    assert isinstance(taken, TableActor)
    assert taken.seat_of(token) == 0
    assert b.owners.held["t1"].fence > fence
    # No version seen twice: the new owner goes on far above what it claimed (the old
    # actor may have saved a move after ``stored`` was read, before it stopped renewing).
    claimed = b.owners.held["t1"].stored
    assert claimed is not None and claimed.version >= stored.version
    assert taken.version == claimed.version + VERSION_JUMP
    assert taken.version > actor.version
    # The old owner's actor acts on nothing, and its saves are refused.
    assert actor.guard is not None and not actor.guard()
    assert actor.store is not None
    with pytest.raises(StaleFenceError):
        await actor.store.save(actor.stored())
    await b.close()
    assert "t1" not in b.owners.held  # given up once saved
    await a.close()


async def test_the_sweep_resumes_orphans_that_run_by_themselves_not_practice_tables():
    a, b, _ = _pair()
    practice, _ = practice_table(PracticeOptions(), table_id="p1")
    selfrun = dataclasses.replace(practice_table(PracticeOptions(), table_id="s1")[0],
                                  kind="selfrun")
    await a.open(practice)
    await a.open(selfrun)
    assert await b.claim_orphans() == []  # both held by a
    await _die(a)

    async def swept() -> list[str]:
        return await b.claim_orphans()

    assert await _until(swept, "the orphans were swept") == ["s1"]
    assert b.peek("s1") is not None and b.peek("s1").running  # type: ignore[union-attr]
    assert b.peek("p1") is None and "p1" in b.retirement.dormant  # waits in storage
    assert await b.claim_orphans() == []  # taken once
    await b.close()
    await a.close()


async def test_writes_outside_an_actor_take_the_tables_lease():
    a, b, store = _pair()
    config, _ = practice_table(PracticeOptions(), table_id="t2")
    await a.open(config)
    assert b.owners is not None
    leased = LeasedStore(b.owners)
    stored = await store.get("t2")
    assert stored is not None
    with pytest.raises(OwnedElsewhere):
        await leased.save(stored)  # a runs it: refused, nothing changed
    assert await store.get("t2") == stored
    await a.forget("t2")  # saved, lease given up
    stored = await store.get("t2")
    assert stored is not None
    await leased.save(dataclasses.replace(stored, meta={**stored.meta, "closed": "x"}))
    written = await store.get("t2")
    assert written is not None and written.meta["closed"] == "x"
    assert written.fence > stored.fence and "t2" not in b.owners.held
    # A write based on a version the table has moved on from is refused.
    with pytest.raises(StaleFenceError):
        await leased.save(dataclasses.replace(stored, version=stored.version - 1))
    await a.close()
    await b.close()
