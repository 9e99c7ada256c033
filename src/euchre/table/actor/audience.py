"""A table's connections and what they mean: who is present, who went away, how many watch.

A connection joins or leaves through the table's queue; :class:`Audience` subscribes it
(:class:`~euchre.table.actor.fanout.Fanout`) and turns the change into events: a seat's presence
(:class:`~.wire.PresenceEvent`), a person back within their grace (:class:`~.wire.BackEvent`),
a person whose last connection closed going away (:class:`~.wire.AwayEvent`, the grace
kept by :class:`~euchre.table.actor.presence.Presence`), and the spectator count, published at
most once a :data:`~euchre.table.actor.presence.SPECTATOR_COUNT_EVERY`
(:class:`~euchre.table.actor.presence.SpectatorCount`).

Each change is a generator (:data:`Said`): it yields its events a group at a time, in the
order they happen, and returns whether the change is worth a save. The table's loop holds
each group as it comes (numbered, with the table right after it), before the audience
goes on to its next change, so each event's frame is the table just after it.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Generator, Sequence

from .errors import REPLACED_TEXT, SeatReplaced
from .events import Frame
from .fanout import Fanout, Subscriber, release_all
from .presence import Connected, Presence, SpectatorCount
from .seats import Seat
from .wire import AwayEvent, BackEvent, EventBody, PresenceEvent, SpectatorsEvent

_CONNECTED: tuple[Connected, ...] = tuple(
    (m & 1 != 0, m & 2 != 0, m & 4 != 0, m & 8 != 0) for m in range(16))
"""Each mask of seats (bit ``i``: seat ``i``) as a :data:`~.presence.Connected`."""

Said = Generator[list[EventBody], None, bool]
"""A change's events, yielded a group at a time for the table to hold, in order; it returns
whether the change is worth a save."""


class Audience:
    """The subscribers of one table as people at it: present, away, back, watching."""

    def __init__(
        self,
        seats: Sequence[Seat],
        fanout: Fanout,
        people: Presence,
        count: SpectatorCount,
        computers: Collection[int],
    ) -> None:
        """The audience of a table with ``seats``, its subscribers in ``fanout``, its
        people's graces in ``people`` and its spectator count's pace in ``count``;
        ``computers`` holds the seats a computer plays now (never away)."""
        self.seats = seats
        """The table's seats (a computer's seat is always connected)."""
        self.fanout = fanout
        """Who receives the table's events."""
        self.people = people
        """Who has been seen, who is away, whose seat a computer took."""
        self.count = count
        """When the spectator count is published."""
        self.joining = 0
        """Joins queued, not yet handled."""
        self.leaving = 0
        """Leaves queued, not yet handled."""
        self.computers = computers
        """The seats a computer plays now (the table's own collection, kept up to date)."""
        self._bots_of: Sequence[Seat] | None = None  # the seats whose mask is kept
        self._bots = 0  # a bit for each computer's seat

    @property
    def subscribed(self) -> int:
        """How many connections receive the table's events, counting those whose join or
        leave waits its turn in the queue."""
        return max(0, len(self.fanout.subscribers) + self.joining - self.leaving)

    def connected(self) -> Connected:
        """Whether each seat counts as connected now (:func:`~.presence.connected`; asked
        for every frame, so worked out as a mask of seats, computers' seats kept)."""
        seats = self.seats
        if seats is not self._bots_of:
            self._bots_of = seats
            self._bots = sum(1 << i for i, s in enumerate(seats) if s.is_bot())
        mask = self._bots
        for sub in self.fanout.subscribers:
            seat = sub.seat
            if seat is not None:
                mask |= 1 << seat
        for seat in self.people.replaced:
            mask |= 1 << seat
        return _CONNECTED[mask]

    def watching(self) -> int:
        """How many connections watch without a seat."""
        return self.fanout.watching()

    def join(self, sub: Subscriber, since: int | None, frame: Frame,
             clock_played: list[int] | None, shown_count: int) -> Said:
        """Subscribe ``sub`` (:meth:`Fanout.join`), and publish what it changes: a seat
        now connected, a person back, the spectator count (``shown_count`` is the one the
        table shows now). Worth a save: a seat's presence, a person seen for the first time
        or back. A seat a computer took is refused (:class:`SeatReplaced`, at the first
        step, before anything changed)."""
        seat = sub.seat
        if seat is not None and seat in self.people.replaced:
            raise SeatReplaced(REPLACED_TEXT)
        was = self.connected()
        self.fanout.join(sub, since, frame, clock_played)
        changed = yield from self._presence(was)
        if seat is None:
            yield from self._spectators(shown_count)
            return changed
        people = self.people
        changed |= seat not in people.seen
        people.seen.add(seat)
        if seat in people.away:
            people.back(seat)
            yield [BackEvent(seat=seat)]
            changed = True
        return changed

    def leave(self, sub: Subscriber, grace: float | None, shown_count: int) -> Said:
        """Unsubscribe ``sub``, and publish what it changes: a seat no longer connected,
        its person away (their grace of ``grace`` seconds starts; None: never away now),
        the spectator count (``shown_count`` is the one the table shows now). Worth a save
        if a seat's presence changed or a grace started."""
        was = self.connected()
        if not self.fanout.leave(sub):
            return False
        changed = yield from self._presence(was)
        seat = sub.seat
        if seat is None:
            yield from self._spectators(shown_count)
        elif not self.connected()[seat]:
            changed |= yield from self.go_away(seat, grace)
        return changed

    def go_away(self, seat: int, seconds: float | None) -> Said:
        """Start ``seat``'s grace of ``seconds`` (its person's last connection is gone) and
        publish it; True if it started (not for a seat that is never away now: no grace,
        a computer's seat; nor one already away)."""
        if seconds is None or seat in self.computers or not self.people.go_away(seat, seconds):
            return False
        yield [AwayEvent(seat=seat, ms_left=math.ceil(seconds * 1000))]
        return True

    def resume(self, grace: float | None) -> Said:
        """At the start: people seen before but not connected now are away, with the grace
        they had left when saved, else all of ``grace`` (:meth:`Presence.resumed`; None:
        nobody is away at this table now)."""
        changed = False
        for seat, seconds in self.people.resumed(grace, self.connected()):
            changed |= yield from self.go_away(seat, seconds)
        return changed

    def count_due(self, shown_count: int) -> Said:
        """The spectator count held back is due: publish it if it differs from
        ``shown_count``, the one the table shows now."""
        self.count.due()
        yield from self._publish_count(shown_count)
        return False

    def release(self, seat: int, reason: str) -> None:
        """Let every connection of ``seat`` go (a computer took it), telling each why."""
        gone = [s for s in self.fanout.subscribers if s.seat == seat]
        for sub in gone:
            self.fanout.subscribers.remove(sub)
        release_all(gone, reason)

    def cancel(self) -> None:
        """Stop every timer (the table stops): graces and a held-back count."""
        self.people.cancel()
        self.count.cancel()

    def release_all(self, reason: str) -> None:
        """Let every connection go (the table stopped), telling each why."""
        self.leaving = 0
        release_all(self.fanout.subscribers, reason)

    def _presence(self, was: Connected) -> Said:
        """Publish each seat whose connection changed since ``was``; True if any did."""
        now = self.connected()
        if now == was:
            return False
        yield [PresenceEvent(seat=i, connected=now[i]) for i in range(4) if now[i] != was[i]]
        return True

    def _spectators(self, shown_count: int) -> Said:
        """A spectator came or went: publish the count at once, unless one went out less
        than :attr:`SpectatorCount.every` ago (then when that time is up)."""
        if self.count.changed():
            yield from self._publish_count(shown_count)
        return False

    def _publish_count(self, shown_count: int) -> Said:
        """Publish the spectator count, if it differs from ``shown_count``."""
        self.count.published()
        watching = self.watching()
        if watching != shown_count:
            yield [SpectatorsEvent(count=watching)]
        return False
