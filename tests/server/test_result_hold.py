"""A hand's result holds a table with one person: the next deal waits for the hold of the
table's speed (never under 1.5 s) or for the person's ``continue``; the speed can be changed
at a practice table at any time (fake time, no sleeping)."""

from __future__ import annotations

import asyncio

import pytest
from msgspec import to_builtins

from euchre.storage import MemoryStore
from euchre.table.actor.actor import TableActor, TableError
from euchre.table.actor.pacing import (
    RESULT_HOLD,
    RESULT_HOLD_LEAST,
    SPEEDS,
    ManualScheduler,
    Pacing,
    pacing_for_speed,
    result_hold,
)
from euchre.table.actor.seats import BOT, TableConfig
from euchre.table.hosting.manager import TableManager
from euchre.table.kinds.online import OnlineOptions
from euchre.table.kinds.practice import PracticeOptions, practice_table
from online_registry import MemoryOnlineTables
from table_helpers import fixed_bots, make_manager, seeds


def test_the_hold_is_at_least_one_and_a_half_seconds_at_every_speed() -> None:
    base = Pacing(bot_delay=0.67, hand_pause=2.0, trick_pause=1.2)
    for speed in SPEEDS:
        held = pacing_for_speed(base, speed, hold=True)
        assert held.hand_pause == max(2.0 * SPEEDS[speed], RESULT_HOLD[speed])
        assert held.hand_pause >= RESULT_HOLD_LEAST == 1.5
        assert held.bot_delay == pacing_for_speed(base, speed).bot_delay
    assert result_hold(None) == result_hold("normal") == 4.0
    assert result_hold("fast") >= 1.5
    # Without a hold (tables with several people) the pause is the server's own.
    assert pacing_for_speed(base, "fast").hand_pause == pytest.approx(0.7)
    # A zero pause (tests, benchmarks) stays zero.
    assert pacing_for_speed(Pacing(0.0, 0.0), "fast", hold=True).hand_pause == 0.0


async def _to_hand_end(actor: TableActor, sched: ManualScheduler) -> int:
    """Play (the person's first legal move) until the first hand is over; returns when."""
    while True:
        await actor.settle()
        game = actor.game
        if game.needs_deal and game.current is not None:
            return len(game.all_hands())
        if game.to_act == 0:
            view = actor.view(0)
            assert view is not None
            await actor.act(0, str(view.legal[0]))
            continue
        due = sched.next_due()
        assert due is not None
        sched.advance(due - sched.now())


def _practice(speed: str) -> TableConfig:
    config, _ = practice_table(PracticeOptions("classic", {}, "medium", "medium", "medium",
                                               speed=speed), table_id="t1", token="secret")
    return config


def test_the_next_deal_waits_for_the_hold_or_the_persons_continue() -> None:
    async def run() -> None:
        sched = ManualScheduler()
        manager = make_manager(MemoryStore(), sched)
        actor = await manager.open(_practice("fast"))
        try:
            hand = await _to_hand_end(actor, sched)
            assert actor.pacing.hand_pause == RESULT_HOLD["fast"]  # 2 s, not 0.35 x 2 s
            due = sched.next_due()
            assert due is not None and due - sched.now() == pytest.approx(RESULT_HOLD["fast"])
            sched.advance(RESULT_HOLD["fast"] - 0.01)
            await actor.settle()
            assert len(actor.game.all_hands()) == hand  # nothing dealt behind the result
            await actor.go_on(0, hand + 1)  # not the hand that is over: nothing happens
            assert len(actor.game.all_hands()) == hand
            await actor.go_on(0, hand)  # read: the next hand is dealt now
            assert len(actor.game.all_hands()) == hand + 1
            await actor.go_on(0, hand)  # said again: nothing more
            assert len(actor.game.all_hands()) == hand + 1
            with pytest.raises(TableError):
                await actor.go_on(1, hand)  # a computer's seat
        finally:
            await manager.close()

    asyncio.run(run())


def test_the_speed_changes_at_the_table_and_is_kept() -> None:
    async def run() -> None:
        sched = ManualScheduler()
        manager = make_manager(MemoryStore(), sched)
        actor = await manager.open(_practice("normal"))
        try:
            assert actor.pacing.bot_delay == 0.5
            await actor.set_speed(0, "slow")
            assert actor.pacing.bot_delay == pytest.approx(0.5 * SPEEDS["slow"])
            assert actor.pacing.hand_pause == RESULT_HOLD["slow"]
            # what a reload is told:
            assert to_builtins(actor.snapshot(0))["extra"]["speed"] == "slow"
            await actor.set_speed(0, "fast")
            assert actor.pacing.bot_delay == pytest.approx(0.5 * SPEEDS["fast"])
            with pytest.raises(TableError):
                await actor.set_speed(0, "warp")
            with pytest.raises(TableError):
                await actor.set_speed(2, "slow")  # the partner is a computer
            hand = await _to_hand_end(actor, sched)
            due = sched.next_due()
            assert due is not None and due - sched.now() == pytest.approx(RESULT_HOLD["fast"])
            assert hand >= 1
        finally:
            await manager.close()
        # A reload joins the running table, whose TABLE says the speed; a restart of the
        # server brings the table back at the speed chosen (the next save's settings say
        # it: tests/table/actor/test_saving.py).

    asyncio.run(run())


def test_the_speed_is_not_changed_at_other_tables() -> None:
    async def run() -> None:
        sched = ManualScheduler()
        manager = make_manager(MemoryStore(), sched)
        config = _practice("normal")
        config = TableConfig(**{**config.__dict__, "kind": "coin"})
        actor = await manager.open(config)
        try:
            with pytest.raises(TableError, match="practice tables only"):
                await actor.set_speed(0, "fast")
            assert all(seat.kind == BOT for seat in config.seats[1:])
        finally:
            await manager.close()

    asyncio.run(run())


def test_a_coin_table_holds_for_the_slowest_page_and_deals_on_its_continue() -> None:
    # At a coin table the speed is the page's own (the server is not told it): the table
    # holds for the longest hold, so a page at Slow never sees the computers bid behind its
    # panel, and a page at Fast or Normal sends its continue when its own hold ends.
    async def run() -> None:
        sched = ManualScheduler()
        manager = make_manager(MemoryStore(), sched)
        practice = _practice("normal")
        config = TableConfig(**{**practice.__dict__, "kind": "coin",
                                "extra": {k: v for k, v in practice.extra.items()
                                          if k != "speed"}})
        actor = await manager.open(config)
        try:
            assert actor.pacing.hand_pause == RESULT_HOLD["slow"] == max(RESULT_HOLD.values())
            hand = await _to_hand_end(actor, sched)
            due = sched.next_due()
            assert due is not None and due - sched.now() == pytest.approx(RESULT_HOLD["slow"])
            sched.advance(RESULT_HOLD["normal"])  # a Normal page's hold is over: it continues
            await actor.settle()
            assert len(actor.game.all_hands()) == hand  # not dealt behind a Slow page's panel
            await actor.go_on(0, hand)
            assert len(actor.game.all_hands()) == hand + 1
        finally:
            await manager.close()

    asyncio.run(run())


def test_a_table_with_other_people_pauses_at_least_the_least_hold_and_waits_for_nobody() -> None:
    # At a table of people one person's continue moves no one on, so the server's own pause
    # after a hand is long enough for everyone's result: 1.5 s, even where it is set lower.
    async def run() -> None:
        sched = ManualScheduler()
        manager = TableManager(MemoryStore(), sched, Pacing(0.5, 0.5), bot_factory=fixed_bots,
                               seed_source=seeds("shared"))
        tables = MemoryOnlineTables(now=lambda: 0.0)
        table, _ = tables.create(OnlineOptions())
        tables.claim(table.id, 2, "Bo")
        actor = await manager.open(table.config())
        people = [s for s, seat in enumerate(actor.config.seats) if not seat.is_bot()]
        assert len(people) == 2
        try:
            while True:  # the people's first legal moves, to the end of the first hand
                await actor.settle()
                game = actor.game
                if game.needs_deal and game.current is not None:
                    break
                if game.to_act in people:
                    view = actor.view(game.to_act)
                    assert view is not None
                    await actor.act(game.to_act, str(view.legal[0]))
                    continue
                due = sched.next_due()
                assert due is not None
                sched.advance(due - sched.now())
            hand = len(actor.game.all_hands())
            assert actor.pacing.hand_pause == RESULT_HOLD_LEAST == 1.5
            due = sched.next_due()
            assert due is not None and due - sched.now() == pytest.approx(RESULT_HOLD_LEAST)
            await actor.go_on(people[0], hand)  # one person read it: nobody else moves on
            sched.advance(RESULT_HOLD_LEAST - 0.01)
            await actor.settle()
            assert len(actor.game.all_hands()) == hand
            sched.advance(0.01)
            await actor.settle()
            assert len(actor.game.all_hands()) == hand + 1
        finally:
            await manager.close()

    asyncio.run(run())
