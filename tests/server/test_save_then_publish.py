"""Save, then publish: a table shows a change only once it is stored, and a change whose
save fails is undone (the mover is told, nobody sees it, computers and clocks try again)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from msgspec import to_builtins

from euchre.rules import Rules
from euchre.storage import MemoryStore
from euchre.storage.base import FINISHED, StoredGame
from euchre.storage.fenced import FencedStore
from euchre.table.actor.actor import (
    NOT_OURS,
    NOT_STORED,
    NotStored,
    TableActor,
    TableDeps,
    TableError,
)
from euchre.table.actor.events import ACTION, GAME_OVER
from euchre.table.actor.fanout import Outgoing
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.seats import HUMAN, Seat, TableConfig, hash_token
from euchre.table.kinds.clock import ClockPolicy
from euchre.table.kinds.coin import CoinTurnPolicy
from table_helpers import Recorder, make_table, until_person
from table_helpers import seeds as seeds_from


class FlakyStore(MemoryStore):
    """A memory store whose saves fail while :attr:`down` is set (the database is gone)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.failed = 0
        self.saves: list[int] = []  # the version of every stored save

    async def save(self, game: StoredGame) -> None:
        if self.down:
            self.failed += 1
            raise OSError("connection refused")
        await super().save(game)
        self.saves.append(game.version)


class StoredWhenSent(Recorder):
    """A recorder that notes, for every event it gets, the version stored at that moment."""

    def __init__(self, seat: int, store: MemoryStore) -> None:
        super().__init__(seat)
        self.store = store
        self.stored_at_send: list[tuple[int, int]] = []

    def send(self, message: Outgoing) -> None:
        super().send(message)
        data = self.messages[-1]
        if data["type"] == "event":
            item = self.store._games.get("t1")
            self.stored_at_send.append((data["version"], item[0].version if item else -1))


def versions(rec: Recorder) -> list[int]:
    return [m["version"] for m in rec.events()]


def assert_gap_free(rec: Recorder) -> None:
    seen = versions(rec)
    assert seen == list(range(seen[0], seen[0] + len(seen))), seen


async def person_turn(store: FlakyStore) -> tuple[TableActor, Recorder, ManualScheduler]:
    actor, _, sched = make_table(store=store)
    rec = StoredWhenSent(0, store)
    actor.start()
    await actor.join(rec)
    assert await until_person(actor, sched)
    return actor, rec, sched


async def test_every_event_is_stored_before_anyone_is_sent_it() -> None:
    store = FlakyStore()
    actor, rec, sched = await person_turn(store)
    for _ in range(3):
        view = actor.view(0)
        assert view is not None
        await actor.act(0, str(view.legal[0]))
        if not await until_person(actor, sched):
            break
    assert len(rec.stored_at_send) > 5
    for version, stored in rec.stored_at_send:
        assert stored >= version, (version, stored)
    assert_gap_free(rec)
    await actor.stop()


async def test_a_move_whose_save_fails_is_refused_unseen_and_undone_then_made_again() -> None:
    store = FlakyStore()
    actor, rec, _ = await person_turn(store)
    game, version, sent = actor.game, actor.version, len(rec.messages)
    stored = await store.get("t1")
    assert stored is not None and stored.version == version
    view = actor.view(0)
    assert view is not None
    move = str(view.legal[0])
    store.down = True
    with pytest.raises(NotStored) as refused:
        await actor.act(0, move)
    assert refused.value.message == NOT_STORED and refused.value.code == "not_stored"
    await actor.settle()
    assert store.failed >= 1
    assert len(rec.messages) == sent  # nobody saw it
    assert actor.game is game and actor.version == version and actor.game.to_act == 0
    assert to_builtins(actor.snapshot(0))["version"] == version
    again = await store.get("t1")
    assert again is not None and again.version == version and again.record == stored.record
    # the database is back: the same move is made, with the next version
    store.down = False
    await actor.act(0, move)
    await actor.settle()
    new = rec.events()[len([m for m in rec.messages[:sent] if m["type"] == "event"]):]
    assert new and new[0]["version"] == version + 1
    assert new[0]["event"]["kind"] == ACTION and new[0]["event"]["seat"] == 0
    assert_gap_free(rec)
    stored = await store.get("t1")
    assert stored is not None and stored.version == actor.version
    await actor.stop()


async def test_a_computers_move_whose_save_fails_is_tried_again_until_stored() -> None:
    store = FlakyStore()
    actor, _, sched = make_table(store=store, first_dealer=0)  # West (1) bids first
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    await actor.settle()
    assert actor.game.to_act == 1
    version, before = actor.version, len(rec.events())
    store.down = True
    for _ in range(6):  # several tries, each after a longer pause
        due = sched.next_due()
        assert due is not None
        sched.advance(due - sched.now())
        await actor.settle()
    assert store.failed >= 3
    assert actor.game.to_act == 1 and actor.version == version
    assert len(rec.events()) == before
    store.down = False
    due = sched.next_due()
    assert due is not None
    sched.advance(due - sched.now())
    await actor.settle()
    new = rec.events()[before:]
    assert new and new[0]["event"]["kind"] == ACTION and new[0]["event"]["seat"] == 1
    assert new[0]["version"] == version + 1
    assert_gap_free(rec)
    stored = await store.get("t1")
    assert stored is not None and stored.version == actor.version
    await actor.stop()


async def test_the_clocks_move_whose_save_fails_is_tried_again_after_a_pause() -> None:
    store = FlakyStore()
    actor, _, sched = make_table(store=store)
    policy = CoinTurnPolicy(actor.config, ClockPolicy(seconds_per_move=5))
    actor.policy = policy
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    assert await until_person(actor, sched)
    version, before = actor.version, len(rec.events())
    store.down = True
    sched.advance(5.0)  # the person's clock runs out: the table moves for them
    await actor.settle()
    assert store.failed >= 1
    assert actor.game.to_act == 0 and actor.version == version
    assert len(rec.events()) == before
    clocks = actor.policy.clocks  # type: ignore[attr-defined]
    assert clocks[0].misses == 0 and clocks[0].running  # the miss was undone with the move
    store.down = False
    due = sched.next_due()
    assert due is not None and due > sched.now()  # after a pause, not at once
    sched.advance(due - sched.now())
    await actor.settle()
    mine = [m for m in rec.events()[before:]
            if m["event"]["kind"] == ACTION and m["event"]["seat"] == 0]
    assert mine and mine[0]["event"]["timed_out"] is True
    assert mine[0]["version"] == version + 1
    assert actor.policy.clocks[0].misses == 1  # type: ignore[attr-defined]
    assert_gap_free(rec)
    await actor.stop()


async def test_a_seed_whose_save_fails_is_refused_and_can_be_sent_again() -> None:
    store = FlakyStore()
    actor, _, _ = await person_turn(store)
    upcoming = len(actor.game.all_hands()) + 1
    store.down = True
    with pytest.raises(NotStored):
        await actor.contribute(0, upcoming, "ab" * 16)
    assert actor.stored().meta["shuffle"]["pending"] == {}
    store.down = False
    await actor.contribute(0, upcoming, "ab" * 16)
    stored = await store.get("t1")
    assert stored is not None and stored.meta["shuffle"]["pending"] == {"0": "ab" * 16}
    await actor.stop()


async def test_a_save_refused_by_a_newer_owners_fence_stops_the_table() -> None:
    inner = MemoryStore()
    sched = ManualScheduler()
    actor, _, sched = make_table(store=FencedStore(inner, 1), scheduler=sched)
    stale: list[str] = []
    actor.on_stale = stale.append
    rec = Recorder(0, actor)
    actor.start()
    await actor.join(rec)
    assert await until_person(actor, sched)
    await inner.claim("t1", 2)  # another process took the table over
    sent = len(rec.messages)
    view = actor.view(0)
    assert view is not None
    with pytest.raises(TableError) as refused:
        await actor.act(0, str(view.legal[0]))
    assert refused.value.message == NOT_OURS
    assert stale == ["t1"]
    assert len(rec.messages) == sent
    assert sched.next_due() is None  # nothing more is scheduled here
    with pytest.raises(TableError):
        await asyncio.wait_for(actor.act(0, str(view.legal[0])), 1)
    stored = await inner.get("t1")
    assert stored is not None and stored.fence == 2
    await actor.stop()


async def test_without_a_newer_owner_hook_a_fenced_out_table_stops_itself() -> None:
    inner = MemoryStore()
    actor, _, sched = make_table(store=FencedStore(inner, 1))
    actor.start()
    assert await until_person(actor, sched)
    await inner.claim("t1", 2)
    view = actor.view(0)
    assert view is not None
    with pytest.raises(TableError):
        await actor.act(0, str(view.legal[0]))
    for _ in range(20):
        if not actor.running:
            break
        await asyncio.sleep(0)
    assert not actor.running


class GatedStore(MemoryStore):
    """A memory store whose saves wait while :attr:`gate` is closed (a slow database)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()

    async def save(self, game: StoredGame) -> None:
        await self.gate.wait()
        await super().save(game)


async def test_joins_and_leaves_waiting_behind_a_save_count_as_connected() -> None:
    store = GatedStore()
    actor, _, sched = make_table(store=store)
    first = Recorder(0, actor)
    actor.start()
    await actor.join(first)
    assert await until_person(actor, sched)
    view = actor.view(0)
    assert view is not None
    store.gate.clear()  # the move's save is in flight...
    move = asyncio.ensure_future(actor.act(0, str(view.legal[0])))
    await asyncio.sleep(0)
    sent = len(first.messages)
    second = Recorder(None, actor)
    joining = asyncio.ensure_future(actor.join(second, since=actor.shown_version))
    await asyncio.sleep(0)
    assert actor.subscribed == 2  # ...and a join waits behind it: counted already
    actor.leave(first)
    assert actor.subscribed == 1
    assert len(first.messages) == sent and not move.done()  # nothing shown before stored
    store.gate.set()
    await asyncio.wait_for(asyncio.gather(move, joining), 5)
    await actor.settle()
    assert actor.subscribed == 1
    shown = [m["event"]["kind"] for m in first.messages[sent:] if m["type"] == "event"]
    assert shown[0] == ACTION  # the move, once stored; then the spectator's arrival
    await actor.stop()


class CountingGatedStore(GatedStore):
    """A gated store that notes the version of every save it stores."""

    def __init__(self) -> None:
        super().__init__()
        self.saves: list[int] = []

    async def save(self, game: StoredGame) -> None:
        await super().save(game)
        self.saves.append(game.version)


async def test_moves_queued_while_a_save_is_in_flight_share_the_next_save() -> None:
    rules = Rules.preset("classic")
    seats = tuple(Seat(HUMAN, f"P{i}", token_hash=hash_token(f"t{i}")) for i in range(4))
    config = TableConfig("t1", "practice", rules, seats)  # type: ignore[arg-type]
    store = CountingGatedStore()
    sched = ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0), store=store,
                       seed_source=seeds_from("g")))
    rec = StoredWhenSent(0, store)
    actor.start()
    await actor.join(rec)
    while actor.game.current is None:
        due = sched.next_due()
        assert due is not None
        sched.advance(due - sched.now())
        await actor.settle()
    first = actor.game.to_act
    assert first is not None
    store.gate.clear()
    a = asyncio.ensure_future(actor.act(first, "pass"))  # its save is in flight...
    await asyncio.sleep(0)
    b = asyncio.ensure_future(actor.act((first + 1) % 4, "pass"))  # ...these two wait
    c = asyncio.ensure_future(actor.act((first + 2) % 4, "pass"))
    await asyncio.sleep(0)
    saves, sent = len(store.saves), len(rec.events())
    assert not a.done() and len(rec.events()) == sent
    store.gate.set()
    await asyncio.wait_for(asyncio.gather(a, b, c), 5)
    await actor.settle()
    version = actor.version
    assert store.saves[saves:] == [version - 2, version]  # a alone, then b and c in one save
    new = rec.events()[sent:]
    assert [(m["event"]["kind"], m["event"]["seat"]) for m in new] == [
        (ACTION, first), (ACTION, (first + 1) % 4), (ACTION, (first + 2) % 4)]
    assert_gap_free(rec)
    for shown, stored in rec.stored_at_send:
        assert stored >= shown
    await actor.stop()


class EndFailsTwice(MemoryStore):
    """A memory store whose first two saves of a finished game fail."""

    def __init__(self) -> None:
        super().__init__()
        self.failed = 0

    async def save(self, game: StoredGame) -> None:
        if game.status == FINISHED and self.failed < 2:
            self.failed += 1
            raise OSError("connection refused")
        await super().save(game)


async def test_the_game_ends_once_stored_then_its_hooks_run_then_everyone_is_told() -> None:
    store = EndFailsTwice()
    actor, _, sched = make_table(store=store, pacing=None)
    paid: list[str] = []

    async def pay(table: Any) -> None:
        stored = await store.get(table.id)
        assert stored is not None and stored.status == FINISHED
        paid.append(table.id)

    actor.on_finish.append(pay)
    told: list[int] = []

    class Told(Recorder):
        def send(self, message: Outgoing) -> None:
            super().send(message)
            data = self.messages[-1]
            if data["type"] == "event" and data["event"]["kind"] == GAME_OVER:
                told.append(len(paid))

    rec = Told(0, actor)
    actor.start()
    await actor.join(rec)
    rng = random.Random(3)
    refused = 0
    while await until_person(actor, sched):
        view = actor.view(0)
        assert view is not None
        move = str(rng.choice(view.legal))
        try:
            await actor.act(0, move)
        except NotStored:
            refused += 1  # the game's last move: undone, sent again
            assert not paid and not actor.game.is_over
    assert store.failed == 2 and actor.game.is_over
    assert paid == ["t1"] and told == [1]  # paid once, before anyone was told
    assert_gap_free(rec)
    await actor.stop()
