"""A table socket's session: its connection, and what each message it sends does at the table.

The socket route (:mod:`.ws`), the door (:mod:`.door`, a socket at a table this process
runs) and the relays (:mod:`.relay`, a socket relayed from another process) all serve a
socket with what is here: a :class:`Connection` (its outbox, drained by its own writer
task, so a slow browser never holds up a table; one whose outbox overflows is closed and
can rejoin with ``since``) and a :class:`Session` (the connection at one table). After
handling a message the connection's own task writes what is queued, if no write is under
way, so the answer to a move leaves without waiting for the writer's turn (public asyncio
only: a lock and an event keep the writes in order). Every message in and out is a wire
model (:mod:`euchre.server.wire.socket`); what the table sends arrives typed, and its text is
encoded once per audience (:class:`~euchre.table.actor.fanout.Outgoing`).

What a message does is one entry of :data:`HANDLERS`, from its type to its handler and who
may send it; a handler's refusal is a :class:`~euchre.errors.DomainError`, and
:func:`refused` is the one place that says how a refusal is told (a new message type is a
handler and an entry). A ``join`` or ``watch`` without ``"protocol": 2`` is told to reload
and closed (:data:`CLOSE_OLD_PROTOCOL`). The session asks the table's kind whether hints
are allowed; it knows no kind by name.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar

from starlette.datastructures import Address
from starlette.websockets import WebSocket, WebSocketState

from ...errors import DomainError
from ...table.actor.actor import NotStored, TableActor, TableStopped
from ...table.actor.fanout import Outgoing
from ...table.actor.seats import AccountKey
from ..core.encoder import encode_text
from ..core.guards import network_of
from ..ops.metrics import Metrics
from ..wire.socket import (
    OLD_PROTOCOL_TEXT,
    PROTOCOL,
    Act,
    ClientMessage,
    Continue,
    Hint,
    HintAnswer,
    Join,
    Pace,
    Ping,
    Pong,
    Rematch,
    Say,
    Seed,
    ServerMessage,
    Watch,
    error_message,
    parse_client_message,
)
from .bot_gate import BotGate
from .hints import HintService, HintUnavailable
from .socket_guard import CLOSE_TABLE_STOPPED, Refusal, Ticket
from .socket_rate import CLOSE_FLOOD, FLOOD_CODE, FLOOD_REASON, Bucket

log = logging.getLogger(__name__)

FREE_TRIES = 3
"""Refused moves at the seat's own decision that do not count against the rate."""

CLOSE_OLD_PROTOCOL = 4426
"""The close code of a socket whose client speaks an older table protocol (reload)."""

OUTBOX_LIMIT = 2000
"""Messages queued for one connection before it is dropped as too slow."""

M = TypeVar("M", bound=ClientMessage)


class Peer(Protocol):
    """What a connection writes to: a client's WebSocket, or a relay's reply channel."""

    @property
    def client(self) -> Address | None:
        """The client's address."""

    @property
    def application_state(self) -> WebSocketState:
        """Whether it is still open for writing."""

    async def send_text(self, data: str) -> None:
        """Send one encoded message."""

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close with ``code`` and ``reason``."""


CLOSE_TOO_BIG = 1009
"""The close code of a socket that sent a message over the server's size limit (uvicorn
closes it: ``ws_max_size``)."""


async def receive_each(conn: Connection, websocket: WebSocket,
                       handle: Callable[[str | bytes], Awaitable[None]]) -> None:
    """Hand each message the client sends to ``handle``, in order, until it goes away or
    the connection is ending (closed, or its outbox overflowed)."""
    while not conn.overflowed and conn.close_with is None:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            if message.get("code") == CLOSE_TOO_BIG and conn.ticket is not None:
                conn.ticket.flooded()  # an oversize message is a flood too (issue 34)
            break
        data = message.get("text")
        if data is None:
            data = message.get("bytes") or b""
        await handle(data)


class SendQueue:
    """A connection's encoded messages waiting to be written, oldest first (None: close
    after them), at most a limit: a deque, as a table queues several a move and an
    ``asyncio.Queue``'s bookkeeping for waiting getters and putters is not needed (the
    writer waits on the connection's own event)."""

    __slots__ = ("_items", "limit")

    def __init__(self, limit: int) -> None:
        """Empty, holding at most ``limit`` messages."""
        self._items: deque[str | None] = deque()
        self.limit = limit
        """How many it holds at most."""

    def empty(self) -> bool:
        """Whether nothing waits."""
        return not self._items

    def put_nowait(self, item: str | None) -> None:
        """Queue ``item``; :class:`asyncio.QueueFull` if the limit is reached."""
        if len(self._items) >= self.limit:
            raise asyncio.QueueFull
        self._items.append(item)

    def get_nowait(self) -> str | None:
        """The oldest item, taken; :class:`asyncio.QueueEmpty` if nothing waits."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()


class Connection:
    """One socket's side of a table: a subscriber with an outbox."""

    def __init__(self, websocket: Peer, metrics: Metrics | None = None) -> None:
        """A connection not yet seated."""
        self.websocket = websocket
        """The socket."""
        self.metrics = metrics
        """Where overflows are counted."""
        self.seat: int | None = None
        """The seat joined, once joined (None for a spectator)."""
        self.watching = False
        """Whether it watches the table without a seat."""
        self.outbox = SendQueue(OUTBOX_LIMIT)
        """Encoded messages waiting to be written (None: close)."""
        self.closing = False
        """Set once the close marker has been taken from the outbox."""
        self.broken = False
        """Set when a write failed (the peer went away)."""
        self.overflowed = False
        """Set when the outbox filled up."""
        self.hint_task: asyncio.Task[None] | None = None
        """The hint being worked out, if any."""
        self.person: AccountKey | None = None
        """The signed-in person whose session cookie opened the socket (None: a guest):
        a join without a token takes their seat."""
        self.ticket: Ticket | None = None
        """Its place in the socket counts (:mod:`.socket_guard`)."""
        self.close_with: Refusal | None = None
        """The close code and reason to end with, once what is queued is written."""
        self.rate = Bucket()
        """The messages it may still send (:mod:`.socket_rate`)."""
        self.tries_at: int | None = None
        """The table version of the seat's last refused move."""
        self.tries = 0
        """Refused moves at that version."""
        self.queued = 0
        """Messages queued for it so far (with :attr:`written`: its record, logged at debug
        when its writer ends, to tell a message never queued from one queued and not sent)."""
        self.written = 0
        """Messages written to the peer so far."""
        self._writing = False  # a write is under way (by the writer, or by the handler)
        # The writer task waiting for something to write, or for the handler's write to
        # end: a future made only when it waits (a plain flag and a future, not an
        # asyncio.Event and Lock: several messages a move each set one).
        self._wake: asyncio.Future[None] | None = None

    def encode(self, message: Outgoing | ServerMessage) -> str:
        """The JSON text of a message (a table's message is encoded once per audience, by
        the table: every socket of that audience sends the same text)."""
        return message.text if isinstance(message, Outgoing) else encode_text(message)

    def send(self, message: Outgoing | ServerMessage) -> None:
        """Queue a message for the writer (never blocks)."""
        if not (self.overflowed or self.broken):
            self.send_text(message.text if isinstance(message, Outgoing)
                           else encode_text(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (relayed from the table's process)."""
        if self.overflowed or self.broken:
            return
        try:
            self.outbox.put_nowait(text)
            self.queued += 1
        except asyncio.QueueFull:
            self.overflowed = True
            if self.metrics is not None:
                self.metrics.outbox_overflows.inc()
            self.send_close()
            return
        wake = self._wake
        if wake is not None:  # _wake_writer(), inline: this runs for every message
            self._wake = None
            if not wake.done():
                wake.set_result(None)

    def _wake_writer(self) -> None:
        """Wake the writer task if it waits (for a message, or for a write to end)."""
        wake = self._wake
        if wake is not None:
            self._wake = None
            if not wake.done():
                wake.set_result(None)

    def refuse(self, refusal: Refusal) -> None:
        """Close after what is queued, with the refusal's code and reason."""
        if self.close_with is None:
            self.close_with = refusal
        self.send_close()

    def release(self, reason: str) -> None:
        """The table stopped here: close, so the client reconnects and finds it again."""
        self.refuse(Refusal(CLOSE_TABLE_STOPPED, reason))

    def send_close(self) -> None:
        """Tell the writer to finish (after what is queued, or at once on overflow)."""
        if self.overflowed:
            while not self.outbox.empty():
                self.outbox.get_nowait()
        with contextlib.suppress(asyncio.QueueFull):
            self.outbox.put_nowait(None)
        self._wake_writer()

    async def finish(self, actor: TableActor | None, writer: asyncio.Task[None]) -> None:
        """Leave the table, let the writer send what is queued and close (at most 5 s), and
        stop a hint in progress: the end of a direct or a relayed socket alike."""
        if actor is not None:
            actor.leave(self)
        self.send_close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=5)
        if not writer.done():
            writer.cancel()
        if self.hint_task is not None:
            self.hint_task.cancel()

    async def write_queued(self) -> None:
        """Write what is queued now, in order, unless another write is under way (it will
        write it)."""
        if self._writing or self.closing or self.outbox.empty():
            return  # (nothing queued: the writer, if it waits, has nothing to do either)
        self._writing = True
        try:
            while not self.outbox.empty() and not self.broken:
                item = self.outbox.get_nowait()
                if item is None:
                    self.closing = True
                    return
                try:
                    await self.websocket.send_text(item)
                    self.written += 1
                except Exception:  # the peer went away: the receive loop sees it next
                    self.broken = True
                    self.closing = True
        finally:
            self._writing = False
            if self.closing or not self.outbox.empty():
                # The writer may wait for this write to end: what is left is its to do.
                # (Nothing left: it is woken by the next message, as if it had written.)
                self._wake_writer()

    async def write_all(self) -> None:
        """Write queued messages until told to stop (None), then close."""
        loop = asyncio.get_running_loop()
        while not self.closing:
            if self._writing or self.outbox.empty():
                # Nothing to write, or another task is writing (what is queued meanwhile
                # is its to write): wait for a message, or for that write to end.
                wake = self._wake = loop.create_future()
                await wake
                continue
            await self.write_queued()
        if self.overflowed:
            self.close_with = Refusal(1013, "too slow: reconnect with since")
        log.debug("socket of seat %s ends: %d messages queued, %d written, %d dropped%s",
                  self.seat, self.queued, self.written, self.queued - self.written,
                  " (peer gone)" if self.broken else "")
        if self.close_with and self.websocket.application_state == WebSocketState.CONNECTED:
            await self.websocket.close(code=self.close_with.code, reason=self.close_with.reason)


@dataclass(frozen=True, slots=True)
class Session:
    """One socket at one table: what its messages are handled with, for its whole life
    (a direct socket at the door, a relayed one at the relay host)."""

    conn: Connection
    """The socket's connection."""
    actor: TableActor
    """The table it is at."""
    hints: HintService
    """Where its hints are worked out."""
    gate: BotGate | None = None
    """Refuses a seat an outside bot took once its bot token is revoked (None: no outside
    bots)."""

    async def handle(self, data: str | bytes) -> None:
        """Parse one client message and do it at the table (:data:`HANDLERS`). A message
        past the socket's rate is a flood: told once, then the socket is closed."""
        conn = self.conn
        if not conn.rate.take():
            conn.send(error_message(conn.rate.rate.refusal(), code=FLOOD_CODE))
            conn.refuse(Refusal(CLOSE_FLOOD, FLOOD_REASON))
            if conn.ticket is not None:  # a relayed socket's edge counts it on the close
                conn.ticket.flooded()
            return
        try:
            msg = parse_client_message(data)
        except DomainError as e:
            conn.send(error_message(e.message, code="bad_message"))
            return
        if self.gate is not None and not await self.gate.admits(conn, self.actor):
            return
        if isinstance(msg, (Join, Watch)) and msg.protocol != PROTOCOL:
            conn.send(error_message(OLD_PROTOCOL_TEXT, code="old_protocol"))
            conn.refuse(Refusal(CLOSE_OLD_PROTOCOL, "reload: the table protocol changed"))
            return
        handler = HANDLERS[type(msg)]
        if handler.who != "anyone" and conn.watching:
            conn.send(error_message("spectators cannot act: join a seat with its token to play",
                                    code="spectator"))
            return
        if handler.who == "seated" and conn.seat is None:
            conn.send(error_message('join first: {"type": "join", "token": ...}',
                                    code="not_joined"))
            return
        try:
            await handler.run(self, msg)
        except DomainError as e:
            refused(conn, e, handler.refusal)

    @property
    def seat(self) -> int:
        """The seat joined (a handler for the ``"seated"`` only asks)."""
        seat = self.conn.seat
        if seat is None:
            raise RuntimeError("the socket has not joined a seat")
        return seat


def refused(conn: Connection, e: DomainError, code: str | None = None) -> None:
    """Tell the socket a message was refused: the one mapping from a refusal to what is
    sent. A stopped table closes the socket (it reconnects and finds the table again); a
    change not stored keeps its own code (not the message's fault: it may be sent again);
    any other refusal is sent with ``code``, else its own."""
    if isinstance(e, TableStopped):
        conn.send(error_message(e.message, code="table_stopped"))
        conn.release(e.message)
    elif isinstance(e, NotStored) or code is None:
        conn.send(error_message(e.message, code=e.code))
    else:
        conn.send(error_message(e.message, code=code))


Who = Literal["anyone", "player", "seated"]
"""Who may send a message: any socket, a socket not watching, or a socket that joined a
seat."""


@dataclass(frozen=True, slots=True)
class Handler:
    """What one client message type does, and who may send it."""

    run: Callable[[Session, Any], Awaitable[None]]
    """Do the message at the table; a refusal raises a :class:`DomainError`."""
    who: Who
    """Who may send it (anyone else is told why not)."""
    refusal: str | None
    """The code a refusal is sent with (None: the refusal's own code)."""


def handler(kind: type[M], run: Callable[[Session, M], Awaitable[None]], *,
            who: Who = "seated", refusal: str | None = None) -> tuple[type[M], Handler]:
    """One entry of :data:`HANDLERS`: ``run`` for messages of type ``kind`` (typed
    together, so a handler cannot be filed under another message's type)."""
    return kind, Handler(run, who, refusal)


async def _ping(s: Session, msg: Ping) -> None:
    s.conn.send(Pong())


async def _watch(s: Session, msg: Watch) -> None:
    """Subscribe the connection as a spectator (no seat), if the table may be watched."""
    conn, actor = s.conn, s.actor
    if conn.seat is not None or conn.watching:
        conn.send(error_message("already joined: open a new connection to watch",
                                code="bad_message"))
        return
    if not actor.watchable:
        conn.send(error_message("this table does not allow spectators: it cannot be watched",
                                code="no_spectators"))
        return
    if not _admitted(conn, actor.id, None):
        return
    conn.watching = True
    await actor.watch(conn, msg.since)


async def _join(s: Session, msg: Join) -> None:
    """Take the seat of the message's token (else of the signed-in person)."""
    conn, actor = s.conn, s.actor
    if conn.seat is not None:
        conn.send(error_message("already joined: open a new connection to rejoin",
                                code="bad_message"))
        return
    key = msg.token if msg.token is not None else conn.person
    seat = actor.seat_of(key) if key is not None else None
    if seat is None:
        conn.send(error_message(
            "that token has no seat at this table" if msg.token is not None else
            "you have no seat at this table" if conn.person is not None else
            "sign in to take your seat from this browser (or open the table where you "
            "sat down)", code="bad_token"))
        return
    if not _admitted(conn, actor.id, seat):
        return
    conn.seat = seat
    if s.gate is not None and not await s.gate.admits(conn, actor):
        return
    try:
        await actor.join(conn, msg.since)
    except DomainError as e:
        if not isinstance(e, TableStopped):  # the seat's person left: a computer plays it
            conn.seat = None
        raise


async def _act(s: Session, msg: Act) -> None:
    """Make a move; the game paces accepted moves (they are not counted against the rate),
    and the first refused ones at the seat's own decision (:func:`_a_try_at_its_turn`)."""
    try:
        await s.actor.act(s.seat, msg.action)
    except DomainError as e:
        if not isinstance(e, TableStopped) and _a_try_at_its_turn(s.conn, s.actor):
            s.conn.rate.give_back()
        raise
    s.conn.rate.give_back()


async def _seed(s: Session, msg: Seed) -> None:
    """Add the seat's part of a hand's shuffle seed (accepted ones are not counted)."""
    await s.actor.contribute(s.seat, msg.hand_number, msg.seed)
    s.conn.rate.give_back()


async def _hint(s: Session, msg: Hint) -> None:
    """Start working out a hint for the seat, if the table's kind allows one and none is
    being worked out; it is sent when ready."""
    conn, actor, hints = s.conn, s.actor, s.hints
    if not actor.kind.hints:
        hints.refused("kind")
        conn.send(error_message(actor.kind.no_hints, code="hint_unavailable"))
        return
    if conn.hint_task is not None and not conn.hint_task.done():
        hints.refused("busy")
        conn.send(error_message("a hint is already being worked out",
                                code="hint_unavailable"))
        return
    conn.hint_task = asyncio.create_task(_work_out_hint(conn, actor, s.seat, hints))


async def _continue(s: Session, msg: Continue) -> None:
    await s.actor.go_on(s.seat, msg.hand_number)


async def _pace(s: Session, msg: Pace) -> None:
    await s.actor.set_speed(s.seat, msg.speed)


SPECTATOR_SAYS = ("spectators see the table's messages but do not send them: only seated "
                  "people do")
"""The refusal of a ``say`` from a spectator's socket (it says more than any action's)."""


async def _say(s: Session, msg: Say) -> None:
    """Say a quick message to the table (the table refuses one in play, past the rate, at
    a silent table, from an outside bot's seat: :mod:`euchre.table.actor.talk`)."""
    if s.conn.watching:
        s.conn.send(error_message(SPECTATOR_SAYS, code="spectator"))
    elif s.conn.seat is None:
        s.conn.send(error_message('join your seat first: {"type": "join", "token": ...}',
                                  code="not_joined"))
    else:
        await s.actor.say(s.conn.seat, msg.message)


async def _rematch(s: Session, msg: Rematch) -> None:
    """Offer, accept or decline a rematch at the game's end (``no_rematch`` if refused)."""
    await s.actor.rematch(s.seat, msg.accept, msg.partners)


_ENTRIES = (  # each entry typed on its own: a handler fits its message's type
    handler(Ping, _ping, who="anyone"),
    handler(Watch, _watch, who="anyone"),
    handler(Join, _join, who="player"),
    handler(Act, _act),
    handler(Seed, _seed, refusal="bad_seed"),
    handler(Hint, _hint),
    handler(Continue, _continue),
    handler(Pace, _pace),
    handler(Rematch, _rematch),
    handler(Say, _say, who="anyone"),  # its own words for a spectator
)

HANDLERS: dict[type[ClientMessage], Handler] = dict(_ENTRIES)
"""What each client message does (every type in
:data:`~euchre.server.wire.socket.CLIENT_MESSAGES` has one entry)."""


def _a_try_at_its_turn(conn: Connection, actor: TableActor) -> bool:
    """Whether a refused move was one of the first :data:`FREE_TRIES` at the seat's own
    decision (a slip, or a bot's wrong answer, paced by the game like an accepted move);
    later ones at the same decision count against the socket's rate."""
    version = actor.shown_version
    if conn.tries_at != version:
        conn.tries_at, conn.tries = version, 0
    conn.tries += 1
    if conn.tries > FREE_TRIES or conn.seat is None:
        return False
    view = actor.view(conn.seat)
    return view is not None and bool(view.legal)


def _admitted(conn: Connection, table_id: str, seat: int | None) -> bool:
    """Whether the socket guard lets this socket join ``seat`` (None: watch); if not, the
    socket is told why and closed."""
    refusal = conn.ticket.join(table_id, seat) if conn.ticket is not None else None
    if refusal is None:
        return True
    conn.send(error_message(refusal.reason, code="too_many"))
    conn.refuse(refusal)
    return False


def hint_person(actor: TableActor, seat: int, address: str) -> str:
    """Who asks for a hint at ``seat``: the account sitting there, else the client address
    (the hint queue's person, :mod:`.hints`)."""
    sitting = actor.config.seats[seat]
    if sitting.account_id is not None:
        return f"account:{sitting.account_id}"
    if sitting.account:
        return f"account:{sitting.account}"
    return f"address:{network_of(address)}"  # an IPv6 /64 is one household


async def _work_out_hint(conn: Connection, actor: TableActor, seat: int,
                         hints: HintService) -> None:
    """Work out a hint for ``seat`` and send it (or why there is none)."""
    client = conn.websocket.client.host if conn.websocket.client else ""
    try:
        version, items = await hints.ask(hint_person(actor, seat, client), (actor.id, seat),
                                         lambda: (actor.shown_version, actor.view(seat)))
    except HintUnavailable as e:
        hints.refused("unavailable")
        conn.send(error_message(str(e), code="hint_unavailable"))
        return
    except Exception:
        log.exception("hint failed")
        hints.refused("error")
        conn.send(error_message("the hint could not be worked out", code="hint_unavailable"))
        return
    conn.send(HintAnswer(version=version, hints=items))
