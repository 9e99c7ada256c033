"""A table's saves append its record's new lines: through a whole game on SQLite the stored
record is the table's record after every move, the record's base is written only when the
table opens and when the game ends, and each move's save writes a few lines."""

from __future__ import annotations

import dataclasses
import random
import sqlite3
from pathlib import Path

from euchre.storage.base import StoredGame
from euchre.storage.sql import SqlStore
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.kinds.practice import PracticeOptions, practice_table
from table_helpers import make_manager, play_game


class Spy(SqlStore):
    """An SQLite store that keeps what each save was asked to write."""

    saves: list[StoredGame]

    async def save(self, game: StoredGame) -> None:
        """Keep the save, then write it."""
        self.saves.append(game)
        await super().save(game)


async def test_a_whole_game_is_saved_line_by_line_and_read_back_whole(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store = await Spy.open(f"sqlite+aiosqlite:///{path}", commit_window=0)
    store.saves = []
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, _ = practice_table(PracticeOptions(), table_id="t1", first_dealer=2)
    actor = await manager.open(config)
    bases = set()

    async def check() -> None:
        await actor.settle()
        stored = await store.get("t1")
        assert stored is not None and stored.version == actor.version
        assert stored.record == actor.record().to_json()
        with sqlite3.connect(path) as db:
            bases.add(db.execute("SELECT record FROM games").fetchone()[0])

    moves = await play_game(actor, sched, random.Random(7), on_turn=check)
    await actor.settle()
    assert moves > 20 and actor.game.is_over
    stored = await store.get("t1")
    assert stored is not None and stored.record == actor.record().to_json()
    # Written whole: as the table opened, at its first save, and once the game was over.
    wholes = [s for s in store.saves if s.journal is None]
    assert len(wholes) == 3 and wholes[-1].status == "finished"
    assert len(bases) <= 2  # mid-game, the base stayed as first written
    tails = [s.journal for s in store.saves if s.journal is not None]
    assert len(tails) > moves and max(len(t.lines) for t in tails) <= 9 + 9
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT lines FROM games").fetchone() == (0,)  # all in the base
        assert db.execute("SELECT count(*) FROM game_lines").fetchone() == (0,)
    await manager.close()
    await store.close()


async def test_a_copy_of_stored_with_other_meta_saves_that_meta() -> None:
    from euchre.storage import MemoryStore

    store = MemoryStore()
    sched = ManualScheduler()
    manager = make_manager(store, sched)
    config, _ = practice_table(PracticeOptions(), table_id="t2", first_dealer=0)
    actor = await manager.open(config)
    await actor.settle()
    stored = actor.stored()
    await store.save(dataclasses.replace(stored, id="t3", meta={**stored.meta, "mark": 1}))
    copy = await store.get("t3")
    assert copy is not None and copy.meta["mark"] == 1
    assert copy.record == actor.record().to_json()
    await manager.close()
