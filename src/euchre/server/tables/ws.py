"""The table socket ``/ws/tables/{id}``: a socket admitted, its person found, and its table
opened through the door (:mod:`.door`), which serves it there (this process's table) or
relays it (another's); what its messages do is the session's (:mod:`.session`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging

from starlette.datastructures import Address
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ...accounts.bots import BotTokenRefused
from ...table.hosting.owners import TableUnavailable
from ..core.guards import network_of
from ..core.people import account_key_of
from ..wire.socket import error_message
from .bot_gate import CLOSE_REVOKED
from .door import tables_site
from .session import Connection, Peer
from .socket_guard import Refusal
from .socket_rate import Bucket

log = logging.getLogger(__name__)


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
    site = tables_site(websocket)
    metrics = site.metrics
    table_id = websocket.path_params["table_id"]
    conn = Connection(peer if peer is not None else websocket, metrics)
    guard = site.socket_guard
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
        claims = site.claims
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
        door = site.tables
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
