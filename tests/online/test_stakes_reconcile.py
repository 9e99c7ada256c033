"""What a crash can leave half done at a stake table, settled at the next start
(:func:`euchre.server.online.stakes.reconcile`): stakes taken for a table never stored come back;
a game that ended before its finish hook ran is settled; a leave charged before the table
heard of it, or a seat taken over before its fee was charged, is completed."""

from __future__ import annotations

import datetime as dt
import itertools

from online_helpers import Table
from sqlalchemy.ext.asyncio import AsyncEngine

from euchre.coins.ledger import Ledger
from euchre.coins.pots import PotService
from euchre.server.online.stakes import reconcile
from euchre.storage.accounts_models import accounts
from euchre.storage.memory import MemoryStore
from ledger_fixtures import db_url, engine

__all__ = ["db_url", "engine"]

NAMES = {0: "Ann", 1: "Bob"}
T0 = dt.datetime(2026, 5, 1, 12, 0, tzinfo=dt.UTC)
_names = itertools.count()


async def new_account(engine: AsyncEngine, coins: int = 1000) -> int:
    """An account holding ``coins`` (one welcome entry)."""
    name = f"reconcile{next(_names)}"
    async with engine.begin() as conn:
        account_id = int((await conn.execute(
            accounts.insert().values(username=name, username_key=name, password_hash="x",
                                     balance=0, created_at=T0)
            .returning(accounts.c.id))).scalar_one())
    await Ledger(engine, lambda: T0).post(account_id, coins, "welcome", f"welcome:{account_id}")
    return account_id


async def assert_balanced(engine: AsyncEngine, *account_ids: int) -> None:
    """Balances equal the sums of entries; none is negative."""
    ledger = Ledger(engine)
    balances, entries = await ledger.totals()
    assert balances == entries
    for account_id in account_ids:
        balance, total = await ledger.account_totals(account_id)
        assert balance == total >= 0


async def _play_until_over(t: Table) -> None:
    for _ in range(5000):
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


async def test_a_pot_whose_table_was_never_stored_is_refunded(engine: AsyncEngine) -> None:
    pots = PotService(engine, lambda: T0)
    people = {0: await new_account(engine), 1: await new_account(engine)}
    await pots.escrow("ghost", 50, people, NAMES)
    await reconcile(pots, MemoryStore())
    pot = await pots.get("ghost")
    assert pot is not None and pot.status == "refunded"
    assert [await pots.covers(a, 0) for a in people.values()] == [1000, 1000]
    await assert_balanced(engine, *people.values())


async def test_a_game_over_before_its_finish_hook_is_settled_with_the_fee(
        engine: AsyncEngine) -> None:
    pots = PotService(engine, lambda: T0)
    store = MemoryStore()
    t = Table(seconds=30)
    t.actor.store = store
    people = {0: await new_account(engine), 1: await new_account(engine)}
    await pots.escrow(t.config.id, 100, people, NAMES)
    t.actor.start()
    await t.actor.replace(1, "left")  # the table took Bob's seat; the crash came before the fee
    await _play_until_over(t)
    await t.actor.stop()
    await reconcile(pots, store)
    pot = await pots.get(t.config.id)
    assert pot is not None and pot.status == "settled"
    assert pot.winner == t.actor.game.winner
    bob = pot.seat(1)
    assert bob is not None and (bob.status, bob.fee) == ("left", 10)
    ann = pot.seat(0)
    assert ann is not None
    assert ann.status == ("won" if pot.winner == 0 else "lost")
    assert pot.paid_out == (200 if pot.winner == 0 else 0)
    assert pot.paid_out + (pot.house or 0) == 200
    await reconcile(pots, store)  # again: nothing moves
    assert await pots.get(t.config.id) == pot
    await assert_balanced(engine, *people.values())


async def test_leaves_half_done_are_completed(engine: AsyncEngine) -> None:
    pots = PotService(engine, lambda: T0)
    store = MemoryStore()
    t = Table(seconds=30)
    t.actor.store = store
    people = {0: await new_account(engine), 1: await new_account(engine)}
    await pots.escrow(t.config.id, 10, people, NAMES)
    t.actor.start()
    await t.actor.replace(0, "away")  # taken over, not charged
    await pots.leave(t.config.id, 1)  # charged, not taken over
    await t.actor.stop()
    await reconcile(pots, store)
    pot = await pots.get(t.config.id)
    assert pot is not None and pot.status == "active"
    assert [(s.status, s.fee) for s in pot.seats] == [("left", 1), ("left", 1)]
    stored = await store.get(t.config.id)
    assert stored is not None and stored.meta["replaced"] == {"0": "away", "1": "left"}
    await assert_balanced(engine, *people.values())
