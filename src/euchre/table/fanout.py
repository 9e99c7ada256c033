"""A table's subscribers: who receives its events, the history a rejoining seat catches up
from (``since``), and each message encoded once per audience.

An audience is a seat (every window of that seat sees the same) or the spectators (one
public view for all). An event goes to each audience as one typed
:class:`~.wire.EventMessage` wrapped in an :class:`Outgoing`, whose JSON text is encoded
the first time a subscriber asks for it and then shared by everyone in that audience. The
snapshot a frame's events carry is encoded once per audience too, however many events of
one move carry it.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Protocol

import msgspec
from msgspec import Raw, Struct
from msgspec.structs import replace

from ..game import GameState
from .events import Event, Frame
from .law11 import replay_keeps_law11
from .wire import (
    AlsoOpen,
    EventBody,
    EventMessage,
    Joined,
    ServerMessage,
    Snapshot,
    TableEvent,
    TableSnapshot,
)

log = logging.getLogger(__name__)

_ENCODER = msgspec.json.Encoder()


class Outgoing:
    """A message for one audience: its typed value, and its JSON text encoded at most once
    (the first subscriber that needs the text encodes it for all)."""

    __slots__ = ("_encode", "_message", "_text")

    def __init__(self, message: ServerMessage, encode: Callable[[], bytes] | None = None
                 ) -> None:
        """``message``, encoded by ``encode`` (default: the message itself)."""
        self._message: ServerMessage | None = message
        self._encode = encode
        self._text: str | None = None

    @property
    def message(self) -> ServerMessage:
        """The typed message."""
        assert self._message is not None
        return self._message

    @property
    def text(self) -> str:
        """The message's JSON text."""
        if self._text is None:
            data = self._encode() if self._encode is not None else _ENCODER.encode(self.message)
            self._text = data.decode()
        return self._text


class _EventOutgoing(Outgoing):
    """An event as one audience receives it. A socket needs only its text, so the typed
    :class:`~.wire.EventMessage` is built only when it is asked for; the text is the
    event with the audience's snapshot of the frame, that encoded once per frame."""

    __slots__ = ("_body", "_fanout", "_frame", "_seat", "_table", "_version")

    def __init__(self, fanout: Fanout, version: int, body: EventBody, frame: Frame,
                 seat: int | None, table: TableSnapshot) -> None:
        """``body`` (event ``version``) with ``seat``'s snapshot ``table`` of ``frame``."""
        self._message = None
        self._encode = None
        self._text = None
        self._fanout, self._version, self._body = fanout, version, body
        self._frame, self._seat, self._table = frame, seat, table

    @property
    def message(self) -> ServerMessage:
        """The typed message (built the first time it is asked for)."""
        if self._message is None:
            self._message = EventMessage(version=self._version, event=self._body,  # type: ignore[arg-type]
                                         table=self._table)
        return self._message

    @property
    def text(self) -> str:
        """The message's JSON text."""
        if self._text is None:
            raw = self._fanout._table_raw(self._frame, self._seat, self._table)
            self._text = _ENCODER.encode(
                _EncodedEvent(self._version, self._body, raw)).decode()  # type: ignore[arg-type]
        return self._text


class Subscriber(Protocol):
    """A connection that receives one seat's messages (must not block)."""

    seat: int | None

    def send(self, message: Outgoing) -> None:
        """Queue a message for delivery."""
        ...


class _EncodedEvent(Struct, tag="event", tag_field="type"):
    """An :class:`~.wire.EventMessage` with its table already encoded (shared by the
    events of one frame)."""

    version: int
    event: TableEvent
    table: Raw


Render = Callable[[Frame, "int | None"], TableSnapshot]
"""``(frame, seat) -> the seat's snapshot of that frame`` (None: the spectators')."""


class Fanout:
    """The subscribers of one table, its event history, and delivery to them."""

    def __init__(self, table_id: str, render: Render, history_limit: int) -> None:
        """Empty, for table ``table_id``; ``render`` builds a seat's snapshot of a frame."""
        self.table_id = table_id
        """The table (for log lines)."""
        self.subscribers: list[Subscriber] = []
        """Who receives the table's messages, in the order they joined."""
        self.history: deque[Event] = deque(maxlen=history_limit)
        """The events last shown, for rejoining with ``since``."""
        self._render = render
        self._frame: Frame | None = None  # the frame whose snapshots are cached
        self._tables: dict[int | None, TableSnapshot] = {}
        self._raws: dict[int | None, Raw] = {}
        self._rules: object = None  # the rules whose text is kept
        self._rules_raw = Raw(b"null")
        # The parts of a table that stay the same object for many frames (its seats, the
        # rules' wording, the last hand's summary, the next commitment), each with its
        # text as last encoded: compared by identity, each holds the object it encoded.
        self._parts: tuple[object, ...] = (0, 0, 0, 0)

    # -- snapshots of a frame, once per audience -----------------------------------------

    def table(self, frame: Frame, seat: int | None) -> TableSnapshot:
        """``seat``'s snapshot of ``frame``, built once per frame and audience."""
        if self._frame is not frame:
            self._frame, self._tables, self._raws = frame, {}, {}
        table = self._tables.get(seat)
        if table is None:
            table = self._tables[seat] = self._render(frame, seat)
        return table

    def _table_raw(self, frame: Frame, seat: int | None, table: TableSnapshot) -> Raw:
        """``table`` (``seat``'s snapshot of ``frame``) encoded, once while it is cached."""
        if self._frame is not frame:
            return self._encode_table(table)
        raw = self._raws.get(seat)
        if raw is None:
            raw = self._raws[seat] = self._encode_table(table)
        return raw

    def _encode_table(self, table: TableSnapshot) -> Raw:
        """``table``'s JSON, its rules (in it twice: the table's and the view's) written
        from their text encoded once while they are the same object: the rules are the
        engine's dataclass, which msgspec encodes slower than a struct. So are the parts
        a table keeps from frame to frame (the seats, the rules' wording, the last hand's
        summary, the next commitment): each is encoded again only when it is another
        object (snapshots are never changed once built, so the same object is the same
        text). The copies made for it go only to the encoder; ``table`` itself is not
        changed."""
        rules = table.rules
        if rules is not self._rules:
            self._rules, self._rules_raw = rules, Raw(_ENCODER.encode(rules))
        text = self._rules_raw
        view = table.view
        seats, rules_text, summary, coming = (
            table.seats, table.rules_text, table.summary, table.next_commitment)
        kept = self._parts
        if not (kept[0] is seats and kept[1] is rules_text and kept[2] is summary
                and kept[3] is coming):  # one of them changed (a deal, a seat's presence)
            kept = self._parts = (seats, rules_text, summary, coming,
                                  Raw(_ENCODER.encode(seats)), Raw(_ENCODER.encode(rules_text)),
                                  Raw(_ENCODER.encode(summary)), Raw(_ENCODER.encode(coming)))
        return Raw(_ENCODER.encode(replace(
            table, rules=text, view=None if view is None else replace(view, rules=text),
            seats=kept[4], rules_text=kept[5], summary=kept[6], next_commitment=kept[7])))

    def event_message(self, event: Event, seat: int | None) -> Outgoing:
        """``event`` as ``seat`` (None: a spectator) receives it."""
        frame = event.frame
        assert frame is not None
        return _EventOutgoing(self, event.version, event.body_for(seat), frame, seat,
                              self.table(frame, seat))

    # -- delivery ------------------------------------------------------------------------

    def show(self, events: list[Event]) -> None:
        """Send ``events`` to every subscriber, in order, each once; keep them for rejoins."""
        for event in events:
            self.history.append(event)
            outgoing: dict[int | None, Outgoing] = {}
            for sub in list(self.subscribers):
                out = outgoing.get(sub.seat)
                if out is None:
                    out = outgoing[sub.seat] = self.event_message(event, sub.seat)
                self.send(sub, out)

    def send(self, sub: Subscriber, message: Outgoing | ServerMessage) -> None:
        """Send one subscriber a message; a subscriber that fails is dropped."""
        try:
            sub.send(message if isinstance(message, Outgoing) else Outgoing(message))
        except Exception:
            log.exception("table %s: dropping a subscriber", self.table_id)
            if sub in self.subscribers:
                self.subscribers.remove(sub)

    def join(self, sub: Subscriber, since: int | None, version: int, game: GameState,
             snapshot: Callable[[int | None], TableSnapshot]) -> None:
        """Subscribe ``sub``: the seat's other windows are told it opened again; ``sub``
        gets ``joined``, then the events after ``since`` if they can be replayed (one at
        most: each carries a whole table; and none that would show a trick no longer on
        view, table law 11), else a snapshot of the table now."""
        if sub.seat is not None:
            also = Outgoing(AlsoOpen(seat=sub.seat))
            for other in self.subscribers:
                if other.seat == sub.seat:
                    other.send(also)
        self.subscribers.append(sub)
        sub.send(Outgoing(Joined(table_id=self.table_id, seat=sub.seat, version=version)))
        missing = [e for e in self.history if since is not None and e.version > since]
        complete = since is not None and 0 <= since <= version and (
            since == version or (len(missing) == 1 and missing[0].version == since + 1)
        ) and replay_keeps_law11(missing, game)
        if complete:
            for event in missing:
                self.send(sub, self.event_message(event, sub.seat))
        else:
            sub.send(Outgoing(Snapshot(version=version, table=snapshot(sub.seat))))

    def leave(self, sub: Subscriber) -> bool:
        """Unsubscribe ``sub``; False if it was not subscribed."""
        if sub not in self.subscribers:
            return False
        self.subscribers.remove(sub)
        return True

    def watching(self) -> int:
        """How many subscribers watch without a seat."""
        count = 0
        for sub in self.subscribers:  # a loop: asked for every frame
            if sub.seat is None:
                count += 1
        return count


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
