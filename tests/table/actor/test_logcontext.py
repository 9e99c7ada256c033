"""Log lines name their table: code running for a table actor (its handlers, its computers'
thinking) sees the table's id in ``TABLE_ID``, and the caller's own context is untouched."""

from __future__ import annotations

from typing import Any

from euchre.actions import Action
from euchre.storage import MemoryStore
from euchre.table.actor.actor import TableActor, TableDeps
from euchre.table.actor.logcontext import TABLE_ID
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.kinds.practice import PracticeOptions, practice_table
from euchre.view import HandView
from table_helpers import until_person


class _Seeing:
    """A computer that notes which table its thinking runs for."""

    def __init__(self, seen: list[str | None]) -> None:
        self.seen = seen

    def choose(self, view: HandView) -> Action:
        self.seen.append(TABLE_ID.get())
        return view.legal[0]


async def test_the_actors_work_is_logged_under_its_table() -> None:
    seen: list[str | None] = []

    def factory(level: str, seed: int | None) -> Any:
        return _Seeing(seen)

    config, _ = practice_table(PracticeOptions(), table_id="logged-table", token="t",
                               first_dealer=0)
    sched = ManualScheduler()
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0),
                       store=MemoryStore(),
                       bot_factory=factory))
    assert TABLE_ID.get() is None
    actor.start()
    try:
        for _ in range(3):
            assert await until_person(actor, sched)
            view = actor.view(0)
            assert view is not None
            await actor.act(0, str(view.legal[0]))
        assert seen and set(seen) == {"logged-table"}
        assert TABLE_ID.get() is None  # the caller's context is its own
    finally:
        await actor.stop()
