"""A table's audience on a fake clock: a seat's connections make its presence, a person's
last connection closing starts their grace (and only where a grace applies), coming back
ends it, a replaced seat is refused and its windows released, and the spectator count is
published at once, then at most once a second, and only when it differs from the one shown."""

from __future__ import annotations

import pytest

from euchre.game import GameState
from euchre.rules import Rules
from euchre.table.actor.audience import Audience, Said
from euchre.table.actor.commands import AwayDue, Command, CountSpectators
from euchre.table.actor.errors import SeatReplaced
from euchre.table.actor.events import Frame
from euchre.table.actor.fanout import Fanout, Outgoing
from euchre.table.actor.pacing import ManualScheduler
from euchre.table.actor.presence import SPECTATOR_COUNT_EVERY, Presence, SpectatorCount, connected
from euchre.table.actor.seats import BOT, HUMAN, Seat
from euchre.table.actor.wire import (
    AwayEvent,
    BackEvent,
    EventBody,
    PresenceEvent,
    SpectatorsEvent,
)
from table_helpers import StandInTable

SEATS = [Seat(HUMAN, "a"), Seat(BOT, "b", "easy"), Seat(HUMAN, "c"), Seat(BOT, "d", "easy")]
GAME = GameState(Rules(), 0)
FRAME = Frame(version=0, game=GAME, summary=None, commitment=None,
              connected=(False, False, False, False))


class Conn:
    """A connection that keeps what it is sent and why it was let go."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[Outgoing] = []
        self.released: list[str] = []

    def send(self, message: Outgoing) -> None:
        self.sent.append(message)

    def release(self, reason: str) -> None:
        self.released.append(reason)


class Room:
    """An audience with its parts, holding the events it yields as the table's loop does,
    and recording what its timers post to the table's queue."""

    def __init__(self, grace: float | None = 30.0, **presence: object) -> None:
        self.sched = ManualScheduler()
        self.held: list[EventBody] = []
        self.shown = 0  # the spectator count the table shows
        self.due: list[tuple[int, int]] = []
        self.counts_due = 0
        # The tables drawn: a stand-in (what a join is sent is the fanout's to test).
        self.fanout = Fanout("room", lambda frame, seat, now, played: StandInTable(  # type: ignore[arg-type,return-value]
            table_id="room", seat=seat, version=frame.version), 64, self.sched.now)
        self.people = Presence(self.sched, self.post, **presence)  # type: ignore[arg-type]
        self.count = SpectatorCount(self.sched, self.post)
        self.grace = grace
        self.computers = {i for i, seat in enumerate(SEATS) if seat.is_bot()}
        self.audience = Audience(SEATS, self.fanout, self.people, self.count, self.computers)

    def post(self, cmd: Command) -> None:
        if isinstance(cmd, AwayDue):
            self.due.append((cmd.seat, cmd.generation))
        elif isinstance(cmd, CountSpectators):
            self.count_due()

    def said(self, said: Said) -> bool:
        while True:
            try:
                events = next(said)
            except StopIteration as end:
                return bool(end.value)
            self.hold(events)

    def hold(self, events: list[EventBody]) -> None:
        self.held.extend(events)
        for e in events:
            if isinstance(e, SpectatorsEvent):
                self.shown = e.count

    def count_due(self) -> None:
        self.counts_due += 1

    def grace_of(self, seat: int | None) -> float | None:
        return None if seat is None or SEATS[seat].is_bot() else self.grace

    def join(self, conn: Conn) -> bool:
        return self.said(self.audience.join(conn, None, FRAME, None, self.shown))

    def leave(self, conn: Conn) -> bool:
        return self.said(self.audience.leave(conn, self.grace_of(conn.seat), self.shown))

    def resume(self, grace: float | None) -> bool:
        return self.said(self.audience.resume(grace))

    def count_now(self) -> bool:
        return self.said(self.audience.count_due(self.shown))


def test_a_seats_connections_make_its_presence_and_its_first_join_is_worth_a_save() -> None:
    room = Room()
    assert room.audience.connected() == (False, True, False, True)
    one, two = Conn(0), Conn(0)
    assert room.join(one)  # connected, and seen for the first time
    assert room.held == [PresenceEvent(seat=0, connected=True)]
    assert not room.join(two)  # a second window: nothing changes
    assert room.held == [PresenceEvent(seat=0, connected=True)]
    assert room.audience.subscribed == 2 and room.people.seen == {0}
    assert not room.leave(one)  # the other window is still open
    assert room.leave(two)
    assert room.held[-2:] == [PresenceEvent(seat=0, connected=False),
                              AwayEvent(seat=0, ms_left=30_000)]
    assert not room.leave(two)  # already gone: nothing


def test_connected_is_presences_rule_for_every_mix_of_connections_and_take_overs() -> None:
    """The audience's quick ``connected`` (a mask, asked for every frame) gives what
    :func:`~euchre.table.actor.presence.connected` does, for every set of seats with a
    connection (and spectators) and every set of seats a computer took over, on two
    tables' seats."""
    people_seats = [Seat(HUMAN, "p"), Seat(HUMAN, "q"), Seat(HUMAN, "r"), Seat(BOT, "s", "easy")]
    for seats in (SEATS, people_seats):
        room = Room()
        room.audience.seats = seats
        for present in range(32):  # bit 4: a spectator
            room.fanout.subscribers[:] = [Conn(i if i < 4 else None)
                                          for i in range(5) if present >> i & 1]
            for taken in range(16):
                room.people.replaced = {i: "left" for i in range(4) if taken >> i & 1}
                want = connected(seats, {s.seat for s in room.fanout.subscribers},
                                 room.people.replaced)
                assert room.audience.connected() == want


def test_the_grace_runs_on_the_fake_clock_and_coming_back_ends_it() -> None:
    room = Room()
    conn = Conn(2)
    room.join(conn)
    room.leave(conn)
    assert room.people.seconds_left(2) == 30.0
    room.sched.advance(10.0)
    again = Conn(2)
    assert room.join(again)
    assert room.held[-2:] == [PresenceEvent(seat=2, connected=True), BackEvent(seat=2)]
    assert room.people.away == {}
    room.sched.advance(30.0)
    assert room.due == []  # the grace ended when they came back
    room.leave(again)
    room.sched.advance(30.0)
    assert len(room.due) == 1 and room.people.is_due(*room.due[0])


def test_no_grace_where_none_applies() -> None:
    room = Room(grace=None)  # a practice table, or a game over
    conn = Conn(0)
    room.join(conn)
    assert room.leave(conn)  # the presence changed
    assert room.held[-1] == PresenceEvent(seat=0, connected=False)
    assert room.people.away == {} and room.sched.pending == 0


def test_a_replaced_seat_is_refused_and_its_windows_released() -> None:
    room = Room()
    a, b, spectator = Conn(0), Conn(0), Conn(None)
    room.join(a)
    room.join(b)
    room.join(spectator)
    room.people.replace(0, "left")
    room.audience.release(0, "a computer plays your seat")
    assert a.released == b.released == ["a computer plays your seat"]
    assert spectator.released == [] and room.fanout.subscribers == [spectator]
    with pytest.raises(SeatReplaced):
        room.join(Conn(0))
    assert room.audience.connected()[0]  # a computer's seat counts as connected


def test_resumed_people_not_connected_are_away_with_the_grace_they_had_left() -> None:
    room = Room(seen=[0, 2], away_left={0: 12.5})
    room.join(Conn(2))
    room.resume(30.0)
    assert room.held[-1] == AwayEvent(seat=0, ms_left=12_500)
    assert room.people.seconds_left(0) == 12.5 and 2 not in room.people.away


def test_the_spectator_count_is_published_at_once_then_at_most_once_a_second() -> None:
    room = Room()
    first, second, third = Conn(None), Conn(None), Conn(None)
    assert not room.join(first)  # a count is not worth a save
    assert room.held == [SpectatorsEvent(count=1)]
    room.join(second)
    room.join(third)
    assert room.held == [SpectatorsEvent(count=1)]  # held back
    room.sched.advance(SPECTATOR_COUNT_EVERY)
    assert room.counts_due == 1
    room.count_now()  # the table's queue handles it
    assert room.held[-1] == SpectatorsEvent(count=3)
    room.leave(third)
    room.leave(second)
    room.sched.advance(SPECTATOR_COUNT_EVERY)
    room.join(Conn(None))  # back to 2 before the count was due
    room.count_now()
    assert room.held[-1] == SpectatorsEvent(count=2)
    room.leave(first)  # held back again
    room.audience.cancel()  # the table stops
    room.sched.advance(10 * SPECTATOR_COUNT_EVERY)
    assert room.counts_due == 2  # a cancelled audience is never due again


def test_a_count_equal_to_the_one_shown_is_not_published() -> None:
    room = Room()
    room.shown = 1  # a frame made since already shows one spectator
    room.join(Conn(None))
    assert room.held == []


def test_joins_and_leaves_queued_count_as_subscribed_and_release_all_lets_everyone_go() -> None:
    room = Room()
    conns = [Conn(0), Conn(None)]
    for c in conns:
        room.join(c)
    room.audience.joining = 2
    room.audience.leaving = 1
    assert room.audience.subscribed == 3
    room.audience.release_all("stopped")
    assert [c.released for c in conns] == [["stopped"], ["stopped"]]
    assert room.audience.subscribed == 2 and room.fanout.subscribers == []
