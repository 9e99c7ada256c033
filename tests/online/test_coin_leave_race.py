"""A leave from a coin table against the computer raced against the game's deciding card,
on SQLite and PostgreSQL: the table orders the two. A leave it saw first closes the table
and is charged (stake forfeit, the full fee, no payout); one it saw after the deciding
card is refused (``game_ended``), charges nothing, and a win is paid. Driven through the
real manager, coin table kind, finish hook and coin service on the injected scheduler."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random

from race_helpers import advance, assert_ledger_balanced, copy_as, new_racer, race, table_sums
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.bots import make
from euchre.coins import rules
from euchre.coins.service import CoinGame, CoinService
from euchre.server.accounts.accounts_api import COIN_GAME_ENDED, leave_coin_game
from euchre.server.core.errors import ApiError
from euchre.server.tables.door import Tables
from euchre.server.tables.hints import HintService
from euchre.storage.base import StoredGame
from euchre.storage.memory import MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps, TableError
from euchre.table.actor.kind import FinishedTable
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.hosting.manager import TableManager
from euchre.table.kinds.clock import ClockPolicy
from euchre.table.kinds.coin import coin_kind, coin_table
from ledger_fixtures import db_url, engine

__all__ = ["db_url", "engine"]

STAKE = 50
RACES = 100
"""Races per database."""


def _door(manager: TableManager) -> Tables:
    """The door to ``manager``'s tables (one process: nothing is relayed)."""
    return Tables(manager, HintService(1.0))


def _manager(store: MemoryStore, coins: CoinService, scheduler: ManualScheduler
             ) -> TableManager:
    counter = itertools.count()
    manager = TableManager(store, scheduler, Pacing(bot_delay=1.0, hand_pause=2.0),
                           bot_factory=lambda level, seed: make("easy", seed),
                           seed_source=lambda: f"coin-race-{next(counter)}")

    async def settle(table: FinishedTable) -> None:
        if table.game.winner is not None:
            await coins.finish(table.id, table.game.winner)

    manager.register(coin_kind(ClockPolicy(), settle))
    return manager


@dataclasses.dataclass
class Snapshot:
    """A coin table stored one card before its end."""

    stored: StoredGame
    mover: int
    card: str
    winner: int


async def _one_card_before_the_end(seed: int, token: str) -> Snapshot:
    rng = random.Random(seed)
    config, _ = coin_table(f"base{seed}", "racer", STAKE, token=token, first_dealer=seed % 4)
    scheduler = ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=scheduler, pacing=Pacing(bot_delay=1.0),
                       kind=coin_kind(ClockPolicy(), _no_finish),
                       bot_factory=lambda level, s: make("easy", s),
                       seed_source=lambda: f"base-{rng.random()}"))
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
            legal = game.legal_actions()
            if len(legal) == 1 and game.apply(legal[0], seat=seat).is_over:
                winner = game.apply(legal[0], seat=seat).winner
                assert winner is not None
                return Snapshot(actor.stored(), seat, str(legal[0]), winner)
            if seat == 0:
                await actor.act(0, str(rng.choice(legal)))
            else:
                await advance(scheduler, actor)  # the computer's move
        raise AssertionError("the game did not end")
    finally:
        await actor.stop()


async def _no_finish(table: FinishedTable) -> None:
    return None


async def _race(engine: AsyncEngine, coins: CoinService, snap: Snapshot, account: int,
                token: str, index: int, rng: random.Random) -> str:
    store = MemoryStore()
    scheduler = ManualScheduler()
    manager = _manager(store, coins, scheduler)
    table_id = f"coinrace{index}"
    await coins.open(account, table_id, STAKE, seat=0, seat_token=token)
    await store.save(copy_as(snap.stored, table_id))
    actor = await manager.get(table_id)
    assert actor is not None and actor.running

    looked = asyncio.Event()
    assert isinstance(coins, _Told)
    coins.looked = looked

    async def card() -> None:
        # The leave's first step reads the database (real I/O): from there on the two go
        # to the table's queue a few steps apart, in an order the yields decide.
        await looked.wait()
        for _ in range(rng.randrange(4)):
            await asyncio.sleep(0)
        if snap.mover == 0:
            with _maybe_closed():
                await actor.act(0, snap.card)
        else:
            due = scheduler.next_due()
            if due is None:
                assert actor.closed == "left"  # the leave closed it first: nothing due
                return
            scheduler.advance(max(0.0, due - scheduler.now()))  # the computer plays it

    async def leave() -> object:
        for _ in range(rng.randrange(4)):
            await asyncio.sleep(0)
        try:
            return await leave_coin_game(_door(manager), coins, table_id, account)
        except ApiError as e:
            return e

    answer = await race(rng, card, leave)
    for _ in range(50):  # the computer's card, if the leave did not close the table first
        if actor.finished:
            break
        await advance(scheduler, actor)
    stored = await store.get(table_id)
    assert stored is not None and stored.status == "finished"
    game = await coins.get(table_id)
    assert game is not None
    sums = await table_sums(engine, table_id)
    fee = rules.leaving_fee(STAKE)
    if isinstance(answer, ApiError):
        assert answer.code == "game_ended" and answer.message == COIN_GAME_ENDED
        assert "closed" not in stored.meta and actor.game.winner == snap.winner
        won = snap.winner == 0
        assert game.status == ("won" if won else "lost")
        assert sums == ({"stake": -STAKE, "payout": 2 * STAKE} if won else {"stake": -STAKE})
        outcome = "ended"
    else:
        assert stored.meta.get("closed") == "left" and not actor.game.is_over
        assert game.status == "left" and sums == {"stake": -STAKE, "fee": -fee}
        outcome = "left"
    # asked again: the same decision, nothing moves
    try:
        again: object = await leave_coin_game(_door(manager), coins, table_id, account)
    except ApiError as e:
        again = e
    assert isinstance(again, ApiError) == (outcome == "ended")
    assert await table_sums(engine, table_id) == sums
    await manager.forget(table_id)
    return outcome


class _maybe_closed:
    """The person's deciding card after their leave closed the table is refused."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, value: object, tb: object) -> bool:
        return isinstance(value, TableError)


class _Told(CoinService):
    """The coin service, telling the race when the leave has read its coin game."""

    looked: asyncio.Event | None = None
    rng = random.Random(22)

    async def get(self, table_id: str) -> CoinGame | None:
        game = await super().get(table_id)
        if self.looked is not None:
            self.looked.set()
            for _ in range(self.rng.randrange(4)):  # then on to the table, a few steps on
                await asyncio.sleep(0)
        return game


async def test_a_coin_table_leave_raced_against_the_deciding_card(engine: AsyncEngine) -> None:
    coins = _Told(engine)
    token = "racer-token-0123456789"
    account = await new_racer(engine, 100_000)
    snaps = [await _one_card_before_the_end(seed, token) for seed in range(4)]
    rng = random.Random(21)
    outcomes = [await _race(engine, coins, snaps[i % len(snaps)], account, token, i, rng)
                for i in range(RACES)]
    assert outcomes.count("left") >= RACES // 10 and outcomes.count("ended") >= RACES // 10
    assert len({s.mover == 0 for s in snaps}) >= 1
    await assert_ledger_balanced(engine, [account])
