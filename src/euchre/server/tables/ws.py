"""The table socket ``/ws/tables/{id}``: parse each message, route it to the table actor.

Each connection has an outbox drained by its own writer task, so a slow browser never
holds up a table; a connection whose outbox overflows is closed (it can rejoin with
``since``). After handling a message the connection's own task writes what is queued, if
no write is under way, so the answer to a move leaves without waiting for the writer's
turn (public asyncio only: a lock and an event keep the writes in order). Every message in
and out is a wire model (:mod:`euchre.server.wire.socket`); what the table sends arrives
typed, and its text is encoded once per audience (:class:`~euchre.table.fanout.Outgoing`).
A ``join`` or ``watch`` without ``"protocol": 2`` is told to reload and closed
(:data:`CLOSE_OLD_PROTOCOL`).
The socket asks the table's kind whether hints are allowed; it knows no kind by name.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable

from starlette.datastructures import Address
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ...accounts.bots import BotTokenRefused
from ...accounts.seat_claims import SeatClaims
from ...errors import DomainError
from ...table.actor import NotStored, TableActor, TableStopped
from ...table.fanout import Outgoing
from ...table.owners import TableUnavailable
from ...table.seats import AccountKey
from ..core.encoder import encode_text
from ..core.guards import network_of
from ..core.people import account_key_of
from ..core.site import site_of
from ..ops.metrics import Metrics
from ..wire.socket import (
    OLD_PROTOCOL_TEXT,
    PROTOCOL,
    Act,
    Continue,
    Hint,
    HintAnswer,
    Join,
    Pace,
    Ping,
    Pong,
    Say,
    Seed,
    ServerMessage,
    Watch,
    error_message,
    parse_client_message,
)
from .bot_gate import CLOSE_REVOKED, BotGate
from .hints import HintService, HintUnavailable
from .say import say
from .socket_guard import CLOSE_TABLE_STOPPED, Refusal, SocketGuard, Ticket
from .socket_rate import CLOSE_FLOOD, FLOOD_CODE, FLOOD_REASON, Bucket

log = logging.getLogger(__name__)

FREE_TRIES = 3
"""Refused moves at the seat's own decision that do not count against the rate."""

CLOSE_OLD_PROTOCOL = 4426
"""The close code of a socket whose client speaks an older table protocol (reload)."""

OUTBOX_LIMIT = 2000
"""Messages queued for one connection before it is dropped as too slow."""


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


class ServedTable(Protocol):
    """A table a socket is served at, wherever it runs (:mod:`.door`)."""

    async def serve(self, conn: Connection, websocket: WebSocket) -> None:
        """Serve the socket at the table until either side ends it."""


@runtime_checkable
class TableDoor(Protocol):
    """Where the socket finds its table by id (:class:`~.door.Tables`)."""

    async def open(self, table_id: str, *, move_here: bool = False) -> ServedTable | None:
        """The table, or None if there is no such table."""


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


class Outbox:
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
        self.outbox = Outbox(OUTBOX_LIMIT)
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


class DirectPeer:
    """A client's WebSocket whose messages are written straight to the server's ASGI
    ``send`` (a table socket sends several a move; Starlette's ``WebSocket.send`` would
    check each one's state and type again); reading and closing stay Starlette's."""

    def __init__(self, websocket: WebSocket, send: Send) -> None:
        """``websocket``, written through ``send`` (the one it was made with)."""
        self.websocket = websocket
        """The socket."""
        self._send = send

    @property
    def client(self) -> Address | None:
        """The client's address."""
        return self.websocket.client

    @property
    def application_state(self) -> WebSocketState:
        """Whether it is still open for writing."""
        return self.websocket.application_state

    async def send_text(self, data: str) -> None:
        """Send one encoded message (as Starlette would: a peer gone is a disconnect)."""
        if self.websocket.application_state is not WebSocketState.CONNECTED:
            raise RuntimeError("the socket is not open for sending")
        try:
            await self._send({"type": "websocket.send", "text": data})
        except OSError:
            self.websocket.application_state = WebSocketState.DISCONNECTED
            raise WebSocketDisconnect(code=1006) from None

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close with ``code`` and ``reason``."""
        await self.websocket.close(code=code, reason=reason)


class TableSocketApp:
    """The table socket as an ASGI app, for its route: :func:`table_socket`, its messages
    written straight to ``send`` (:class:`DirectPeer`). An object, not a function, so that
    Starlette's route hands it ``send`` rather than a ``WebSocket`` only."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one connection to a table."""
        websocket = WebSocket(scope, receive, send)
        await table_socket(websocket, DirectPeer(websocket, send))


table_socket_app = TableSocketApp()
"""The table socket's route's app."""


async def table_socket(websocket: WebSocket, peer: Peer | None = None) -> None:
    """Serve one connection to a table (written through ``peer``, else ``websocket``)."""
    await websocket.accept()
    site = site_of(websocket)
    metrics = site[Metrics]
    table_id = websocket.path_params["table_id"]
    conn = Connection(peer if peer is not None else websocket, metrics)
    guard = site[SocketGuard]
    # An IPv6 address counts as its /64, as the sign-up limits count it: a household picks
    # any address in it, so a per-address cap on single addresses would not hold.
    ticket = guard.admit(network_of(websocket.client.host) if websocket.client else "?",
                         conn.refuse)
    if isinstance(ticket, Refusal):
        await websocket.close(code=ticket.code, reason=ticket.reason)
        return
    conn.ticket = ticket
    bad_token: BotTokenRefused | None = None
    try:
        conn.person = await account_key_of(websocket)
        claims = site.get(SeatClaims)
        if conn.person is not None and claims is not None:  # guest seats bound at sign-in
            conn.person = dataclasses.replace(
                conn.person, claimed=await claims.seats_of(conn.person.account_id, table_id))
    except BotTokenRefused as e:  # a bot's bearer token, unknown or revoked: no guest
        bad_token = e
    except Exception as e:  # the accounts database did not answer: a guest's socket
        log.info("table %s: could not read the socket's session: %s", table_id, e)
    conn.rate = Bucket(guard.limits.table_rate, guard.scheduler.now)
    writer = asyncio.create_task(conn.write_all())
    metrics.sockets.inc()
    try:
        if bad_token is not None:
            conn.send(error_message(bad_token.message, code=bad_token.code))
            conn.refuse(Refusal(CLOSE_REVOKED, "bot token refused"))
            return
        door = site[TableDoor]  # type: ignore[type-abstract]  # a protocol: found by what it does
        try:
            # Run here, or at another process: a table nobody is connected to there comes
            # here, else this socket is relayed to it.
            table = await door.open(table_id, move_here=True)
            if table is None:
                conn.send(error_message(f"no table {table_id!r}", code="no_table"))
                return
            await table.serve(conn, websocket)
        except TableUnavailable as e:
            conn.send(error_message(e.message, code="unavailable"))
            conn.refuse(Refusal(1013, "try again shortly"))
            return
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("table %s: socket error", table_id)
        conn.send(error_message("the server could not do that (a server error)",
                                code="internal"))
    finally:
        metrics.sockets.dec()
        ticket.release()
        await conn.finish(None, writer)
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()


async def handle_message(conn: Connection, actor: TableActor, data: str | bytes,
                         hints: HintService, gate: BotGate | None = None) -> None:
    """Parse one client message and act on it at ``actor`` (a direct or relayed socket).
    ``gate`` refuses a seat an outside bot took once its bot token is revoked. A message
    past the socket's rate is a flood: told once, then the socket is closed."""
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
    if gate is not None and not await gate.admits(conn, actor):
        return
    if isinstance(msg, (Join, Watch)) and msg.protocol != PROTOCOL:
        conn.send(error_message(OLD_PROTOCOL_TEXT, code="old_protocol"))
        conn.refuse(Refusal(CLOSE_OLD_PROTOCOL, "reload: the table protocol changed"))
        return
    if isinstance(msg, Ping):
        conn.send(Pong())
    elif isinstance(msg, Watch):
        await _watch(conn, actor, msg.since)
    elif isinstance(msg, Say):
        await say(conn, actor, msg)  # seated people only: say.py refuses the rest
    elif conn.watching:
        conn.send(error_message("spectators cannot act: join a seat with its token to play",
                                code="spectator"))
    elif isinstance(msg, Join):
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
        if gate is not None and not await gate.admits(conn, actor):
            return
        try:
            await actor.join(conn, msg.since)
        except TableStopped as e:
            conn.send(error_message(e.message, code="table_stopped"))
            conn.release(e.message)
        except DomainError as e:  # the seat's person left: a computer plays it now
            conn.seat = None
            conn.send(error_message(e.message, code=e.code))
    elif conn.seat is None:
        conn.send(error_message('join first: {"type": "join", "token": ...}', code="not_joined"))
    elif isinstance(msg, Act):
        try:
            await actor.act(conn.seat, msg.action)
            conn.rate.give_back()  # the game paces accepted moves: they are not counted
        except TableStopped as e:
            conn.send(error_message(e.message, code="table_stopped"))
            conn.release(e.message)
        except DomainError as e:
            if _a_try_at_its_turn(conn, actor):
                conn.rate.give_back()
            conn.send(error_message(e.message, code=e.code))
    elif isinstance(msg, Seed):
        try:
            await actor.contribute(conn.seat, msg.hand_number, msg.seed)
            conn.rate.give_back()
        except TableStopped as e:
            conn.send(error_message(e.message, code="table_stopped"))
            conn.release(e.message)
        except NotStored as e:  # not the seed's fault: it may be sent again
            conn.send(error_message(e.message, code=e.code))
        except DomainError as e:
            conn.send(error_message(e.message, code="bad_seed"))
    elif isinstance(msg, Hint):
        if not actor.kind.hints:
            hints.refused("kind")
            conn.send(error_message(actor.kind.no_hints, code="hint_unavailable"))
            return
        if conn.hint_task is not None and not conn.hint_task.done():
            hints.refused("busy")
            conn.send(error_message("a hint is already being worked out",
                                    code="hint_unavailable"))
            return
        conn.hint_task = asyncio.create_task(_hint(conn, actor, conn.seat, hints))
    elif isinstance(msg, (Continue, Pace)):
        try:
            if isinstance(msg, Continue):
                await actor.go_on(conn.seat, msg.hand_number)
            else:
                await actor.set_speed(conn.seat, msg.speed)
        except TableStopped as e:
            conn.send(error_message(e.message, code="table_stopped"))
            conn.release(e.message)
        except DomainError as e:
            conn.send(error_message(e.message, code=e.code))


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


async def _watch(conn: Connection, actor: TableActor, since: int | None) -> None:
    """Subscribe the connection as a spectator (no seat), if the table may be watched."""
    if conn.seat is not None or conn.watching:
        conn.send(error_message("already joined: open a new connection to watch",
                                code="bad_message"))
        return
    if not actor.watchable:
        conn.send(error_message("this table does not allow spectators: it cannot be watched",
                                code="private"))
        return
    if not _admitted(conn, actor.id, None):
        return
    conn.watching = True
    try:
        await actor.watch(conn, since)
    except TableStopped as e:
        conn.send(error_message(e.message, code="table_stopped"))
        conn.release(e.message)


def hint_person(actor: TableActor, seat: int, address: str) -> str:
    """Who asks for a hint at ``seat``: the account sitting there, else the client address
    (the hint queue's person, :mod:`.hints`)."""
    sitting = actor.config.seats[seat]
    if sitting.account_id is not None:
        return f"account:{sitting.account_id}"
    if sitting.account:
        return f"account:{sitting.account}"
    return f"address:{network_of(address)}"  # an IPv6 /64 is one household


async def _hint(conn: Connection, actor: TableActor, seat: int, hints: HintService) -> None:
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
