"""A table whose game is over and whose person left is dropped from memory and leaves
nothing behind: the actor and every state of its game are freed (the store keeps the
record). While it runs, a table keeps its finished hands without the chain of states
each hand passed through."""

from __future__ import annotations

import gc
import random
import weakref

from euchre.hand import Deal, HandState
from euchre.storage import MemoryStore
from euchre.storage.base import FINISHED
from euchre.table.pacing import ManualScheduler
from euchre.table.practice import PracticeOptions, practice_table
from table_helpers import Recorder, make_manager, play_game


def _states_of(deals: list[Deal]) -> list[HandState]:
    """Every live hand state dealt from one of ``deals``."""
    return [o for o in gc.get_objects()
            if isinstance(o, HandState) and any(o.deal is d for d in deals)]


async def test_a_finished_table_dropped_from_memory_leaves_nothing_behind() -> None:
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
