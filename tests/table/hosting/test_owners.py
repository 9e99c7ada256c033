"""The table manager under leases of its own (two managers on one store and one lease
service, as two processes of a site): the creator owns a new table, the other is told
where it runs, a dead owner's table is taken with a higher fence (on demand, or by the
orphan sweep for tables that run by themselves), the old owner's saves are refused, a new
owner's versions jump, and writes outside an actor go through the table's lease.

Per-table ownership's building block: take a table (lease + claim), lose it to expiry,
list orphans, and the old owner's writes refused — memory or real Redis leases, SQLite or
real PostgreSQL storage (two store handles on one database, as two processes have)."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from euchre.leases import Leases, MemoryLeases
from euchre.storage import FINISHED, PLAYING, MemoryStore, StaleFenceError, StoredGame
from euchre.storage.sql import SqlStore
from euchre.table.actor.actor import TableActor
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.hosting.manager import VERSION_JUMP, Elsewhere, TableManager
from euchre.table.hosting.owners import (
    LeasedStore,
    OwnedElsewhere,
    TableOwners,
    table_lease_name,
    take_table,
)
from euchre.table.kinds.practice import PracticeOptions, practice_table
from redis_fixtures import REDIS_URL, fresh_prefix, needs_redis
from table_helpers import make_manager

TTL = 30.0
"""Long enough that no renewal late on a busy machine loses a lease: a lease runs out only
when a test says so (:func:`_die`)."""


def _pair() -> tuple[TableManager, TableManager, MemoryStore]:
    store, leases = MemoryStore(), MemoryLeases()
    a, b = make_manager(store, ManualScheduler()), make_manager(store, ManualScheduler())
    a.owners = TableOwners(leases, store, "a", TTL)
    b.owners = TableOwners(leases, store, "b", TTL)
    return a, b, store


async def _die(manager: TableManager) -> None:
    """Stop renewing every lease of ``manager`` without giving them up (a killed process),
    and let its leases' time pass: the lease service's clock moves past them (they run
    out), and so does each keeper's (the old owner counts them lost, as it would once their
    time was up), without waiting on the wall clock."""
    assert manager.owners is not None
    for own in manager.owners.held.values():
        await own.keeper.stop(release=False)
        own.keeper.now = lambda: time.monotonic() + TTL
    leases = manager.owners.leases
    assert isinstance(leases, MemoryLeases)
    later = leases.now() + TTL
    leases.now = lambda: later


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


CLAIM_TTL = 30.0


async def run_out(leases: Leases, name: str) -> None:
    """The lease ``name`` runs out now, as if its time had passed, without waiting for it on
    the wall clock (a short TTL raced the test's own saves and queries on a busy machine):
    memory, the service's clock moves past it; Redis, the key expires at a time long past
    (which Redis answers by deleting it at once)."""
    if isinstance(leases, MemoryLeases):
        later = leases.now() + CLAIM_TTL
        leases.now = lambda: later
        return
    from euchre.leases.redis import RedisLeases

    assert isinstance(leases, RedisLeases)
    assert await leases.client.pexpireat(f"{leases.prefix}{name}", 1)


@pytest.fixture(params=["memory", pytest.param("redis", marks=needs_redis)])
async def leases(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Leases, Leases]]:
    """Two handles on one lease service."""
    if request.param == "memory":
        shared = MemoryLeases()
        yield shared, shared
        return
    from euchre.leases.redis import RedisLeases

    assert REDIS_URL
    prefix = fresh_prefix()
    a, b = RedisLeases.from_url(REDIS_URL, prefix=prefix), RedisLeases.from_url(REDIS_URL,
                                                                              prefix=prefix)
    yield a, b
    await a.close()
    await b.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def stores(request: pytest.FixtureRequest,
                 tmp_path: Path) -> AsyncIterator[tuple[SqlStore, SqlStore]]:
    """Two stores on one fresh database."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/o.db"
    else:
        server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
        if not server:
            pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
        from testdb import fresh_postgres

        url = await fresh_postgres(server)
    a = await SqlStore.open(url)
    b = await SqlStore.open(url, run_migrations=False)
    yield a, b
    await a.close()
    await b.close()
    if request.param == "postgres":
        from testdb import drop_postgres

        await drop_postgres(url)


def game(table_id: str, version: int, status: str = PLAYING, fence: int = 0) -> StoredGame:
    return StoredGame(id=table_id, kind="coin", status=status, version=version,
                      meta={"config": {"id": table_id}}, record={"v": version},
                      created_at=1.0, updated_at=float(version), fence=fence)


async def orphans(leases: Leases, store: SqlStore) -> list[str]:
    """The ids of the unfinished tables nobody holds, as a sweeper process lists them."""
    return [t for t, _, _ in await TableOwners(leases, store, "sweeper", CLAIM_TTL).orphans()]


async def test_two_processes_race_for_each_table_and_one_owns_it(leases, stores):
    (la, lb), (sa, sb) = leases, stores
    tables = [f"t{i}" for i in range(8)]
    for i, table_id in enumerate(tables):
        await sa.save(game(table_id, 1, fence=i))  # earlier owners left various fences
    results = await asyncio.gather(*(take_table(la, sa, t, "p1", 30) for t in tables),
                                   *(take_table(lb, sb, t, "p2", 30) for t in tables))
    for i, table_id in enumerate(tables):
        owned = [o for o in (results[i], results[i + len(tables)]) if o is not None]
        assert len(owned) == 1, table_id
        assert owned[0].fence > i and owned[0].is_held()
        assert owned[0].stored is not None and owned[0].stored.fence == owned[0].fence
        assert (await sa.get(table_id)).fence == owned[0].fence
    assert await orphans(la, sa) == []
    for o in results:
        if o is not None:
            await o.release()
    assert sorted(await orphans(la, sa)) == tables


async def test_a_dead_owners_table_becomes_an_orphan_and_the_next_owner_fences_it_out(
        leases, stores):
    (la, lb), (sa, sb) = leases, stores
    await sa.save(game("t", 1))
    await sa.save(game("done", 1, FINISHED))
    first = await take_table(la, sa, "t", "p1", CLAIM_TTL)
    assert first is not None
    await first.store.save(game("t", 2))  # stamped with its fence
    await first.keeper.stop(release=False)  # the process dies: nobody renews or releases
    assert await orphans(lb, sb) == []  # its lease still runs
    await run_out(lb, table_lease_name("t"))
    assert await lb.holder(table_lease_name("t")) is None
    assert await orphans(lb, sb) == ["t"]  # finished games are nobody's concern
    second = await take_table(lb, sb, "t", "p2", 30)
    assert second is not None and second.fence > first.fence
    assert second.stored == dataclasses.replace(game("t", 2), fence=second.fence)
    with pytest.raises(StaleFenceError):
        await first.store.save(game("t", 3))  # the old owner, were it only paused
    await second.store.save(game("t", 3))
    assert (await sa.get("t")).fence == second.fence
    assert await take_table(la, sa, "t", "p1", 30) is None  # held by p2
    await second.release()


async def test_a_table_not_saved_yet_can_be_taken(leases, stores):
    (la, _), (sa, _) = leases, stores
    owned = await take_table(la, sa, "new", "p1", 30)
    assert owned is not None and owned.stored is None and owned.fence == 1
    await owned.store.save(game("new", 1))
    assert (await sa.get("new")).fence == 1
    await owned.release()


async def test_a_new_table_takes_just_its_lease_and_a_clashing_id_changes_nothing(
        leases, stores):
    (la, _), (sa, _) = leases, stores
    owned = await take_table(la, sa, "fresh", "p1", 30, new=True)
    assert owned is not None and owned.stored is None and owned.fence == 1
    await owned.store.save(game("fresh", 1))
    assert (await sa.get("fresh")).fence == 1
    await owned.release()
    # An id saved already under a higher fence than the lease service remembers (its
    # data lost): taken as new, the first save is refused and the row stays as it was.
    await sa.save(game("old", 4, fence=7))
    clash = await take_table(la, sa, "old", "p1", 30, new=True)
    assert clash is not None and clash.fence == 1
    with pytest.raises(StaleFenceError):
        await clash.store.save(game("old", 1))
    assert await sa.get("old") == game("old", 4, fence=7)
    await clash.release()
