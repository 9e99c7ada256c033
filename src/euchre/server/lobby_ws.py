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
import time
from collections import deque
from typing import Any

import msgspec
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..broker import BrokerUnavailable, SubscriptionOverflow
from ..errors import DomainError
from .encoder import encode_text
from .lobby_state import LOBBY_CHANNEL, broker_of, lobby_of, shown_tables
from .registry import SocketChannel
from .socket_guard import CLOSE_TOO_MANY, Refusal, guard_of
from .wire.lobby import (
    LOBBY_CLIENT_MESSAGES,
    LOBBY_SERVER_MESSAGES,
    LobbyPing,
    LobbyPong,
    LobbyState,
    TableChanged,
    TableGone,
)

log = logging.getLogger(__name__)

LIST_SIZE = 50
"""Open tables the first ``lobby`` message lists at most (newest first)."""

GAMES_SIZE = 20
"""Games to watch the first ``lobby`` message lists at most."""

MAX_MESSAGE = 256
"""Longer client messages close the socket (a client only ever sends ``ping``)."""

PINGS_PER_WINDOW = 10
"""Messages a client may send in :data:`PING_WINDOW` seconds (the web client pings every
25 s); more close the socket, so a flood of pings costs the server next to nothing."""

PING_WINDOW = 10.0
"""Seconds."""

_CLOSE_BEHIND = Refusal(1013, "too far behind: reconnect")
_ping = msgspec.json.Decoder(LobbyPing)


class _Id(msgspec.Struct):
    id: str


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


async def _first(websocket: WebSocket, table_id: str | None) -> str:
    """The state a new socket starts from."""
    app, lobby = websocket.app, lobby_of(websocket)
    if table_id is None:
        tables = (await lobby.open_tables())[:LIST_SIZE]
        games = await lobby.live(GAMES_SIZE)
        return encode_text(LobbyState(tables=await shown_tables(app, tables),
                                      games=await shown_tables(app, games)))
    try:
        table = await lobby.get(table_id)
    except DomainError:
        return encode_text(TableGone(id=table_id, reason="expired"))
    extra = {"table_url": f"/table/{table_id}"} if table.started else {}
    [shown] = await shown_tables(app, [table], **extra)
    return encode_text(TableChanged(table=shown))


async def _read(websocket: WebSocket, send: Any) -> None:
    """Answer pings until the client goes; anything else, or too many pings, closes the
    socket."""
    recent: deque[float] = deque()
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        now = time.monotonic()
        while recent and recent[0] < now - PING_WINDOW:
            recent.popleft()
        recent.append(now)
        if len(recent) > PINGS_PER_WINDOW:
            await websocket.close(code=CLOSE_TOO_MANY, reason="too many messages: reconnect "
                                                             "later")
            return
        data = message.get("text") or message.get("bytes") or b""
        try:
            if len(data) > MAX_MESSAGE:
                raise msgspec.DecodeError("too long")
            _ping.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            await websocket.close(code=1008, reason='the lobby only takes {"type": "ping"}')
            return
        await send(encode_text(LobbyPong()))


async def lobby_socket(websocket: WebSocket) -> None:
    """Serve one lobby socket (``table_id`` in the path: one table's)."""
    await websocket.accept()
    table_id: str | None = websocket.path_params.get("table_id")
    ticket = guard_of(websocket.app.state).admit(
        websocket.client.host if websocket.client else "?")
    if isinstance(ticket, Refusal):
        await websocket.close(code=ticket.code, reason=ticket.reason)
        return
    sending = asyncio.Lock()

    async def send(text: str) -> None:
        async with sending:
            await websocket.send_text(text)

    reader: asyncio.Task[None] | None = None
    try:
        async with broker_of(websocket.app).subscribe(LOBBY_CHANNEL) as changes:
            await send(await _first(websocket, table_id))
            reader = asyncio.create_task(_read(websocket, send))
            forward = asyncio.create_task(_forward(changes, table_id, send))
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


async def _forward(changes: Any, table_id: str | None, send: Any) -> None:
    async for message in changes:
        if table_id is not None and _table_id(message) != table_id:
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
