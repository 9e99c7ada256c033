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
from .wire import ActionEvent, EventBody, HandViewJson, TableSnapshot, TrickEvent

HIDDEN_KINDS = (A.DISCARD, A.FARMER_SWAP)
"""Actions only their own seat sees in full; the others see their kind."""

Render = Callable[[Frame, "int | None", float, "list[int] | None"], TableSnapshot]
"""``(frame, seat, now, clock_played) -> seat's table`` (None: a spectator's)."""

PlainMove = Callable[[Frame, Frame], "HandViewJson | None"]
"""``(last, frame) -> the public view of frame's hand`` where ``frame`` follows ``last``
by a move within the same hand that leaves every public field of the table but the
version, ``to_act`` and the view as it was; else None (:meth:`Observer.shown` draws and
compares the whole table)."""

_MOVED = ("phase", "to_act", "upcard_taken", "trump", "maker", "alone", "lone_defender",
          "sitting_out", "leader", "tricks_played", "tricks_won", "points", "thrown_in",
          "reneged")
"""The public view's fields a move within a hand may change, beyond those its event sets
itself (``history``, ``trick``, ``last_trick``: :func:`~.delta.implied`); the others (seat,
rules, dealer, score, upcard, and a spectator's empty hand, discard, swap and moves) stay
as the hand was dealt."""
_PLAIN = frozenset({int, str, bool, float, type(None)})

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
    """What each reader of one table has been shown: the public table as last sent, each
    seat's part of it, and the frame and time they were drawn at."""

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
        self._at = 0.0  # when it was drawn
        self._public: Json | None = None
        # The public view the shown one was converted from (its values are shared from
        # one view to the next while they stay the same: Snapshots).
        self._raw: HandViewJson | None = None
        self._you: dict[int, Json] = {}
        self._on_view: OnView = (0, frozenset())

    def shown(self, frame: Frame, bodies: Sequence[EventBody]) -> Seen:
        """The table is now ``frame``, which the events ``bodies`` made (one move's, in
        order): what changed since the table last shown beyond what those events say
        themselves (their versions, and :func:`~.delta.implied`), to go with the last of
        them, so a reader folding them all gets ``frame``'s table."""
        seen = [msgspec.to_builtins(event_for(body, None)) for body in bodies]
        now = self._now()
        moved = self._plain_move(frame, bodies, seen)
        if moved is not None:
            after, delta = moved
        else:
            table = self._render(frame, None, now, None)
            self._raw = table.view
            after = msgspec.to_builtins(table)
            delta = event_changes(self._public, after, seen)
        yours: dict[int, Json] = {}
        for seat in self.seats:
            you = self._you_of(frame, seat, now, after)
            mine = you_changes(self._you.get(seat), you)
            if mine:
                yours[seat] = mine
            self._you[seat] = you
        self.frame, self._at, self._public = frame, now, after
        self._on_view = plays_on_view(frame.game)
        return Seen(delta or None, yours, self._on_view)

    def _plain_move(self, frame: Frame, bodies: Sequence[EventBody], seen: list[Json]
                    ) -> tuple[Json, Json] | None:
        """The public table after a plain move (one action within a hand, and the trick
        it completed if it did, nothing else of the table changed: :data:`PlainMove`) and
        its changes, worked out from the move without drawing the whole table: its events
        folded in (:func:`~.delta.implied`: the action's line in the history, its card in
        the trick; a trick as the last trick, counted, its winner to lead), and the
        fields a move may change (:data:`_MOVED`) compared with the hand's public view
        (for one action, only those that are not the value last shown); else None."""
        last, before, raw = self.frame, self._public, self._raw
        if (self._plain is None or last is None or before is None or raw is None
                or not bodies or not isinstance(bodies[0], ActionEvent)
                or before.get("clock") is not None or before.get("view") is None):
            return None
        alone = len(bodies) == 1  # one action: implied() sets none of the fields compared
        if not (alone or (len(bodies) == 2 and isinstance(bodies[1], TrickEvent))):
            return None
        view = self._plain(last, frame)
        if view is None:
            return None
        self._raw = view
        start = before
        for event in seen:
            start = implied(start, event)
        shown: Json = start["view"]
        delta: Json = {"version": frame.version}
        mine = dict(shown)
        for key in _MOVED:
            value = getattr(view, key)
            if alone and value is getattr(raw, key):  # (shared while unchanged: as shown)
                continue
            old = shown[key]
            if type(value) not in _PLAIN:
                value = msgspec.to_builtins(value)
            if old != value:
                mine[key] = value
                value_changes(old, value, "view." + key, delta)
        return {**start, "version": frame.version, "to_act": view.to_act, "view": mine}, delta

    def _you_of(self, frame: Frame, seat: int, now: float, public: Json) -> Json:
        """``seat``'s own part of ``frame``'s table (:func:`~.delta.you_of`)."""
        if self._seat_view is None:
            mine = msgspec.to_builtins(self._render(frame, seat, now, None))
            return you_of(seat, mine, public)
        own = self._seat_view(frame, seat)
        if own is None or public.get("view") is None:
            return {"seat": seat}
        return {"seat": seat, **own}

    def rebase(self, frame: Frame) -> None:
        """Start again from ``frame`` (nobody has been shown anything from here)."""
        self.frame = None
        self._public = None
        self._raw = None
        self._you = {}
        self.shown(frame, ())

    def snapshot(self, seat: int | None, clock_played: list[int] | None
                 ) -> tuple[TableSnapshot, Json | None]:
        """``seat``'s whole table as last shown, and its part of it (None: a spectator);
        drawn at the time the public table was, so the events after it fold onto it."""
        assert self.frame is not None and self._public is not None
        table = self._render(self.frame, seat, self._at, clock_played)
        if seat is None:
            return table, None
        if seat not in self.seats:  # read as from now on
            self.seats.add(seat)
            self._you[seat] = self._you_of(self.frame, seat, self._at, self._public)
        return table, self._you.get(seat)
