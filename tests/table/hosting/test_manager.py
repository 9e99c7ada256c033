"""The tables one server runs: a new table is saved before it runs, a table not in memory is
loaded from storage on demand (never twice), idle tables leave memory and come back, kinds
decide each table's clock and hints, and at start-up the tables that run by themselves are
resumed. On the fake clock (``ManualScheduler``), in memory and on real SQLite."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import weakref
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from euchre.hand import Deal, HandState
from euchre.storage import GameStore, MemoryStore
from euchre.storage.base import FINISHED, PLAYING, StoredGame
from euchre.storage.sql import SqlStore
from euchre.table.actor.kind import FinishedTable, TurnPolicy
from euchre.table.actor.pacing import RESULT_HOLD_LEAST, ManualScheduler, Pacing
from euchre.table.actor.seats import TableConfig
from euchre.table.hosting.manager import TableManager
from euchre.table.kinds.clock import ClockPolicy
from euchre.table.kinds.coin import COIN, CoinTurnPolicy, coin_kind, coin_table
from euchre.table.kinds.online import OnlineOptions
from euchre.table.kinds.practice import PracticeOptions, practice_start, practice_table
from online_registry import MemoryOnlineTables
from table_helpers import Recorder, make_manager, play_game, until_person


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[GameStore]:
    """An empty game store: in memory, or a SQLite database."""
    if request.param == "memory":
        yield MemoryStore()
        return
    sql = await SqlStore.open(f"sqlite+aiosqlite:///{tmp_path}/games.db", commit_window=0)
    try:
        yield sql
    finally:
        await sql.close()


async def _no_payout(table: FinishedTable) -> None:
    """A coin table's finish hook, with nothing to pay in these tests."""


async def test_a_new_table_is_saved_before_it_runs(store: GameStore) -> None:
    manager = make_manager(store, ManualScheduler())
    config, token = practice_table(PracticeOptions(), table_id="t1", first_dealer=0)
    actor = await manager.open(config)
    assert actor.running and manager.peek("t1") is actor and len(manager) == 1
    stored = await store.get("t1")
    assert stored is not None and stored.status == PLAYING and stored.kind == "practice"
    assert TableConfig.from_json(stored.meta["config"]) == config
    assert token not in str(stored.meta)  # only the token's hash is kept
    await manager.close()
    assert len(manager) == 0 and not actor.running


async def test_a_table_whose_open_hook_refuses_is_not_opened(store: GameStore) -> None:
    manager = make_manager(store, ManualScheduler())
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    seen: list[str] = []

    async def refuse(new: TableConfig) -> None:
        seen.append(new.id)
        raise ValueError("no seats for you")

    manager.open_hooks.append(refuse)
    with pytest.raises(ValueError, match="no seats for you"):
        await manager.open(config)
    assert seen == ["t1"] and manager.peek("t1") is None and len(manager) == 0
    assert await store.get("t1") is None and await manager.get("t1") is None
    manager.open_hooks.clear()
    assert (await manager.open(config)).running  # nothing was left half open
    await manager.close()


async def test_a_table_opened_already_dealt_keeps_its_deal(store: GameStore) -> None:
    manager = make_manager(store, ManualScheduler())
    config, _ = practice_table(PracticeOptions(example="order-up-bowers"), table_id="ex")
    start = practice_start(config)
    actor = await manager.open(config, **start)
    assert actor.game.current is not None
    assert actor.game.current.deal == start["game"].current.deal
    assert actor.seeds == [""]
    await manager.close()


async def test_a_table_not_in_memory_is_loaded_on_demand() -> None:
    store = MemoryStore()
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, token = practice_table(PracticeOptions(), table_id="t9")
    await manager.open(config)
    await manager.forget("t9")
    assert manager.peek("t9") is None
    again = await manager.get("t9")
    assert again is not None and again.seat_of(token) == 0 and again.running
    assert await manager.get("nope") is None
    await manager.close()


async def test_many_asking_at_once_for_a_stored_table_get_one_actor(store: GameStore) -> None:
    manager = make_manager(store, ManualScheduler())
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    await manager.open(config)
    await manager.forget("t1")
    found = await asyncio.gather(*(manager.get("t1") for _ in range(8)))
    assert found[0] is not None and all(f is found[0] for f in found)
    assert len(manager) == 1
    await manager.close()


async def test_a_table_being_opened_is_handed_out_once_it_runs() -> None:
    manager = make_manager(MemoryStore(), ManualScheduler())
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    go_on = asyncio.Event()

    async def slow(new: TableConfig) -> None:
        await go_on.wait()

    manager.open_hooks.append(slow)
    opening = asyncio.create_task(manager.open(config))
    await asyncio.sleep(0)
    asking = asyncio.create_task(manager.get("t1"))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not asking.done()  # neither None nor an actor that is not running yet
    go_on.set()
    actor = await opening
    assert await asking is actor and actor.running
    await manager.close()


async def test_a_stored_record_without_table_settings_is_no_table() -> None:
    store = MemoryStore()
    await store.save(StoredGame("bare", "practice", PLAYING, 1, {}, {}, 0.0, 0.0))
    manager = make_manager(store, ManualScheduler())
    assert await manager.get("bare") is None and await manager.stored_view("bare") is None
    assert await manager.stored_view("nope") is None
    await manager.close()


async def test_idle_tables_leave_memory_and_come_back() -> None:
    store = MemoryStore()
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, token = practice_table(PracticeOptions(), table_id="t3", first_dealer=0)
    actor = await manager.open(config)
    watcher = Recorder(0, actor)
    await actor.join(watcher)
    assert await until_person(actor, sched)
    sched.advance(1000)
    assert await manager.sweep(600) == []  # someone is watching
    actor.leave(watcher)
    await actor.settle()
    assert await manager.sweep(600) == []  # idle only for a moment
    sched.advance(600)
    assert await manager.sweep(600) == ["t3"]
    back = await manager.get("t3")
    assert back is not None and back is not actor
    assert back.view(0) == actor.view(0) and back.seat_of(token) == 0
    await manager.close()


async def test_each_table_runs_with_its_kinds_clock_and_hints(store: GameStore) -> None:
    manager = make_manager(store, ManualScheduler())
    manager.register(coin_kind(ClockPolicy(seconds_per_move=40), _no_payout))
    coin, _ = coin_table("c1", "ann", 10, first_dealer=0)
    practice, _ = practice_table(PracticeOptions(), table_id="p1")
    club = TableConfig("k1", "club", practice.rules, practice.seats)
    actors = [await manager.open(c) for c in (coin, practice, club)]
    assert [a.kind.name for a in actors] == [COIN, "practice", "club"]
    assert isinstance(actors[0].policy, CoinTurnPolicy)
    assert actors[0].policy.clock_policy.seconds_per_move == 40
    assert [a.kind.hints for a in actors] == [False, True, False]
    assert type(actors[2].policy) is TurnPolicy  # a kind this server does not know: no clock
    assert manager.count_by_kind() == {COIN: 1, "practice": 1, "club": 1}
    await manager.close()


def test_a_table_with_one_person_holds_each_hands_result() -> None:
    manager = TableManager(MemoryStore(), ManualScheduler(), Pacing(0.5, 1.0))
    solo, _ = practice_table(PracticeOptions())
    assert manager.pacing_for(solo, None).hand_pause > 1.0
    assert manager.pacing_for(solo, "slow").bot_delay > manager.pacing_for(solo, None).bot_delay
    tables = MemoryOnlineTables(now=lambda: 0.0)
    open_table, _ = tables.create(OnlineOptions())
    tables.claim(open_table.id, 2, "Bo")
    two = open_table.config()
    # Nobody presses continue for all: the server's own pause, at least 1.5 s.
    assert manager.pacing_for(two, None) == Pacing(0.5, RESULT_HOLD_LEAST)
    assert manager.pacing_for(two, None).hand_pause == 1.5
    roomy = TableManager(MemoryStore(), ManualScheduler(), Pacing(0.5, 2.0))
    assert roomy.pacing_for(two, None) == Pacing(0.5, 2.0)
    assert manager.pacing_for(two, "fast").hand_pause == RESULT_HOLD_LEAST
    still = TableManager(MemoryStore(), ManualScheduler(), Pacing(0.0, 0.0))
    assert still.pacing_for(solo, None).hand_pause == 0.0  # tests and benchmarks stay at zero
    assert still.pacing_for(two, None).hand_pause == 0.0


async def test_a_stored_view_is_never_started_nor_saved(store: GameStore) -> None:
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, token = practice_table(PracticeOptions(), table_id="t1", first_dealer=0)
    actor = await manager.open(config)
    assert await until_person(actor, sched)
    await manager.forget("t1")
    before = await store.get("t1")
    view = await manager.stored_view("t1")
    assert view is not None and not view.running and view.store is None
    assert view.version == actor.version and view.seat_of(token) == 0
    assert view.view(0) == actor.view(0)
    assert manager.peek("t1") is None  # not kept as a running table
    after = await store.get("t1")
    assert after is not None and before is not None and after.version == before.version
    await manager.close()


async def test_at_start_tables_that_run_by_themselves_are_resumed(
        store: GameStore, caplog: pytest.LogCaptureFixture) -> None:
    first = make_manager(store, ManualScheduler())
    coin, _ = coin_table("c1", "ann", 10, first_dealer=0)
    practice, _ = practice_table(PracticeOptions(), table_id="p1")
    await first.open(coin)
    await first.open(practice)
    await first.close()
    await store.save(StoredGame("broken", COIN, PLAYING, 3, {"config": {"id": "broken"}},
                                {}, 1.0, 1.0))
    await store.save(StoredGame("done", COIN, FINISHED, 3, {"config": coin.to_json()},
                                {}, 1.0, 1.0))
    second = make_manager(store, ManualScheduler(), prefix="after")
    with caplog.at_level(logging.ERROR, logger="euchre.table.hosting.manager"):
        assert await second.resume_unfinished() == ["c1"]
    assert "cannot resume table broken" in caplog.text
    resumed = second.peek("c1")
    assert resumed is not None and resumed.running
    assert second.peek("p1") is None and "p1" in second.retirement.dormant  # waits
    assert second.peek("done") is None
    assert await second.resume_unfinished() == []  # running already: not twice
    await second.close()


async def test_a_forgotten_table_is_stopped_and_stays_in_storage(store: GameStore) -> None:
    manager = make_manager(store, ManualScheduler())
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    actor = await manager.open(config)
    await actor.settle()  # the first hand dealt and saved
    version = actor.version
    assert version > 0
    await manager.forget("t1")
    await manager.forget("t1")  # twice: nothing more to do
    assert not actor.running and manager.peek("t1") is None
    stored = await store.get("t1")
    assert stored is not None and stored.version == version and stored.status == PLAYING
    await manager.close()


def _states_of(deals: list[Deal]) -> list[HandState]:
    """Every live hand state dealt from one of ``deals``. (A weak proxy left by another
    test may outlive its object: ``isinstance`` on it would raise, so type decides.)"""
    return [o for o in gc.get_objects()
            if issubclass(type(o), HandState) and any(o.deal is d for d in deals)]


async def test_a_finished_table_dropped_from_memory_leaves_nothing_behind() -> None:
    """A table whose game is over and whose person left is dropped by the sweep and leaves
    nothing behind: the actor and every state of its game are freed (the store keeps the
    record). While open, it keeps each finished hand once, not the states it passed
    through."""
    store, sched = MemoryStore(), ManualScheduler()
    manager = make_manager(store, sched)
    config, _ = practice_table(PracticeOptions(), table_id="t1", first_dealer=0)
    actor = await manager.open(config)
    person = Recorder(0)
    await actor.join(person)
    assert await play_game(actor, sched, random.Random(7)) > 10
    game = actor.game
    assert game.is_over and len(game.hands) >= 3
    deals = [hand.deal for hand in game.all_hands()]
    # Kept while the table is open: each finished hand once, not its earlier states.
    assert len(_states_of(deals)) <= len(deals) + 2 * len(game.current.history())  # type: ignore[union-attr]
    actor.leave(person)
    await actor.settle()
    dropped = weakref.ref(actor)
    del actor, game
    assert await manager.sweep(idle_after=0.0) == ["t1"]
    assert manager.peek("t1") is None
    stored = await store.get("t1")
    assert stored is not None and stored.status == FINISHED
    gc.collect()
    assert dropped() is None
    assert _states_of(deals) == []
    await manager.close()
