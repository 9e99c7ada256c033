"""One door to a table: two processes of a site in one event loop (their managers on one
store and one set of leases, their relays on one in-memory broker). A table comes through
the door as a handle whether it runs here or at the other process; a table nobody is
connected to is handed over to the process that asks to move it; a kept one is asked
through the relays; and a question to an owner that let the table go meanwhile is asked
again where the table is now, without the caller seeing any of it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from server_helpers import make_manager

from euchre.broker.memory import MemoryBroker
from euchre.leases import MemoryLeases
from euchre.server.tables.door import (
    ALREADY,
    NOW,
    OVER,
    TRIES,
    LocalTable,
    RemoteTable,
    TableMoving,
    Tables,
)
from euchre.server.tables.hints import HintService
from euchre.server.tables.relay import RelayEdge, RelayHost
from euchre.storage import MemoryStore
from euchre.storage.base import FINISHED
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.hosting.manager import TableManager
from euchre.table.hosting.owners import TableOwners
from euchre.table.kinds.practice import PracticeOptions, practice_table

TTL = 30.0


@dataclass
class Process:
    """One process of the site: its tables, its relays and its door."""

    manager: TableManager
    owners: TableOwners
    host: RelayHost
    door: Tables


class _Listener:
    """A socket's place at a table (keeps the table where it runs)."""

    def __init__(self, seat: int) -> None:
        self.seat: int | None = seat
        self.got: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.got.append(message)


@pytest.fixture
async def site() -> AsyncIterator[tuple[Process, Process, MemoryStore]]:
    store, leases, broker = MemoryStore(), MemoryLeases(), MemoryBroker()
    await broker.connect()
    processes = []
    for name in ("a", "b"):
        manager = make_manager(store, ManualScheduler(), prefix=name)
        owners = TableOwners(leases, store, name, TTL)
        manager.owners = owners
        hints = HintService(1.0)
        host = RelayHost(broker, manager, name, TTL, hints)
        door = Tables(manager, hints, None, RelayEdge(broker, owners))
        host.start()
        await host.ready.wait()
        processes.append(Process(manager, owners, host, door))
    try:
        yield processes[0], processes[1], store
    finally:
        for process in processes:
            await process.host.stop()
            await process.manager.close()
        await broker.disconnect()


async def test_a_table_here_and_a_table_elsewhere_come_through_the_same_door(site) -> None:
    a, b, _ = site
    config, token = practice_table(PracticeOptions(), table_id="t1")
    await a.manager.open(config)
    here, there = await a.door.open("t1"), await b.door.open("t1")
    assert isinstance(here, LocalTable) and isinstance(there, RemoteTable)
    assert there.owner == "a" and "t1" not in b.owners.held  # read, not taken
    for handle in (here, there):
        view = await handle.view()
        assert view is not None and view.seat_of(token) == 0
    assert await b.door.open("nowhere") is None


async def test_a_table_nobody_is_connected_to_moves_to_the_process_that_asks(site) -> None:
    a, b, _ = site
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    await a.manager.open(config)
    moved = await b.door.open("t1", move_here=True)
    assert isinstance(moved, LocalTable)
    assert "t1" in b.owners.held and "t1" not in a.owners.held
    assert a.manager.peek("t1") is None


async def test_a_kept_table_is_closed_by_its_owner_when_asked_elsewhere(site) -> None:
    a, b, store = site
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    actor = await a.manager.open(config)
    await actor.join(_Listener(0))  # somebody is connected there: it stays
    handle = await b.door.open("t1", move_here=True)
    assert isinstance(handle, RemoteTable)
    assert await handle.close("left") is True
    assert actor.closed == "left" and a.manager.peek("t1") is None
    stored = await store.get("t1")
    assert stored is not None and (stored.status, stored.meta["closed"]) == (FINISHED, "left")
    assert await handle.close("left") is True  # closed before: still True, found again


async def test_a_question_to_an_owner_that_let_go_is_asked_where_the_table_is_now(
        site) -> None:
    a, b, store = site
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    actor = await a.manager.open(config)
    await actor.join(_Listener(0))
    handle = await b.door.open("t1", move_here=True)
    assert isinstance(handle, RemoteTable) and handle.owner == "a"
    await a.manager.forget("t1")  # let go (saved, lease released) after the look
    assert await handle.close("left") is True  # asked a (not there), then taken here
    assert "t1" not in a.owners.held and a.manager.peek("t1") is None
    assert "t1" not in b.owners.held and b.manager.peek("t1") is None  # closed, let go
    stored = await store.get("t1")
    assert stored is not None and (stored.status, stored.meta["closed"]) == (FINISHED, "left")


async def _closed_at_a_asked_from_b(a: Process, b: Process, table_id: str,
                                    leaver: int | None = None) -> RemoteTable:
    """``table_id`` opened at a with somebody connected, b's handle to it, then (after
    ``leaver``'s seat was replaced there, if given) closed at a and let go."""
    config, _ = practice_table(PracticeOptions(), table_id=table_id)
    actor = await a.manager.open(config)
    await actor.join(_Listener(0))
    handle = await b.door.open(table_id, move_here=True)
    assert isinstance(handle, RemoteTable) and handle.owner == "a"
    if leaver is not None:
        assert await (await a.door.open(table_id)).replace(leaver, "left") == NOW
    assert await (await a.door.open(table_id)).close("left") is True  # closed, let go
    return handle


async def test_a_close_asked_after_the_table_was_closed_and_let_go_is_answered_from_storage(
        site) -> None:
    # Three processes leave at once: a closes its table and lets it go, and the lease is
    # then held by c, which does not run the table (it is taking it for its own leave, say):
    # asked, c has nothing to close and lets nothing go. b's close must not chase the lease
    # round (503, moving): the game is stored as closed, which is the answer.
    a, b, store = site
    handle = await _closed_at_a_asked_from_b(a, b, "t1")
    leases, broker = a.owners.leases, a.host.broker
    c_manager = make_manager(store, ManualScheduler(), prefix="c")
    c_manager.owners = TableOwners(leases, store, "c", TTL)
    c_host = RelayHost(broker, c_manager, "c", TTL, HintService(1.0))
    c_host.start()
    await c_host.ready.wait()
    c_lease = TableOwners(leases, store, "c", TTL)
    try:
        assert await c_lease.take("t1") is not None  # c holds it, runs nothing
        assert await handle.close("left") is True
        assert await handle.close("left") is True  # asked again: the same answer
        stored = await store.get("t1")
        assert stored is not None and (stored.status, stored.meta["closed"]) == (FINISHED,
                                                                                 "left")
    finally:
        await c_lease.close()
        await c_host.stop()
        await c_manager.close()


async def test_a_replace_asked_after_the_table_was_closed_and_let_go_is_answered_from_storage(
        site) -> None:
    # As for the close above: the table was closed and let go by a, and its lease is then
    # held by c, which runs nothing. b's replace of a seat (a leave at a coin table, say) is
    # answered "over" from storage rather than chasing the lease round (503, moving).
    a, b, store = site
    handle = await _closed_at_a_asked_from_b(a, b, "t1")
    c_lease = TableOwners(a.owners.leases, store, "c", TTL)
    try:
        assert await c_lease.take("t1") is not None  # c holds it, runs nothing
        assert await handle.replace(0, "left") == OVER
        assert b.manager.peek("t1") is None and "t1" not in b.owners.held  # nothing loaded
        stored = await store.get("t1")
        assert stored is not None and (stored.status, stored.meta["closed"]) == (FINISHED,
                                                                                 "left")
        # A seat replaced before the close (its person left first) reads ALREADY, as the
        # table itself would answer, so that leave's fee is still completed by its key.
        handle2 = await _closed_at_a_asked_from_b(a, b, "t2", leaver=0)
        assert await c_lease.take("t2") is not None
        assert await handle2.replace(0, "left") == ALREADY
        assert await handle2.replace(1, "left") == OVER  # a computer's seat: nobody left
    finally:
        await c_lease.close()


async def test_a_close_at_a_table_another_process_took_meanwhile_is_not_taken_as_done(
        site) -> None:
    # a still runs the table when its lease runs out and b takes it (a new fence): a's own
    # close then cannot be stored there. It must not answer "closed" while the game plays
    # on at b (a leave would be charged for a game still played): the door asks where the
    # table runs now and closes it there.
    a, b, store = site
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    await a.manager.open(config)
    here = await a.door.open("t1")
    assert isinstance(here, LocalTable)
    leases = a.owners.leases
    assert isinstance(leases, MemoryLeases)
    later = leases.now() + 2 * TTL
    leases.now = lambda: later  # a's lease ran out (a has not noticed yet)
    taken = await b.door.open("t1", move_here=True)
    assert isinstance(taken, LocalTable) and "t1" in b.owners.held
    assert await here.close("left") is True
    stored = await store.get("t1")
    assert stored is not None and (stored.status, stored.meta["closed"]) == (FINISHED, "left")
    assert a.manager.peek("t1") is None and b.manager.peek("t1") is None  # closed, let go
    assert "t1" not in a.owners.held and "t1" not in b.owners.held


@pytest.mark.parametrize("ask", ["close", "replace"])
async def test_a_table_handed_over_between_the_look_and_the_question_is_asked_again(
        site, ask: str) -> None:
    # A leave sent to three processes at once: b takes the table over for its leave, and
    # before b's close (or replace) runs there, a takes it over for its own. b's request
    # must not fail (it was a 503 in CI): it is asked where the table runs now.
    a, b, store = site
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    await a.manager.open(config)
    at_b = await b.door.open("t1", move_here=True)
    assert isinstance(at_b, LocalTable)
    at_a = await a.door.open("t1", move_here=True)  # b let it go: a runs it now
    assert isinstance(at_a, LocalTable) and b.manager.peek("t1") is None
    if ask == "close":
        assert await at_b.close("left") is True
        assert await at_a.close("left") is True  # a's own leave: closed before, still True
        stored = await store.get("t1")
        assert stored is not None and stored.meta["closed"] == "left"
    else:
        assert await at_b.replace(0, "left") == NOW
        assert await at_a.replace(0, "left") in (ALREADY, NOW)
        runs = a.manager.peek("t1") or b.manager.peek("t1")
        assert runs is not None and runs.is_replaced(0)


async def test_a_table_that_keeps_moving_is_refused_after_a_few_looks(site) -> None:
    # Each look finds the table gone again: after TRIES looks the request is refused as
    # moving (503, nothing happened), not chased for ever.
    a, b, store = site
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    await a.manager.open(config)
    here = await a.door.open("t1")
    assert isinstance(here, LocalTable)
    here.hops = TRIES - 1  # this request already found the table moved as often as it may
    await b.door.open("t1", move_here=True)
    with pytest.raises(TableMoving):
        await here.close("left")
    stored = await store.get("t1")
    assert stored is not None and "closed" not in stored.meta


async def test_a_local_table_closed_elsewhere_meanwhile_is_answered_from_storage(site) -> None:
    # b took the table for its leave; a took it back for its own, closed it and let it go.
    # b's close (or a replace) is answered as stored: the ended game is not loaded again.
    a, b, store = site
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    await a.manager.open(config)
    at_b = await b.door.open("t1", move_here=True)
    assert isinstance(at_b, LocalTable)
    at_a = await a.door.open("t1", move_here=True)
    assert isinstance(at_a, LocalTable)
    assert await at_a.close("left") is True
    assert await at_b.close("left") is True
    assert await at_b.replace(1, "left") == OVER
    assert a.manager.peek("t1") is None and b.manager.peek("t1") is None
    assert "t1" not in a.owners.held and "t1" not in b.owners.held
    stored = await store.get("t1")
    assert stored is not None and (stored.status, stored.meta["closed"]) == (FINISHED, "left")


async def test_a_table_elsewhere_is_told_to_end_after_the_hand_in_play(site) -> None:
    # A tournament round's time ran out at b; a runs the table: it plays the hand out there.
    a, b, store = site
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    actor = await a.manager.open(config)
    await actor.join(_Listener(0))  # somebody is connected there: it stays
    await actor.settle()
    assert actor.game.current is not None and not actor.game.current.is_over
    handle = await b.door.open("t1", move_here=True)
    assert isinstance(handle, RemoteTable)
    assert await handle.close_after_hand("round_time") is True
    assert actor.last_hand == "round_time" and actor.closed is None  # the hand goes on at a
    assert a.manager.peek("t1") is actor and "t1" not in b.owners.held
    stored = await store.get("t1")
    assert stored is not None and stored.meta["last_hand"] == "round_time"
    local = await a.door.open("t1")
    assert isinstance(local, LocalTable)
    assert await local.close_after_hand("round_time") is True  # asked again: the same
