"""A leave raced against the game's deciding card, hundreds of times, on SQLite and on
PostgreSQL: the table orders the two. A leave it saw first takes the seat over and is
charged once (stake forfeit, fee, the share to nobody); one it saw after the deciding card
is refused (``game_ended``), charges nothing and the person keeps their payout. Every
ledger sums each time. Driven through the real manager, actors, hooks and pots, on the
injected scheduler (no wall time)."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
from typing import Any

import pytest
from race_helpers import advance, assert_ledger_balanced, copy_as, new_racer, race, table_sums
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins import rules
from euchre.coins.ledger import Ledger
from euchre.coins.pots import PotService
from euchre.server.core.errors import ApiError
from euchre.server.online.stakes import GAME_ENDED, leave_game, reconcile, with_stakes
from euchre.server.tables.door import Tables
from euchre.server.tables.hints import HintService
from euchre.storage.base import StoredGame
from euchre.storage.memory import MemoryStore
from euchre.table.actor.actor import SeatReplaced, TableActor, TableDeps
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.hosting.manager import TableManager
from euchre.table.kinds.online import ONLINE_KIND, OnlineOptions
from ledger_fixtures import db_url, engine
from online_registry import MemoryOnlineTables

__all__ = ["db_url", "engine"]

STAKE = 10
RACES = 250
"""Races per database."""

@dataclasses.dataclass
class Snapshot:
    """A four-person stake table stored one card before its end."""

    stored: StoredGame
    tokens: list[str]
    mover: int
    """Who plays the deciding card."""
    card: str
    """The deciding card."""
    winner: int
    """The side that wins with it."""


def _door(manager: TableManager) -> Tables:
    """The door to ``manager``'s tables (one process: nothing is relayed)."""
    return Tables(manager, HintService(1.0))


def _manager(store: MemoryStore, pots: PotService, scheduler: ManualScheduler) -> TableManager:
    counter = itertools.count()
    manager = TableManager(store, scheduler, Pacing(bot_delay=1.0, hand_pause=2.0),
                           seed_source=lambda: f"race-{next(counter)}")
    manager.register(with_stakes(ONLINE_KIND, pots))
    return manager


async def _one_card_before_the_end(seed: int, people: dict[int, int]) -> Snapshot:
    """Four people play random legal moves (deals on the seed timeout) until the next
    card would end the game: that table, as stored."""
    rng = random.Random(seed)
    registry = MemoryOnlineTables(now=lambda: 0.0)
    opened, first = registry.create(
        OnlineOptions(seconds_per_move=30, name="P0", stake=STAKE), table_id=f"base{seed}",
        account=people[0])
    tokens = [first] + [registry.claim(opened.id, s, f"P{s}", account=people[s])
                        for s in (1, 2, 3)]
    registry.start(opened.id, first)
    config = opened.config(first_dealer=seed % 4)
    scheduler = ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=scheduler, pacing=Pacing(bot_delay=1.0),
                       kind=ONLINE_KIND, seed_source=lambda: f"base-{rng.random()}"))
    actor.start()
    try:
        for _ in range(20_000):
            await actor.settle()
            game = actor.game
            assert not game.is_over
            seat = game.to_act
            if seat is None:
                await advance(scheduler, actor)
                continue
            view = actor.view(seat)
            assert view is not None
            action = rng.choice(view.legal_actions())
            after = game.apply(action, seat=seat)
            if after.is_over:
                assert after.winner is not None
                return Snapshot(actor.stored(), tokens, seat, str(action), after.winner)
            await actor.act(seat, str(action))
        raise AssertionError("the game did not end")
    finally:
        await actor.stop()


async def _race(engine: AsyncEngine, pots: PotService, snap: Snapshot, people: dict[int, int],
                index: int, rng: random.Random) -> str:
    """One race on a fresh copy of ``snap``; what the table decided ("left"/"ended")."""
    store = MemoryStore()
    scheduler = ManualScheduler()
    manager = _manager(store, pots, scheduler)
    table_id = f"race{index}"
    await store.save(copy_as(snap.stored, table_id))
    await pots.escrow(table_id, STAKE, people, {s: f"P{s}" for s in people})
    actor = await manager.get(table_id)
    assert actor is not None and actor.running
    leaver = rng.choice([s for s in range(4) if s % 2 == snap.winner])

    async def card() -> None:
        for _ in range(rng.randrange(4)):
            await asyncio.sleep(0)
        with _maybe_replaced():
            await actor.act(snap.mover, snap.card)

    async def leave() -> Any:
        for _ in range(rng.randrange(4)):
            await asyncio.sleep(0)
        try:
            return (await leave_game(_door(manager), pots, table_id, snap.tokens[leaver]))[0]
        except ApiError as e:
            return e

    answer = await race(rng, card, leave)
    for _ in range(200):  # a computer that took the mover's seat plays the card
        if actor.game.is_over:
            break
        await advance(scheduler, actor)
    assert actor.game.is_over and actor.game.winner == snap.winner
    pot = await pots.get(table_id)
    assert pot is not None and pot.status == "settled" and pot.winner == snap.winner
    part = pot.seat(leaver)
    assert part is not None
    sums = await table_sums(engine, table_id)
    left = [p for p in pot.seats if p.status == "left"]
    # stakes = payouts + refunds + house; each fee charged is the full 10%
    assert -sums["stake"] == pot.total == 4 * STAKE
    assert -sums["stake"] == sums.get("payout", 0) + sums.get("refund", 0) + (pot.house or 0)
    assert sums.get("payout", 0) == pot.paid_out
    assert -sums.get("fee", 0) == sum(p.fee or 0 for p in left) \
        == rules.leaving_fee(STAKE) * len(left)
    stored = await store.get(table_id)
    assert stored is not None
    replaced = stored.meta.get("replaced") or {}
    if isinstance(answer, ApiError):
        # the deciding card came first: nothing charged, the payout kept
        assert answer.code == "game_ended" and answer.message == GAME_ENDED
        assert str(leaver) not in replaced and not left
        assert (part.status, part.payout, part.fee) == ("won", 2 * STAKE, None)
        assert pot.house == 0
        outcome = "ended"
    else:
        assert answer.left and not answer.already and answer.fee == rules.leaving_fee(STAKE)
        assert replaced == {str(leaver): "left"} and [p.seat for p in left] == [leaver]
        assert (part.status, part.payout, part.fee) == ("left", None, 1)
        assert pot.house == 2 * STAKE  # the leaver's share goes to nobody
        outcome = "left"
    # asked again after the end: the same decision, nothing moves
    before = await table_sums(engine, table_id)
    try:
        again: Any = (await leave_game(_door(manager), pots, table_id, snap.tokens[leaver]))[0]
    except ApiError as e:
        again = e
    if outcome == "ended":
        assert isinstance(again, ApiError) and again.code == "game_ended"
    else:
        assert not isinstance(again, ApiError) and again.already and again.fee == 1
    assert await table_sums(engine, table_id) == before
    await manager.forget(table_id)
    return outcome


class _maybe_replaced:
    """The deciding card of a person whose leave came first is refused (a computer plays
    it): that refusal is expected; anything else is not."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, value: Any, tb: Any) -> bool:
        return kind is not None and issubclass(kind, SeatReplaced)


async def test_a_leave_raced_against_the_deciding_card(engine: AsyncEngine) -> None:
    pots = PotService(engine)
    people = {s: await new_racer(engine, 100_000) for s in range(4)}
    snaps = [await _one_card_before_the_end(seed, people) for seed in range(4)]
    assert {s.mover for s in snaps} | {s.winner for s in snaps}  # a spread of positions
    rng = random.Random(20)
    outcomes = [await _race(engine, pots, snaps[i % len(snaps)], people, i, rng)
                for i in range(RACES)]
    # both orders happened, many times each
    assert outcomes.count("left") >= RACES // 10 and outcomes.count("ended") >= RACES // 10
    balances, entries = await assert_ledger_balanced(engine, list(people.values()))
    await reconcile(pots, MemoryStore())  # nothing half done: nothing moves
    assert await Ledger(engine).totals() == (balances, entries)


class _DiesBeforeCharging(PotService):
    """The owner's charge never happens: it died after storing the replacement."""

    async def leave(self, table_id: str, seat: int, fence: int | None = None) -> Any:
        raise ConnectionError("the owner died here")


@pytest.mark.parametrize("retried", [True, False])
async def test_an_owner_that_died_between_the_replacement_and_its_charge(
        engine: AsyncEngine, retried: bool) -> None:
    """The replacement is stored, the charge never made; the next owner (another process
    restoring the table from storage) completes it: a retried leave answers ``already``
    with the fee charged once, and the game's end counts the seat as left either way."""
    pots = PotService(engine)
    people = {s: await new_racer(engine, 1000) for s in range(4)}
    snap = await _one_card_before_the_end(7, people)
    store = MemoryStore()
    table_id = f"died{int(retried)}"
    await store.save(copy_as(snap.stored, table_id))
    await pots.escrow(table_id, STAKE, people, {s: f"P{s}" for s in people})
    leaver = snap.winner  # seat 0 or 1: on the winning side
    first = _manager(store, _DiesBeforeCharging(engine), ManualScheduler())
    with pytest.raises(ConnectionError):
        await leave_game(_door(first), _DiesBeforeCharging(engine), table_id,
                         snap.tokens[leaver])
    stored = await store.get(table_id)
    assert stored is not None and stored.meta["replaced"] == {str(leaver): "left"}
    part = (await pots.get(table_id)).seat(leaver)  # type: ignore[union-attr]
    assert part is not None and part.status == "active"  # not charged
    crashed = first.peek(table_id)
    assert crashed is not None
    await crashed.stop()  # the process is gone; the store keeps what it saved

    scheduler = ManualScheduler()
    second = _manager(store, pots, scheduler)
    if retried:
        again, _ = await leave_game(_door(second), pots, table_id, snap.tokens[leaver])
        assert again.already and again.fee == rules.leaving_fee(STAKE)
    actor = await second.get(table_id)
    assert actor is not None and actor.is_replaced(leaver)
    with _maybe_replaced():
        await actor.act(snap.mover, snap.card)
    for _ in range(200):
        if actor.game.is_over:
            break
        await advance(scheduler, actor)
    pot = await pots.get(table_id)
    assert pot is not None and pot.status == "settled" and pot.winner == snap.winner
    part = pot.seat(leaver)
    assert part is not None and (part.status, part.fee, part.payout) == ("left", 1, None)
    assert pot.house == 2 * STAKE
    sums = await table_sums(engine, table_id)
    assert sums == {"stake": -40, "payout": 2 * STAKE, "fee": -1}
    assert await Ledger(engine).account_totals(people[leaver]) == (1000 - STAKE - 1,) * 2
    await second.forget(table_id)
