"""The one place that decides what a reader of a table may see: a seat, a spectator, or an
outside bot (which reads as its seat).

For a whole table (a snapshot) the seat's view holds its own cards only, a spectator's
none (:mod:`.snapshot` builds them for this module). For an event, another seat's discard
or farmer's swap shows as its kind only (:func:`event_for`). Table law 11 ("a player may
look at the last completed trick until the next card is led") holds in both: a snapshot's
history shows earlier plays as ``play``, and a rejoin is replayed its missed events only if
no card they name has left the view since (:func:`replay_keeps_law11`). The first dealer's
draw is public.

:class:`Observer` keeps the public table as last sent and each seat's part of it
(:mod:`.delta`), so an event carries only what changed: the same public changes for every
reader, and to each seat, as ``you``, what changed of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import msgspec

from ... import actions as A
from ...cards import Card
from ...game import GameState
from .delta import Json, event_changes, implied, value_changes, you_changes, you_of
from .events import Frame
from .wire import ActionEvent, EventBody, TableSnapshot, TrickEvent

HIDDEN_KINDS = (A.DISCARD, A.FARMER_SWAP)
"""Actions only their own seat sees in full; the others see their kind."""

Render = Callable[[Frame, "int | None", float, "list[int] | None"], TableSnapshot]
"""``(frame, seat, now, clock_played) -> seat's table`` (None: a spectator's)."""

PlainMove = Callable[[Frame, Frame, float], "tuple[Json, Json | None] | None"]
"""``(last, frame, now) -> (the moved fields of frame's public view, its clock at now)``
where ``frame`` follows ``last`` by a move within the same hand that leaves every public
field of the table but the version, ``to_act``, the clock and the view as it was; else
None (:meth:`Observer.shown` draws and compares the whole table). The moved fields are
those a move within a hand may change beyond what its events say (``history``,
``trick``, ``last_trick``: :func:`~.delta.implied`), as JSON values, always the same keys
in the same order; the others (seat, rules, dealer, score, upcard, and a spectator's empty
hand, discard, swap and moves) stay as the hand was dealt."""

SeatView = Callable[[Frame, int], "Json | None"]
"""``(frame, seat) -> what only the seat sees of the hand`` (None: no hand yet): its
``hand``, ``legal``, ``discard``, ``farmer_gave`` and ``own`` (:func:`~.delta.you_of`),
read right after the frame's public table was drawn."""


def hidden_kind(body: EventBody) -> str | None:
    """The kind other seats see of an action only its own seat sees in full, else None."""
    if isinstance(body, ActionEvent):
        for kind in HIDDEN_KINDS:
            if body.action.startswith(kind):
                return kind
    return None


def event_for(body: EventBody, seat: int | None) -> EventBody | None:
    """``body`` as ``seat`` (None: a spectator) may see it: another seat's hidden action
    by its kind only; None if it may see none of it (no kind is hidden whole today)."""
    kind = hidden_kind(body)
    if kind is not None and isinstance(body, ActionEvent) and body.seat != seat:
        return msgspec.structs.replace(body, action=kind)
    return body


def plays_on_view(game: GameState) -> tuple[int, frozenset[Card]]:
    """(hand number, the played cards a seat may look at): the trick in progress, or the
    last completed trick until the next card is led (table law 11)."""
    current = game.current
    if current is None:
        return 0, frozenset()
    cards = current.trick[1] or (current.tricks[-1][1] if current.tricks else ())
    return len(game.all_hands()), frozenset(cards)


OnView = tuple[int, frozenset[Card]]
"""(hand number, the plays on view): :func:`plays_on_view`."""


def replay_keeps_law11(then: Iterable[OnView], now: GameState) -> bool:
    """Whether replaying events made when the plays on view were ``then`` shows only plays
    still on view at ``now``; False means send a snapshot."""
    hand, on_view = plays_on_view(now)
    return all(not cards or (number == hand and cards <= on_view) for number, cards in then)


@dataclass(slots=True)
class Seen:
    """What one event changed for its readers: the public table's changes (None: none)
    and each seat's own (``you``), for the seats whose part changed; and the plays on view
    right after it (table law 11 on a replay)."""

    changes: Json | None
    """The public changes (:func:`~.delta.changes`)."""
    you: dict[int, Json]
    """By seat: what changed of its own part (:func:`~.delta.you_of`)."""
    on_view: OnView = (0, frozenset())
    """The plays on view right after the event (:func:`plays_on_view`)."""


class Observer:
    """What each reader of one table has been shown: the frame last shown and the time it
    was, the public table as drawn then (after plain moves, drawn again only when a move
    that is not one needs it), the view's moved fields, and each seat's own part."""

    def __init__(self, render: Render, now: Callable[[], float],
                 seat_view: SeatView | None = None, seats: Iterable[int] = range(4),
                 plain: PlainMove | None = None) -> None:
        """Nothing shown yet; tables are drawn by ``render``, at ``now()``; a seat's own
        part is read off ``seat_view`` (default: its whole table, drawn), for ``seats``
        (the others' only once someone reads as them: a computer's seat is read by none);
        ``plain`` tells a plain move's view (:data:`PlainMove`; None: every move's whole
        table is drawn and compared)."""
        self._render = render
        self._seat_view = seat_view
        self._plain = plain
        self._now = now
        self.seats = set(seats)
        """The seats whose own part each event works out (:attr:`Seen.you`)."""
        self.frame: Frame | None = None
        """The frame last shown (None: none yet)."""
        self._at = 0.0  # when it was shown
        # The public table as last shown; None where plain moves came since it was drawn
        # (it is drawn again from self.frame when a move that is not plain needs it).
        self._public: Json | None = None
        # The moved fields (PlainMove) of the public view as last shown (None: no view, so
        # no plain move can follow); and what a table is drawn with that its frame does
        # not fix, as last shown: the clock (the clocks' state) and the settings (extra).
        self._fields: Json | None = None
        self._clock: Json | None = None
        self._extra: Json | None = None
        self._you: dict[int, Json] = {}
        self._on_view: OnView = (0, frozenset())

    def shown(self, frame: Frame, bodies: Sequence[EventBody]) -> Seen:
        """The table is now ``frame``, which the events ``bodies`` made (one move's, in
        order): what changed since the table last shown beyond what those events say
        themselves (their versions, and :func:`~.delta.implied`), to go with the last of
        them, so a reader folding them all gets ``frame``'s table."""
        now = self._now()
        delta = self._plain_move(frame, bodies, now)
        if delta is None:
            before = self._drawn()
            after = msgspec.to_builtins(self._render(frame, None, now, None))
            seen = [msgspec.to_builtins(event_for(body, None)) for body in bodies]
            delta = event_changes(before, after, seen)
            view = after.get("view")
            self._public = after
            # (the whole view: a plain move compares the moved fields, which it holds)
            self._fields, self._clock, self._extra = view, after.get("clock"), after.get("extra")
        else:
            self._public = None
        yours: dict[int, Json] = {}
        for seat in self.seats:
            you = self._you_of(frame, seat, now)
            mine = you_changes(self._you.get(seat), you)
            if mine:
                yours[seat] = mine
            self._you[seat] = you
        self.frame, self._at = frame, now
        self._on_view = plays_on_view(frame.game)
        return Seen(delta or None, yours, self._on_view)

    def _drawn(self) -> Json | None:
        """The public table as last shown (None: nothing shown yet), drawn again from the
        last frame if plain moves came since it was drawn."""
        if self._public is None and self.frame is not None:
            public = msgspec.to_builtins(self._render(self.frame, None, self._at, None))
            # As shown: the clocks' state and the settings may have moved on since.
            public["clock"] = self._clock
            if self._extra is None:
                public.pop("extra", None)
            else:
                public["extra"] = self._extra
            self._public = public
        return self._public

    def _plain_move(self, frame: Frame, bodies: Sequence[EventBody], now: float
                    ) -> Json | None:
        """The changes of a plain move (one action within a hand, and the trick it
        completed if it did, nothing else of the table changed: :data:`PlainMove`), worked
        out without drawing the table: the view's moved fields that differ from those last
        shown with the move's trick folded in (:func:`~.delta.implied`: counted, its
        winner to lead), and the clock if it changed; else None."""
        last, before = self.frame, self._fields
        if (self._plain is None or last is None or before is None
                or not bodies or not isinstance(bodies[0], ActionEvent)):
            return None
        trick = bodies[1] if len(bodies) == 2 else None
        if len(bodies) > 2 or (len(bodies) == 2 and not isinstance(trick, TrickEvent)):
            return None
        moved = self._plain(last, frame, now)
        if moved is None:
            return None
        fields, clock = moved
        if trick is not None:  # what the trick event says itself (counted, its winner leads)
            before = implied({"view": before}, msgspec.to_builtins(trick))["view"]
        delta: Json = {"version": frame.version}
        for key, value in fields.items():
            old = before[key]
            if old != value:
                value_changes(old, value, "view." + key, delta)
        if clock != self._clock:
            value_changes(self._clock, clock, "clock", delta)
        self._fields, self._clock = fields, clock
        return delta

    def _you_of(self, frame: Frame, seat: int, now: float) -> Json:
        """``seat``'s own part of ``frame``'s table (:func:`~.delta.you_of`)."""
        if self._seat_view is None:
            mine = msgspec.to_builtins(self._render(frame, seat, now, None))
            public = self._drawn() if self.frame is frame else \
                msgspec.to_builtins(self._render(frame, None, now, None))
            assert public is not None
            return you_of(seat, mine, public)
        own = self._seat_view(frame, seat)
        if own is None:
            return {"seat": seat}
        return {"seat": seat, **own}

    def rebase(self, frame: Frame) -> None:
        """Start again from ``frame`` (nobody has been shown anything from here)."""
        self.frame = None
        self._public = None
        self._fields = self._clock = self._extra = None
        self._you = {}
        self.shown(frame, ())

    def snapshot(self, seat: int | None, clock_played: list[int] | None
                 ) -> tuple[TableSnapshot, Json | None]:
        """``seat``'s whole table as last shown, and its part of it (None: a spectator);
        drawn at the time the public table was, so the events after it fold onto it."""
        assert self.frame is not None
        table = self._render(self.frame, seat, self._at, clock_played)
        if seat is None:
            return table, None
        if seat not in self.seats:  # read as from now on
            self.seats.add(seat)
            self._you[seat] = self._you_of(self.frame, seat, self._at)
        return table, self._you.get(seat)
