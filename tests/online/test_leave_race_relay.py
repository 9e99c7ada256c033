"""The leave raced against the deciding card across two processes: the person's request
reaches a process that does not run the table, which asks the owner over the broker (the
relay's ``replace``); the owner's table decides and answers ``now``, ``already`` or
``over``, and the ledger agrees every time. Two relays on one in-memory broker, the owner's
manager on the injected scheduler; the pots on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

from race_helpers import advance, copy_as, new_racer, table_sums
from sqlalchemy.ext.asyncio import AsyncEngine
from test_leave_race import STAKE, _manager, _maybe_replaced, _one_card_before_the_end

from euchre.broker.memory import MemoryBroker
from euchre.coins.pots import PotService
from euchre.server.tables.relay import RelayEdge, RelayHost
from euchre.storage.memory import MemoryStore
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.actor.presence import LEFT
from ledger_fixtures import db_url, engine

__all__ = ["db_url", "engine"]

RACES = 60


def _host(broker: MemoryBroker, manager: Any, owner: str) -> RelayHost:
    hints: Any = None
    return RelayHost(broker, manager, owner, 30.0, hints)


def _edge(broker: MemoryBroker, owner: str) -> RelayEdge:
    owners: Any = SimpleNamespace(owner=owner, ttl=30.0)
    return RelayEdge(broker, owners)


async def test_a_leave_at_another_process_raced_against_the_deciding_card(
        engine: AsyncEngine) -> None:
    pots = PotService(engine)
    people = {s: await new_racer(engine, 100_000) for s in range(4)}
    snaps = [await _one_card_before_the_end(seed, people) for seed in range(2)]
    broker = MemoryBroker()
    await broker.connect()
    store = MemoryStore()
    scheduler = ManualScheduler()
    owner_manager = _manager(store, pots, scheduler)
    owner = _host(broker, owner_manager, "owner")
    asker = _edge(broker, "asker")
    owner.start()
    await owner.ready.wait()
    rng = random.Random(23)
    outcomes = []
    try:
        assert await asker.replace_remote("owner", "nowhere", 0, LEFT) is None  # not run there
        for i in range(RACES):
            snap = snaps[i % len(snaps)]
            table_id = f"relayrace{i}"
            await store.save(copy_as(snap.stored, table_id))
            await pots.escrow(table_id, STAKE, people, {s: f"P{s}" for s in people})
            actor = await owner_manager.get(table_id)
            assert actor is not None
            leaver = rng.choice([s for s in range(4) if s % 2 == snap.winner])

            async def card(actor: Any = actor, mover: int = snap.mover,
                           text: str = snap.card) -> None:
                for _ in range(rng.randrange(6)):
                    await asyncio.sleep(0)
                with _maybe_replaced():
                    await actor.act(mover, text)

            results = await asyncio.gather(
                asker.replace_remote("owner", table_id, leaver, LEFT), card())
            outcome = results[0]
            for _ in range(200):
                if actor.game.is_over:
                    break
                await advance(scheduler, actor)
            pot = await pots.get(table_id)
            assert pot is not None and pot.status == "settled"
            part = pot.seat(leaver)
            assert part is not None
            sums = await table_sums(engine, table_id)
            assert -sums["stake"] == sums.get("payout", 0) + (pot.house or 0)
            if outcome == "over":
                assert not actor.is_replaced(leaver)
                assert (part.status, part.payout, part.fee) == ("won", 2 * STAKE, None)
                assert "fee" not in sums
            else:
                assert outcome == "now" and actor.is_replaced(leaver)
                assert (part.status, part.payout, part.fee) == ("left", None, 1)
                assert sums["fee"] == -1
            # asked again: the same decision, nothing moves
            again = await asker.replace_remote("owner", table_id, leaver, LEFT)
            assert again == ("over" if outcome == "over" else "already")
            assert await table_sums(engine, table_id) == sums
            outcomes.append(outcome)
            await owner_manager.forget(table_id)
    finally:
        await owner.stop()
        await broker.disconnect()
    assert outcomes.count("now") >= RACES // 10 and outcomes.count("over") >= RACES // 10
