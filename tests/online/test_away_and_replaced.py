"""Leaving and coming back at an online table, on a fake clock: a person whose connection is
gone past the grace is replaced by a computer for the rest of the game; one who comes back
within it keeps the seat; a person who leaves is replaced at once; all of it survives a
restart (saved with the table)."""

from __future__ import annotations

import pytest
from online_helpers import Recorder, ScriptBot, Table

from euchre.storage.memory import MemoryStore
from euchre.table.actor.actor import SeatReplaced, TableActor, TableDeps, restore
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.kinds.online import AWAY_GRACE, ONLINE_KIND, online_policy


async def _play_until_over(t: Table) -> None:
    """Ann (seat 0) plays her first legal move whenever it is her turn; the rest move by
    themselves (computers, and the clock or a replacement for Bob)."""
    for _ in range(3000):
        await t.actor.settle()
        if t.actor.game.is_over:
            return
        if t.actor.game.to_act == 0 and 0 not in t.actor.replaced:
            view = t.actor.view(0)
            assert view is not None
            await t.actor.act(0, str(view.legal_actions()[0]))
            continue
        await t.step()
    raise AssertionError("the game did not end")


async def test_away_past_the_grace_is_replaced_by_a_computer() -> None:
    t = Table(seconds=30)
    ann, bob = Recorder(0, t.actor), Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    t.actor.leave(bob)  # Bob's connection drops
    await t.actor.settle()
    away = [e for e in ann.events() if e["kind"] == "away"]
    assert away == [{"kind": "away", "seat": 1, "ms_left": int(AWAY_GRACE * 1000)}]
    seat = ann.messages[-1]["table"]["seats"][1]
    assert seat["away_ms_left"] == int(AWAY_GRACE * 1000) and seat["kind"] == "human"
    assert t.actor.away_seconds(1) == AWAY_GRACE
    t.scheduler.advance(AWAY_GRACE - 1)  # not yet
    await t.actor.settle()
    assert not t.actor.is_replaced(1)
    assert t.actor.away_seconds(1) == pytest.approx(1.0)
    t.scheduler.advance(1)
    await t.actor.settle()
    assert t.actor.replaced == {1: "away"}
    replaced = [e for e in ann.events() if e["kind"] == "replaced"]
    assert replaced == [{"kind": "replaced", "seat": 1, "reason": "away", "level": "expert"}]
    seat = ann.messages[-1]["table"]["seats"][1]
    assert seat["kind"] == "bot" and seat["replaced"] == "away" and seat["name"] == "Bob"
    assert seat["level"] == "expert" and "away_ms_left" not in seat
    # the seat's token no longer moves, nor joins
    with pytest.raises(SeatReplaced):
        await t.actor.act(1, "pass")
    with pytest.raises(SeatReplaced):
        await t.actor.join(Recorder(1, t.actor))
    # and the computer plays Bob's seat to the end (the clock is not used for it)
    levels_before = len(t.levels)
    await _play_until_over(t)
    assert t.actor.game.is_over
    assert t.levels.count("expert") > 0 and len(t.levels) > levels_before
    assert 1 not in t.actor.policy.clocks  # type: ignore[attr-defined]
    await t.actor.stop()


async def test_back_within_the_grace_keeps_the_seat() -> None:
    t = Table(seconds=30)
    ann, bob = Recorder(0, t.actor), Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    t.actor.leave(bob)
    await t.actor.settle()
    t.scheduler.advance(AWAY_GRACE - 5)
    await t.actor.settle()
    again = Recorder(1, t.actor)
    await t.actor.join(again)  # back with the seat's token, 5 s to spare
    assert [e["kind"] for e in ann.events()][-2:] == ["presence", "back"]
    assert t.actor.away_seconds(1) is None
    t.scheduler.advance(AWAY_GRACE * 2)  # the old grace timer does nothing
    await t.actor.settle()
    assert not t.actor.replaced
    assert "away_ms_left" not in ann.messages[-1]["table"]["seats"][1]
    await t.actor.stop()


async def test_a_person_who_never_connected_is_not_away() -> None:
    t = Table(seconds=30)
    t.actor.start()
    t.scheduler.advance(AWAY_GRACE * 3)
    await t.actor.settle()
    assert not t.actor.replaced and t.actor.away_seconds(0) is None
    await t.actor.stop()


async def test_leave_replaces_at_once_and_only_once() -> None:
    t = Table(seconds=30)
    called: list[tuple[int, str]] = []

    async def hook(table: object, seat: int, reason: str) -> None:
        called.append((seat, reason))

    import dataclasses

    t.actor.kind = dataclasses.replace(ONLINE_KIND, on_replaced=(hook,))
    ann, bob = Recorder(0, t.actor), Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    assert await t.actor.replace(1, "left") is True
    assert await t.actor.replace(1, "left") is False  # a second leave changes nothing
    assert called == [(1, "left")]
    assert bob not in t.actor._fanout.subscribers  # released
    kinds = [e["kind"] for e in ann.events()]
    assert kinds.count("replaced") == 1 and "away" not in kinds
    await _play_until_over(t)
    assert t.actor.replace is not None and await t.actor.replace(0, "left") is False  # over
    await t.actor.stop()


async def test_away_and_replaced_survive_a_restart() -> None:
    store = MemoryStore()
    t = Table(seconds=30)
    t.actor.store = store
    ann, bob = Recorder(0, t.actor), Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    await t.actor.replace(0, "left")  # Ann left
    t.actor.leave(bob)  # Bob is away
    await t.actor.settle()
    t.scheduler.advance(20)
    await t.actor.settle()
    await t.actor.stop()  # the server stops: saved
    stored = await store.get(t.config.id)
    assert stored is not None
    assert stored.meta["replaced"] == {"0": "left"} and stored.meta["seen"] == [1]
    assert stored.meta["away"]["1"] == pytest.approx(AWAY_GRACE - 20)

    scheduler = ManualScheduler(1000.0)
    again: TableActor = restore(
        stored, TableDeps(scheduler=scheduler, pacing=Pacing(bot_delay=1.0, hand_pause=2.0),
        policy=online_policy(t.config), kind=ONLINE_KIND, store=store,
        bot_factory=lambda level, seed: ScriptBot(level, t.levels)))
    assert again.replaced == {0: "left"}
    again.start()
    assert again.away_seconds(1) == pytest.approx(AWAY_GRACE - 20)  # downtime not counted
    with pytest.raises(SeatReplaced):
        await again.act(0, "pass")
    scheduler.advance(AWAY_GRACE - 20)
    await again.settle()
    assert again.replaced == {0: "left", 1: "away"}
    await again.stop()


async def test_the_new_events_and_seat_fields_match_the_documented_models() -> None:
    import msgspec

    from euchre.server.core.asyncapi import asyncapi_document
    from euchre.server.wire.socket import TableEvent
    from euchre.server.wire.tables import TableSnapshot

    t = Table(seconds=30)
    ann, bob = Recorder(0, t.actor), Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    t.actor.leave(bob)
    await t.actor.settle()
    await t.actor.join(Recorder(1, t.actor))  # back
    await t.actor.replace(1, "left")
    kinds = set()
    for m in ann.messages:
        if m["type"] == "event":
            msgspec.convert(m["event"], TableEvent)
            kinds.add(m["event"]["kind"])
        if "table" in m:
            msgspec.convert(m["table"], TableSnapshot)
    assert {"away", "back", "replaced"} <= kinds
    schemas = asyncapi_document()["components"]["schemas"]
    assert {"AwayEvent", "BackEvent", "ReplacedEvent"} <= set(schemas)
    assert {"away_ms_left", "replaced"} <= set(schemas["SeatInfo"]["properties"])
    await t.actor.stop()
