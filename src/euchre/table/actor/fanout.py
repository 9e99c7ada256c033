"""A table's subscribers: who receives its events, the history a rejoining reader catches
up from (``since``), and delivery.

An event goes to each reader as ``{"type": "event", "version": V, "event": E}`` as that
reader may see it (:func:`~.observer.event_for`), encoded once for every reader that
gets the same text, the last event of a move with what the
move changed in the public table beyond what its events say (``changes``), and the first,
to a seat only, what changed of its own (``you``): :class:`~.observer.Observer` works them
out once a move. A joining reader gets
a whole table (``snapshot``), or, rejoining with ``since``, exactly the events it missed
while the history still holds them and replaying them keeps table law 11.

The history keeps each event as the texts sent (:data:`Past`): numbers and strings only, so
the cycle collector never walks a table's last fifty events (with objects in it, they were
a third of what it walks of a busy table: docs/scaling.md, "Real pace").
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from typing import Protocol

import msgspec

from ...cards import cards_of, mask_of
from .events import Event, Frame
from .observer import (
    Observer,
    PlainMove,
    Render,
    SeatView,
    Seen,
    event_for,
    hidden_kind,
    replay_keeps_law11,
)
from .wire import AlsoOpen, EventBody, EventMessage, Joined, ServerMessage, Snapshot

log = logging.getLogger(__name__)

_ENCODER = msgspec.json.Encoder()
_EVENT = msgspec.json.Decoder(EventMessage)


class Outgoing:
    """A message for one audience: its typed value, and its JSON text encoded at most once
    (the first subscriber that needs the text encodes it for all of that audience)."""

    __slots__ = ("_message", "_text")

    def __init__(self, message: ServerMessage | None, text: str | None = None) -> None:
        """``message``, not yet encoded; or an event's ``text`` as sent before (a replay)."""
        self._message = message
        self._text = text

    @property
    def message(self) -> ServerMessage:
        """The typed message (a replayed event's read back from its text)."""
        if self._message is None:
            self._message = _EVENT.decode(self.text)
        return self._message

    @property
    def text(self) -> str:
        """The message's JSON text."""
        if self._text is None:
            self._text = _ENCODER.encode(self._message).decode()
        return self._text


Past = tuple[int, str, dict[int, str], int, int]
"""An event kept for rejoining: its version, its text as a spectator got it, by seat the
text of each seat that got its own (see :meth:`Fanout.show`), and the hand number and the
plays on view right after it, those as a mask of cards (:func:`~.observer.plays_on_view`)."""

_NONE_OWN: dict[int, str] = {}  # shared by the events no seat got its own text of (never changed)


class Subscriber(Protocol):
    """A connection that receives one seat's messages (must not block)."""

    seat: int | None

    def send(self, message: Outgoing) -> None:
        """Queue a message for delivery."""
        ...


class Fanout:
    """The subscribers of one table, its event history, and delivery to them."""

    def __init__(self, table_id: str, render: Render, history_limit: int,
                 now: Callable[[], float], seat_view: SeatView | None = None,
                 seats: Iterable[int] = range(4), plain: PlainMove | None = None) -> None:
        """Empty, for table ``table_id``; ``render`` draws a reader's table of a frame
        (``seat_view`` a seat's view of its hand, for ``seats``: the seats someone may
        read as; ``plain`` a plain move's view: :class:`~.observer.Observer`)."""
        self.table_id = table_id
        """The table (for log lines)."""
        self.subscribers: list[Subscriber] = []
        """Who receives the table's messages, in the order they joined."""
        self.history: deque[Past] = deque(maxlen=history_limit)
        """The events last shown, as sent (:data:`Past`), for rejoining with ``since``."""
        self.observer = Observer(render, now, seat_view, seats, plain)
        """What the readers have been shown."""

    @staticmethod
    def message(version: int, body: EventBody, seen: Seen, seat: int | None) -> EventMessage:
        """Event ``version`` as ``seat`` (None: a spectator) receives it."""
        you = seen.you.get(seat) if seat is not None else None
        return EventMessage(version=version, event=event_for(body, seat),  # type: ignore[arg-type]
                            changes=seen.changes, you=you)

    # -- delivery ------------------------------------------------------------------------

    def show(self, events: list[Event]) -> None:
        """Send ``events`` to every subscriber, in order, each once; keep them for rejoins.
        The last event of each move (the events sharing a frame) carries what the move
        changed beyond what its events say, the first what changed of each seat's own."""
        move: Seen | None = None  # what the move of the events sharing a frame changed
        for i, event in enumerate(events):
            frame = event.frame
            first = i == 0 or events[i - 1].frame is not frame
            last = i + 1 == len(events) or events[i + 1].frame is not frame
            if frame is None:
                seen = Seen(None, {})
            else:
                if first:
                    move = self.observer.shown(
                        frame, [e.body for e in events[i:] if e.frame is frame])
                assert move is not None
                # A seat's own part with the move's first event (its hand and moves as they
                # are now: never one it may no longer make), the public changes with its last.
                seen = Seen(move.changes if last else None, move.you if first else {},
                            move.on_view)
            version, body = event.version, event.body
            # One message per audience: a seat gets its own when ``you`` has its part, or
            # when the event is its own hidden action; the rest get a spectator's.
            public = Outgoing(self.message(version, body, seen, None))
            own = {seat: Outgoing(self.message(version, body, seen, seat)) for seat in seen.you}
            mover = getattr(body, "seat", None)
            if (mover is not None and mover not in own and hidden_kind(body) is not None
                    and (mover in self.observer.seats
                         or any(sub.seat == mover for sub in self.subscribers))):
                own[mover] = Outgoing(self.message(version, body, seen, mover))
            for sub in list(self.subscribers):
                seat = sub.seat
                self.send(sub, own.get(seat, public) if own and seat is not None else public)
            hand, cards = seen.on_view
            self.history.append((version, public.text,
                                 {s: o.text for s, o in own.items()} if own else _NONE_OWN,
                                 hand, mask_of(cards)))

    def send(self, sub: Subscriber, message: Outgoing | ServerMessage) -> None:
        """Send one subscriber a message; a subscriber that fails is dropped."""
        try:
            sub.send(message if isinstance(message, Outgoing) else Outgoing(message))
        except Exception:
            log.exception("table %s: dropping a subscriber", self.table_id)
            if sub in self.subscribers:
                self.subscribers.remove(sub)

    def join(self, sub: Subscriber, since: int | None, frame: Frame,
             clock_played: list[int] | None) -> None:
        """Subscribe ``sub`` to the table shown as ``frame``: the seat's other windows are
        told it opened again; ``sub`` gets ``joined``, then the events after ``since`` if
        the history holds them all and replaying them keeps table law 11, else a
        snapshot (with ``clock_played``: which of this hand's moves the clock played)."""
        if sub.seat is not None:
            also = Outgoing(AlsoOpen(seat=sub.seat))
            for other in self.subscribers:
                if other.seat == sub.seat:
                    other.send(also)
        observer = self.observer
        if observer.frame is not frame and not self.subscribers:
            # Nobody holds a table drawn from the last frame shown (a table just started
            # or loaded): start from this one; the events kept were relative to another.
            observer.rebase(frame)
            self.history.clear()
        self.subscribers.append(sub)
        version = frame.version
        sub.send(Outgoing(Joined(table_id=self.table_id, seat=sub.seat, version=version)))
        missing = self._missing(since, version)
        if sub.seat is not None and sub.seat not in observer.seats:
            missing = None  # the events kept hold nothing of this seat's own part
        if missing is not None and replay_keeps_law11(
                ((p[3], frozenset(cards_of(p[4]))) for p in missing), frame.game):
            for _, public, own, _, _ in missing:
                text = own.get(sub.seat, public) if sub.seat is not None else public
                self.send(sub, Outgoing(None, text))
        else:
            table, you = observer.snapshot(sub.seat, clock_played)
            sub.send(Outgoing(Snapshot(version=version, table=table, you=you)))

    def _missing(self, since: int | None, version: int) -> list[Past] | None:
        """The events after ``since`` up to ``version``, if the history holds every one."""
        if since is None or not 0 <= since <= version:
            return None
        missing = [past for past in self.history if past[0] > since]
        if len(missing) != version - since or (missing and missing[0][0] != since + 1):
            return None
        return missing

    def leave(self, sub: Subscriber) -> bool:
        """Unsubscribe ``sub``; False if it was not subscribed."""
        if sub not in self.subscribers:
            return False
        self.subscribers.remove(sub)
        return True

    def watching(self) -> int:
        """How many subscribers watch without a seat."""
        return sum(1 for sub in self.subscribers if sub.seat is None)


def release_all(subscribers: list[Subscriber], reason: str) -> None:
    """Drop every subscriber, telling each that has a ``release(reason)`` method (a
    socket closes itself, so its client reconnects and finds the table wherever it is)."""
    subs = list(subscribers)
    subscribers.clear()
    for sub in subs:
        release = getattr(sub, "release", None)
        if release is not None:
            try:
                release(reason)
            except Exception:
                log.exception("releasing a subscriber failed")
