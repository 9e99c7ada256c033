"""The lobby sockets: ``/ws/lobby`` (every open table and game to watch) and
``/ws/online/{table_id}`` (one table's waiting page), pushed live, no polling.

Each socket subscribes to the broker's lobby channel first and only then reads the state
it sends first, so no change falls between the two (a change may come twice: a client
applies a table's newest state, which is idempotent). Every process publishes the changes
its requests make to that channel (memory, or Redis for a site of several processes), so
a lobby on one process hears of a seat taken on another. Lobby sockets count against the
per-address cap of the socket guard, like table sockets; they need not join anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ...broker import BrokerUnavailable, SubscriptionOverflow
from ...errors import DomainError
from ..core.encoder import encode_text
from ..core.guards import network_of
from ..core.registry import SocketChannel
from ..tables.socket_guard import Refusal, Ticket
from ..tables.socket_rate import CLOSE_FLOOD, FLOOD_CODE, FLOOD_REASON, Bucket
from ..wire.lobby import (
    LOBBY_CLIENT_MESSAGES,
    LOBBY_SERVER_MESSAGES,
    LobbyError,
    LobbyPing,
    LobbyPong,
    LobbyState,
    TableChanged,
    TableGone,
)
from .lobby_state import LOBBY_CHANNEL, lobby_of, online_of, online_site, shown_tables

log = logging.getLogger(__name__)

LIST_SIZE = 50
"""Open tables the first ``lobby`` message lists at most (newest first)."""

GAMES_SIZE = 20
"""Games to watch the first ``lobby`` message lists at most."""

MAX_MESSAGE = 256
"""Longer client messages close the socket (a client only ever sends ``ping``)."""

_CLOSE_BEHIND = Refusal(1013, "too far behind: reconnect")
_ping = msgspec.json.Decoder(LobbyPing)


class _Id(msgspec.Struct):
    id: str
    private: bool = False


class _Change(msgspec.Struct):
    type: str
    id: str | None = None
    table: _Id | None = None


_change = msgspec.json.Decoder(_Change)


def _table_id(message: bytes) -> str | None:
    """The table a published change is about."""
    try:
        change = _change.decode(message)
    except msgspec.DecodeError:
        return None
    return change.table.id if change.table is not None else change.id


class _Listed:
    """What the whole lobby's socket may pass on: changes to listed tables only. A private
    table's change never goes out, nor its going (its id is its link), and a table's going
    is told only to a socket that was shown the table."""

    def __init__(self, shown: set[str]) -> None:
        self.shown = shown
        """The ids of the tables this socket was shown."""

    def passes(self, message: bytes) -> bool:
        """Whether ``message`` goes to this socket (and note what it shows)."""
        try:
            change = _change.decode(message)
        except msgspec.DecodeError:
            return False
        if change.type == "start_refused":
            return False  # for the people at that table only, not the whole lobby
        if change.table is not None:
            if change.table.private:
                return False
            self.shown.add(change.table.id)
            return True
        if change.type == "gone":
            if change.id not in self.shown:
                return False
            self.shown.discard(change.id)
        return True


async def _first(websocket: WebSocket, table_id: str | None,
                 shown: set[str] | None = None) -> list[str]:
    """The state a new socket starts from (one table's: and why it did not start, if a
    stake stopped it); the whole lobby's notes the ids it shows in ``shown``."""
    site = online_site(websocket)
    lobby = lobby_of(site)
    if table_id is None:
        tables = (await lobby.open_tables())[:LIST_SIZE]
        games = await lobby.live(GAMES_SIZE)
        if shown is not None:
            shown.update(t.id for t in [*tables, *games])
        return [encode_text(LobbyState(tables=await shown_tables(site, tables),
                                       games=await shown_tables(site, games)))]
    try:
        table = await lobby.get(table_id)
    except DomainError:
        return [encode_text(TableGone(id=table_id, reason="expired"))]
    extra = {"table_url": f"/table/{table_id}"} if table.started else {}
    [one] = await shown_tables(site, [table], **extra)
    first = [encode_text(TableChanged(table=one))]
    refused = online_of(site).refusals.get(table_id)
    if refused is not None and not table.started and refused[0] == repr(table.people):
        first.append(refused[1])  # it still waits for the same people: say why
    return first


async def _read(websocket: WebSocket, send: Any, rate: Bucket, ticket: Ticket) -> None:
    """Answer pings until the client goes; anything else closes the socket, and so do
    messages past the socket's rate (told once why), so a flood of pings costs the server
    next to nothing."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not rate.take():
            ticket.flooded()
            await send(encode_text(LobbyError(code=FLOOD_CODE, message=rate.rate.refusal())))
            await websocket.close(code=CLOSE_FLOOD, reason=FLOOD_REASON)
            return
        data = message.get("text") or message.get("bytes") or b""
        try:
            if len(data) > MAX_MESSAGE:
                raise msgspec.DecodeError("too long")
            _ping.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            # Counted as a flood close: a client that reconnects to send junk again and
            # again (each connect reads the lobby) is refused for a while, as a flooder is.
            ticket.flooded()
            await websocket.close(code=1008, reason='the lobby only takes {"type": "ping"}')
            return
        await send(encode_text(LobbyPong()))


async def lobby_socket(websocket: WebSocket) -> None:
    """Serve one lobby socket (``table_id`` in the path: one table's)."""
    await websocket.accept()
    table_id: str | None = websocket.path_params.get("table_id")
    site = online_site(websocket)
    guard = site.socket_guard
    ticket = guard.admit(network_of(websocket.client.host) if websocket.client else "?")
    if isinstance(ticket, Refusal):
        await websocket.close(code=ticket.code, reason=ticket.reason)
        return
    sending = asyncio.Lock()

    async def send(text: str) -> None:
        async with sending:
            await websocket.send_text(text)

    reader: asyncio.Task[None] | None = None
    try:
        async with site.broker.subscribe(LOBBY_CHANNEL) as changes:
            listed = _Listed(set()) if table_id is None else None
            for text in await _first(websocket, table_id,
                                     listed.shown if listed is not None else None):
                await send(text)
            rate = Bucket(guard.limits.lobby_rate, guard.scheduler.now)
            reader = asyncio.create_task(_read(websocket, send, rate, ticket))
            forward = asyncio.create_task(_forward(changes, table_id, send, listed))
            done, _ = await asyncio.wait({reader, forward}, return_when=asyncio.FIRST_COMPLETED)
            forward.cancel()
            if forward in done and not forward.cancelled() and forward.exception():
                raise forward.exception()  # type: ignore[misc]
    except (WebSocketDisconnect, RuntimeError):
        pass
    except SubscriptionOverflow:
        with contextlib.suppress(Exception):
            await websocket.close(code=_CLOSE_BEHIND.code, reason=_CLOSE_BEHIND.reason)
    except BrokerUnavailable as e:
        log.warning("lobby socket: the broker is unavailable: %s", e)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011, reason="the lobby is unavailable: reconnect")
    finally:
        ticket.release()
        if reader is not None:
            reader.cancel()
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()


async def _forward(changes: Any, table_id: str | None, send: Any,
                   listed: _Listed | None) -> None:
    async for message in changes:
        if table_id is not None and _table_id(message) != table_id:
            continue
        if listed is not None and not listed.passes(message):
            continue
        await send(message.decode())


def lobby_sockets() -> list[SocketChannel]:
    """The lobby's two sockets, for the online extension."""
    return [
        SocketChannel("lobby", "/ws/lobby", lobby_socket,
                      "The lobby, pushed live: first ``lobby`` (open tables and games to "
                      "watch), then ``table`` for each table opened or changed and ``gone`` "
                      "for each that went.",
                      LOBBY_CLIENT_MESSAGES, LOBBY_SERVER_MESSAGES),
        SocketChannel("onlineTable", "/ws/online/{table_id}", lobby_socket,
                      "One online table's waiting page, pushed live: first ``table`` (or "
                      "``gone``), then its changes, the start included.",
                      LOBBY_CLIENT_MESSAGES, LOBBY_SERVER_MESSAGES,
                      parameters={"table_id": "The table id."}),
    ]
