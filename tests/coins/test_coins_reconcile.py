"""After a crash: the stake of a table never stored is refunded; a game that ended before
its payout is settled once; a table left just before the crash is closed."""

from __future__ import annotations

import random

from coin_helpers import FakeNow, assert_balanced, new_account
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre import GameState, Rules
from euchre.bots import make
from euchre.coins import CoinService
from euchre.record import GameRecord
from euchre.server.accounts.accounts_api import AccountsState, reconcile
from euchre.storage.base import FINISHED, PLAYING, StoredGame
from euchre.storage.memory import MemoryStore
from euchre.table.kinds.clock import ClockPolicy


def _finished_game(seed: int) -> GameState:
    rng = random.Random(seed)
    bots = [make("easy", i) for i in range(4)]
    game = GameState(Rules())
    while not game.is_over:
        if game.needs_deal:
            game = game.deal_random(rng)
            continue
        seat = game.to_act
        assert seat is not None and game.current is not None
        game = game.apply(bots[seat].choose(game.current.view(seat)))
    return game


def _stored(table_id: str, game: GameState, status: str, **meta: object) -> StoredGame:
    return StoredGame(id=table_id, kind="coin", status=status, version=1,
                      meta={"config": {}, **meta},
                      record=GameRecord.from_game(game).to_json(), created_at=0, updated_at=0)


async def test_reconcile_after_a_crash(engine: AsyncEngine) -> None:
    coins = CoinService(engine, FakeNow())
    state = AccountsState(engine, None, None, coins, ClockPolicy())  # type: ignore[arg-type]
    store = MemoryStore()
    never = await new_account(engine, 1000)
    ended = await new_account(engine, 1000)
    left = await new_account(engine, 1000)
    # Charged, then the server died before the table was stored.
    await coins.open(never, "t-never", 100)
    # The game ended and was stored, then the server died before the payout.
    await coins.open(ended, "t-ended", 100)
    game = _finished_game(3)
    await store.save(_stored("t-ended", game, FINISHED))
    # The person left (fee charged), then the server died before the table was closed.
    await coins.open(left, "t-left", 100)
    await coins.leave("t-left", left)
    await store.save(_stored("t-left", GameState(Rules()), PLAYING))

    for _ in range(2):  # a second restart changes nothing more
        await reconcile(state, store)
        assert await coins.ledger.balance(never) == 1000
        won = game.winner == 0
        assert await coins.ledger.balance(ended) == 900 + (200 if won else 0)
        assert await coins.ledger.balance(left) == 890
        closed = await store.get("t-left")
        assert closed is not None and closed.status == FINISHED
        assert closed.meta["closed"] == "left"
        assert await store.unfinished() == []
    statuses = {g.table_id: g.status for a in (never, ended, left) for g in await coins.games(a)}
    assert statuses == {"t-never": "refunded", "t-ended": "won" if won else "lost",
                        "t-left": "left"}
    await assert_balanced(engine, never, ended, left)
