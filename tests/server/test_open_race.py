"""A table asked for while it is being opened (its first save still in flight) is handed out
only once it runs: a socket that joins then is not closed with 1012 "the table has stopped".

An online table is marked started in the lobby before its game is opened, and the waiting
page's socket reads that state from storage; so a client (a bot's bridge, a browser) can reach
the table socket while the opening save is still under way. Memory store with a gate on its
saves, fake clock: no timing.
"""

from __future__ import annotations

import asyncio

import pytest

from euchre.storage import MemoryStore, StoredGame
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.kinds.practice import PracticeOptions, practice_table
from table_helpers import Recorder, make_manager


class GatedStore(MemoryStore):
    """A memory store whose saves wait until :attr:`go` is set (a slow database)."""

    def __init__(self) -> None:
        super().__init__()
        self.saving = asyncio.Event()
        """Set when a save has begun."""
        self.go = asyncio.Event()
        """Set to let saves finish."""

    async def save(self, game: StoredGame) -> None:
        self.saving.set()
        await self.go.wait()
        await super().save(game)


async def test_a_table_found_while_its_first_save_is_in_flight_is_handed_out_running(
) -> None:
    store = GatedStore()
    manager = make_manager(store, ManualScheduler())
    config, token = practice_table(PracticeOptions(), table_id="o1", token="secret",
                                   first_dealer=0)
    opening = asyncio.create_task(manager.open(config))
    await store.saving.wait()
    person = Recorder(0)
    asked = asyncio.Event()

    async def find_and_join() -> None:
        asked.set()
        actor = await manager.locate(config.id)
        assert actor is not None
        await actor.join(person)  # raised TableStopped (a 1012 close) before the fix

    joining = asyncio.create_task(find_and_join())
    await asked.wait()  # the finder has run up to its first wait
    assert not joining.done()
    store.go.set()
    actor = await opening
    await joining
    assert actor.running and manager.peek(config.id) is actor
    assert person.of_type("snapshot") or person.events()
    assert actor.seat_of(token) == 0


async def test_a_table_whose_opening_failed_is_not_handed_out() -> None:
    store = GatedStore()
    manager = make_manager(store, ManualScheduler())
    config, _ = practice_table(PracticeOptions(), table_id="o2", first_dealer=0)
    opening = asyncio.create_task(manager.open(config))
    await store.saving.wait()
    asked = asyncio.Event()

    async def find() -> object:
        asked.set()
        return await manager.locate(config.id)

    finding = asyncio.create_task(find())
    await asked.wait()  # the finder has run up to its first wait
    opening.cancel()  # the save never finishes: the table is not opened
    with pytest.raises(asyncio.CancelledError):
        await opening
    assert await finding is None
    assert manager.peek(config.id) is None
