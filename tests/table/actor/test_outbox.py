"""Save, then show, on a fake clock: held events reach nobody before their save, callers
are answered once it is stored, a failed save undoes the decisions (versions used again,
callers told, a growing pause), connection facts are shown even when their save fails, and
a newer owner's fence leaves the outbox fenced."""

from __future__ import annotations

import asyncio

import pytest

from euchre.game import GameState
from euchre.rules import Rules
from euchre.storage.base import StaleFenceError
from euchre.table.actor.errors import NOT_OURS, NotStored, TableError
from euchre.table.actor.events import Frame
from euchre.table.actor.fanout import Fanout, Outgoing
from euchre.table.actor.kind import TableObserver
from euchre.table.actor.outbox import Outbox
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.actor.saving import RETRY_FIRST, Retry
from euchre.table.actor.wire import (
    EventBody,
    EventMessage,
    PresenceEvent,
    SpectatorsEvent,
)
from table_helpers import StandInTable

GAME = GameState(Rules(), 0)


class Seen:
    """A subscriber that notes the version and body of each event it gets."""

    seat: int | None = None

    def __init__(self) -> None:
        self.events: list[tuple[int, object]] = []

    def send(self, message: Outgoing) -> None:
        """Note an event."""
        if isinstance(message.message, EventMessage):
            self.events.append((message.message.version, message.message.event))


class Saves(TableObserver):
    """Counts the saves that succeeded and failed."""

    def __init__(self) -> None:
        self.oks: list[bool] = []

    def saved(self, seconds: float, ok: bool) -> None:
        """Note a save."""
        self.oks.append(ok)


class Table:
    """A table whose decisions are a list of numbers; it can be made to fail its saves. It
    drives its outbox as the actor's loop does: it makes each frame, keeps its decisions
    once stored, and goes back to them and shows what stays when a save fails."""

    def __init__(self, sched: ManualScheduler, version: int = 0) -> None:
        self.decisions: list[int] = []
        self.back_to: list[list[int]] = []
        self.saved: list[list[int]] = []
        self.failure: Exception | None = None
        self.fanout = Fanout("t1", lambda frame, seat, now, played: StandInTable(  # type: ignore[arg-type,return-value]
            table_id="t1", seat=seat, version=frame.version), 64, lambda: 0.0)
        self.sub = Seen()
        self.fanout.subscribers.append(self.sub)
        self.observer = Saves()
        self.fenced: list[bool] = []
        self.kept: list[int] = []
        self.outbox = Outbox(self.fanout, self.observer, Retry(), sched.now, self.frame(version))

    def frame(self, version: int) -> Frame:
        return Frame(version, GAME, None, None, (True, True, True, True),
                     spectators=len(self.decisions))

    def go_back(self, kept: list[int]) -> None:
        self.back_to.append(kept)
        self.decisions = list(kept)

    def hold(self, bodies: list[EventBody]) -> None:
        self.outbox.hold(bodies, self.frame(self.outbox.version + len(bodies)))

    async def store(self, *, show: bool = True, nowhere: bool = False) -> None:
        out = self.outbox
        try:
            if await out.store(None if nowhere else self.save, show=show):
                self.kept = list(self.decisions)
        except TableError:
            self.undone()
            if out.fenced:
                self.fenced.append(out.fenced)
            raise

    def undo(self, error: TableError) -> None:
        self.outbox.undo(error)
        self.undone()

    def undone(self) -> None:
        self.go_back(self.kept)
        self.outbox.refresh(self.frame(self.outbox.version))
        self.outbox.show()

    def refresh(self) -> None:
        self.outbox.refresh(self.frame(self.outbox.version))
        self.kept = list(self.decisions)

    async def save(self) -> None:
        if self.failure is not None:
            raise self.failure
        self.saved.append(list(self.decisions))

    def decide(self, n: int) -> None:
        """A decision, and its event."""
        self.decisions.append(n)
        self.outbox.decided()
        self.hold([SpectatorsEvent(count=n)])


async def test_events_are_held_until_stored_and_callers_answered_after() -> None:
    sched = ManualScheduler()
    t = Table(sched)
    out = t.outbox
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    t.decide(1)
    t.decide(2)
    out.answer(done, None)
    assert out.version == 2 and out.shown_version == 0 and out.pending
    assert t.sub.events == [] and not done.done()
    assert out.shown_frame().version == 0 and out.frame.version == 2
    await t.store()
    assert t.saved == [[1, 2]] and t.observer.oks == [True]
    assert [v for v, _ in t.sub.events] == [1, 2] and done.done()
    assert out.shown_version == 2 and out.stored_version == 2 and not out.pending
    assert t.fanout.history[-1][0] == 2


async def test_a_caller_with_nothing_waiting_is_answered_at_once() -> None:
    t = Table(ManualScheduler())
    done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    t.outbox.answer(done, "yes")
    assert done.result() == "yes"


async def test_a_failed_save_undoes_the_decisions_and_pauses_what_is_due() -> None:
    sched = ManualScheduler(100.0)
    t = Table(sched, version=5)
    out = t.outbox
    t.decide(1)
    await t.store()
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    t.decide(2)
    t.decide(3)
    out.answer(done, None)
    t.failure = OSError("the database is gone")
    with pytest.raises(NotStored):
        await t.store()
    assert t.back_to == [[1]] and t.decisions == [1]  # back to what was stored
    assert out.version == 6 and out.shown_version == 6  # versions 7 and 8 are used again
    assert [v for v, _ in t.sub.events] == [6]  # nobody saw the undone events
    assert isinstance(done.exception(), NotStored)
    assert out.retry.at == 100.0 + RETRY_FIRST and not out.pending
    assert out.frame.spectators == 1  # the frame is the table gone back
    with pytest.raises(NotStored):  # failing again: the pause grows
        t.decide(4)
        await t.store()
    assert out.retry.at == 100.0 + 2 * RETRY_FIRST
    t.failure = None
    t.decide(5)
    await t.store()
    assert out.retry.failures == 0 and [v for v, _ in t.sub.events] == [6, 7]
    assert t.observer.oks == [True, False, False, True]


async def test_connection_facts_are_shown_even_when_their_save_fails() -> None:
    t = Table(ManualScheduler())
    out = t.outbox
    t.hold([PresenceEvent(seat=1, connected=False)])
    out.noted(True)
    t.failure = OSError("down")
    await t.store()  # logged, not raised: nothing is undone
    assert [v for v, _ in t.sub.events] == [1] and t.back_to == []
    assert out.unsaved  # the next save carries it
    t.failure = None
    await t.store()
    assert not out.unsaved and out.stored_version == 1


async def test_events_stored_before_a_failed_save_stay_and_are_shown() -> None:
    t = Table(ManualScheduler())
    out = t.outbox
    t.decide(1)
    await t.store(show=False)  # stored, not shown yet (a finish hook runs first)
    assert t.sub.events == []
    t.decide(2)
    t.failure = OSError("down")
    with pytest.raises(NotStored):
        await t.store()
    assert [v for v, _ in t.sub.events] == [1] and out.version == 1


async def test_a_newer_owners_fence_leaves_the_outbox_fenced() -> None:
    t = Table(ManualScheduler())
    out = t.outbox
    t.decide(1)
    t.failure = StaleFenceError("t1", 3, 4)
    with pytest.raises(TableError, match=NOT_OURS) as refused:
        await t.store()
    assert not isinstance(refused.value, NotStored)
    assert out.fenced and t.decisions == [] and out.version == 0 and t.sub.events == []
    assert t.fenced == [True]  # told once, after the undo


async def test_without_a_store_decisions_are_kept_and_shown() -> None:
    t = Table(ManualScheduler())
    out = t.outbox
    t.decide(1)
    await t.store(nowhere=True)
    assert [v for v, _ in t.sub.events] == [1] and not out.changed
    t.decide(2)
    t.undo(TableError("a bug"))  # goes back to the last kept state: [1]
    assert t.decisions == [1] and out.version == 1


async def test_saving_as_the_table_stops_logs_a_failure() -> None:
    t = Table(ManualScheduler())
    out = t.outbox
    out.noted(True)
    t.failure = OSError("down")
    await out.save_quietly(t.save)
    assert out.unsaved
    t.failure = None
    await out.save_quietly(t.save)
    assert not out.unsaved and t.saved == [[]]


async def test_refresh_makes_the_frame_and_what_an_undo_goes_back_to() -> None:
    t = Table(ManualScheduler())
    out = t.outbox
    t.decisions.append(9)  # changed without an event (the clock started at the start)
    t.refresh()
    assert out.frame.spectators == 1
    t.decide(1)
    t.undo(TableError("a bug"))
    assert t.decisions == [9]
