"""The fan-out part of a table: subscribers, the history a rejoin catches up from (the events
it missed, in order), and each message encoded once per audience (a seat's windows share one
text, all spectators share one), with typed values handed to subscribers. On the fake
clock, with a real table."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import msgspec

from euchre.table.actor.actor import TableActor, TableDeps
from euchre.table.actor.delta import Folder
from euchre.table.actor.fanout import Fanout, Outgoing
from euchre.table.actor.kind import PRACTICE_KIND
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.wire import ActionEvent, EventMessage, Joined, Snapshot, TableSnapshot
from euchre.table.kinds.practice import PracticeOptions, practice_table


class Keeper:
    """A subscriber that keeps what it is handed, typed and as text."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.handed: list[Outgoing] = []

    def send(self, message: Outgoing) -> None:
        self.handed.append(message)

    def texts(self) -> list[dict[str, Any]]:
        return [json.loads(m.text) for m in self.handed]


class Broken(Keeper):
    """A subscriber whose connection fails on the first event."""

    def send(self, message: Outgoing) -> None:
        if isinstance(message.message, EventMessage):
            raise OSError("gone")
        super().send(message)


def table() -> tuple[TableActor, ManualScheduler]:
    config, _ = practice_table(PracticeOptions("classic", {}, "easy", "easy", "easy"),
                               table_id="f1", token="secret", first_dealer=0)
    sched = ManualScheduler()
    counter = iter(range(10**6))
    actor = TableActor(config, TableDeps(scheduler=sched, pacing=Pacing(0.5, 2.0),
                       seed_source=lambda: f"seed-{next(counter)}",
                       kind=dataclasses.replace(PRACTICE_KIND, spectators=True)))
    return actor, sched


async def until_seat(actor: TableActor, sched: ManualScheduler, seat: int = 0) -> None:
    while True:
        await actor.settle()
        if actor.game.to_act == seat or actor.game.is_over:
            return
        due = sched.next_due()
        assert due is not None
        sched.advance(due - sched.now())


async def test_each_event_is_one_value_per_audience_and_encoded_once() -> None:
    actor, sched = table()
    renders: list[int | None] = []
    render = actor._fanout.observer._render

    def counting(frame: Any, seat: int | None, now: float, played: Any) -> TableSnapshot:
        renders.append(seat)
        return render(frame, seat, now, played)

    actor._fanout.observer._render = counting
    tab1, tab2, eve, ann = Keeper(0), Keeper(0), Keeper(None), Keeper(None)
    actor.start()
    for sub in (tab1, tab2):
        await actor.join(sub)
    for sub in (eve, ann):
        await actor.watch(sub)
    await until_seat(actor, sched)
    view = actor.view(0)
    assert view is not None
    renders.clear()
    before = len(tab1.handed)
    await actor.act(0, str(view.legal[0]))
    await actor.settle()
    new = len(tab1.handed) - before
    assert new >= 1
    for i in range(-new, 0):
        # the same value, so the same text, for every window of a seat; one for spectators,
        # which a seat shares when nothing in it is the seat's own
        assert tab1.handed[i] is tab2.handed[i]
        assert eve.handed[i] is ann.handed[i]
        message = tab1.handed[i].message
        assert isinstance(message, EventMessage)
        assert (tab1.handed[i] is eve.handed[i]) == (message.you is None)
        assert isinstance(message, EventMessage) and not hasattr(message, "table")
        assert json.loads(tab1.handed[i].text) == msgspec.to_builtins(message)
    # each frame drawn at most once, as the public table (each seat's own part is read off
    # its view), and a plain move's not at all (worked out from the move: observer.py)
    assert set(renders) <= {None} and len(renders) <= new
    first = tab1.handed[-new].message
    assert isinstance(first, EventMessage) and isinstance(first.event, ActionEvent)
    assert first.changes and "view.to_act" in first.changes  # the move's, on its first event
    assert first.you is not None and "legal" in first.you  # it is no longer seat 0's turn
    spectator = eve.handed[-new].message
    assert isinstance(spectator, EventMessage) and spectator.you is None
    assert spectator.changes == first.changes  # the public changes are everyone's
    await actor.stop()


async def test_a_discard_is_shown_in_full_to_its_seat_only() -> None:
    actor, _ = table()
    seats = [Keeper(s) for s in range(4)] + [Keeper(None)]
    fanout = actor._fanout
    actor.start()
    for sub in seats:
        fanout.subscribers.append(sub)
    body = ActionEvent(seat=2, action="discard 9H")
    actor._hold([body])
    actor._outbox.show()
    texts = {sub.seat: sub.texts()[-1]["event"]["action"] for sub in seats}
    assert texts == {0: "discard", 1: "discard", 2: "discard 9H", 3: "discard", None: "discard"}
    await actor.stop()


async def test_a_rejoin_gets_the_missed_events_else_a_snapshot() -> None:
    actor, sched = table()
    first = Keeper(0)
    actor.start()
    await actor.join(first)
    await until_seat(actor, sched)
    version = actor.version
    again = Keeper(0)
    await actor.join(again, since=version - 1)
    kinds = [type(m.message) for m in again.handed]
    assert kinds == [Joined, EventMessage]
    assert again.texts()[1]["version"] == version
    far = Keeper(0)
    await actor.join(far, since=version - 5)
    assert [type(m.message) for m in far.handed] == [Joined] + [EventMessage] * 5
    assert [m["version"] for m in far.texts()[1:]] == list(range(version - 4, version + 1))
    new = Keeper(0)
    await actor.join(new)
    assert [type(m.message) for m in new.handed] == [Joined, Snapshot]
    snap = new.handed[1].message
    assert isinstance(snap, Snapshot) and snap.table.clock_played == []
    assert snap.you is not None and snap.you["seat"] == 0
    assert snap.you["hand"] == snap.table.view.hand  # type: ignore[union-attr]
    # the windows of the seat already open were told it opened again
    assert any(json.loads(m.text) == {"type": "also_open", "seat": 0} for m in first.handed)
    await actor.stop()


async def test_a_failing_subscriber_is_dropped_and_the_others_still_get_the_event() -> None:
    actor, sched = table()
    good, bad = Keeper(0), Broken(None)
    actor.start()
    await actor.join(good)
    await actor.watch(bad)
    await until_seat(actor, sched)
    assert bad not in actor._fanout.subscribers
    assert any(isinstance(m.message, EventMessage) for m in good.handed)
    await actor.stop()


def test_a_fanout_alone_keeps_a_bounded_history() -> None:
    fanout = Fanout("x", lambda frame, seat, now, played: None,  # type: ignore[arg-type,return-value]
                    history_limit=3, now=lambda: 0.0)
    for i in range(5):
        fanout.history.append(i)  # type: ignore[arg-type]
    assert list(fanout.history) == [2, 3, 4]
    assert fanout.watching() == 0 and not fanout.leave(Keeper(0))


async def test_a_computers_seat_is_worked_out_only_once_someone_reads_as_it() -> None:
    actor, sched = table()
    person = Keeper(0)
    actor.start()
    await actor.join(person)
    await until_seat(actor, sched)
    observer = actor._fanout.observer
    assert observer.seats == {0}  # seats 1-3 are computers': nobody reads as them
    assert all(set(own) <= {0} for _, _, own, _, _ in actor._fanout.history)
    # Reading as a computer's seat (as a test or a tool may): a snapshot, even with a
    # ``since`` the history covers (it holds nothing of that seat's own part) ...
    late = Keeper(1)
    await actor.join(late, since=actor.version - 1)
    assert [type(m.message) for m in late.handed] == [Joined, Snapshot]
    snap = late.handed[1].message
    assert isinstance(snap, Snapshot) and snap.you is not None and snap.you["seat"] == 1
    assert snap.you["hand"] == snap.table.view.hand  # type: ignore[union-attr]
    assert observer.seats == {0, 1}
    # ... and from then on its own part with the events, as a person's seat gets it.
    view = actor.view(0)
    assert view is not None
    await actor.act(0, str(view.legal[0]))
    await until_seat(actor, sched)
    yours = [m.message.you for m in late.handed[2:]
             if isinstance(m.message, EventMessage) and m.message.you is not None]
    assert yours  # (its hand shrank by the card it played)
    folder = Folder()
    for text in late.texts():
        folder.receive(text)
    whole = msgspec.to_builtins(actor.snapshot(1))
    whole.pop("clock_played", None)  # a snapshot's (events mark a clock's moves themselves)
    assert folder.table == whole
    await actor.stop()
