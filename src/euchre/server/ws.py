"""The table socket ``/ws/tables/{id}``: parse each message, route it to the table actor.

Each connection has an outbox drained by its own writer task, so a slow browser never
holds up a table; a connection whose outbox overflows is closed (it can rejoin with
``since``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Coroutine
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..table.actor import TableActor, TableError, TableStopped
from ..table.coin import COIN
from ..table.manager import TableManager
from ..table.online import ONLINE
from .hints import HintUnavailable, hints_for
from .messages import (
    Act,
    Hint,
    Join,
    MessageError,
    Ping,
    Seed,
    error_message,
    parse_client_message,
)
from .socket_guard import CLOSE_TABLE_STOPPED, Refusal, Ticket, guard_of

log = logging.getLogger(__name__)

OUTBOX_LIMIT = 2000
"""Messages queued for one connection before it is dropped as too slow."""

NO_HINT_KINDS = frozenset({COIN, ONLINE})
"""Table kinds without hints: online tables (other people play there) and coin tables
(the coin game is the player's own play). Hints are for practice."""

NO_HINTS_MESSAGE = "Hints are off at coin and online tables: they are for practice."
"""The refusal of a hint at those tables."""


class _Unfinished:
    """A socket send that had to wait part-way through, to be finished by the writer."""

    def __init__(self, coro: Coroutine[Any, Any, None], waiting_on: Any) -> None:
        self.coro = coro
        self.waiting_on = waiting_on

    async def finish(self) -> None:
        """Drive the send to its end, waiting on what it waits on."""
        waiting_on = self.waiting_on
        try:
            while True:
                if waiting_on is None:
                    await asyncio.sleep(0)
                else:  # wait without raising: the coroutine sees the outcome when resumed
                    await asyncio.wait([waiting_on])
                try:
                    waiting_on = self.coro.send(None)
                except StopIteration:
                    return
        except asyncio.CancelledError:
            self.coro.close()
            raise


class Connection:
    """One socket's side of a table: a subscriber with an outbox."""

    def __init__(self, websocket: WebSocket) -> None:
        """A connection not yet seated."""
        self.websocket = websocket
        """The socket."""
        self.seat: int | None = None
        """The seat joined, once joined."""
        self.outbox: asyncio.Queue[str | _Unfinished | None] = asyncio.Queue(OUTBOX_LIMIT)
        """Encoded messages waiting to be written."""
        self.writing = False
        """Whether the writer task is in the middle of a write."""
        self.broken = False
        """Set when a write failed (the peer went away)."""
        self.overflowed = False
        """Set when the outbox filled up."""
        self.hint_task: asyncio.Task[None] | None = None
        """The hint being worked out, if any."""
        self.ticket: Ticket | None = None
        """Its place in the socket counts (:mod:`.socket_guard`)."""
        self.close_with: Refusal | None = None
        """The close code and reason to end with, once what is queued is written."""
        self._last_table: object = None
        self._last_text = ""

    def encode(self, message: dict[str, Any]) -> str:
        """JSON text of a message; a table snapshot sent again (the events of one move
        share it) is encoded once."""
        table = message.get("table")
        if table is None:
            return json.dumps(message, separators=(",", ":"))
        if table is not self._last_table:
            self._last_table, self._last_text = table, json.dumps(table, separators=(",", ":"))
        head = json.dumps({k: v for k, v in message.items() if k != "table"},
                          separators=(",", ":"))
        return f'{head[:-1]},"table":{self._last_text}}}'

    def send(self, message: dict[str, Any]) -> None:
        """Write a message now if the socket takes it at once, else queue it (never blocks)."""
        if self.overflowed or self.broken:
            return
        text = self.encode(message)
        if self.outbox.empty() and not self.writing:
            self._write_now(text)
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.overflowed = True
            self.send_close()

    def _write_now(self, text: str) -> None:
        """Run the socket's send without a task switch; if it has to wait (the peer is slow),
        the writer task finishes it before anything queued after it."""
        coro = self.websocket.send_text(text)
        try:
            waiting_on = coro.send(None)
        except StopIteration:
            return
        except Exception:
            self.broken = True
            coro.close()
            return
        self.outbox.put_nowait(_Unfinished(coro, waiting_on))

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

    async def write_all(self) -> None:
        """Write queued messages until told to stop (None), then close."""
        while True:
            item = await self.outbox.get()
            if item is None:
                break
            self.writing = True
            try:
                if isinstance(item, _Unfinished):
                    await item.finish()
                else:
                    await self.websocket.send_text(item)
            except Exception:
                self.broken = True
                raise
            finally:
                self.writing = False
        if self.overflowed:
            self.close_with = Refusal(1013, "too slow: reconnect with since")
        if self.close_with and self.websocket.application_state == WebSocketState.CONNECTED:
            await self.websocket.close(code=self.close_with.code, reason=self.close_with.reason)


async def table_socket(websocket: WebSocket) -> None:
    """Serve one connection to a table."""
    await websocket.accept()
    manager: TableManager = websocket.app.state.manager
    budget: float = websocket.app.state.settings.hint_budget
    table_id = websocket.path_params["table_id"]
    conn = Connection(websocket)
    ticket = guard_of(websocket.app.state).admit(
        websocket.client.host if websocket.client else "?", conn.refuse)
    if isinstance(ticket, Refusal):
        await websocket.close(code=ticket.code, reason=ticket.reason)
        return
    conn.ticket = ticket
    writer = asyncio.create_task(conn.write_all())
    actor: TableActor | None = None
    try:
        actor = await manager.get(table_id)
        if actor is None:
            conn.send(error_message(f"no table {table_id!r}", code="no_table"))
            return
        while not conn.overflowed and conn.close_with is None:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
            await _handle(conn, actor, raw, budget)
    except WebSocketDisconnect:
        pass
    finally:
        ticket.release()
        if actor is not None:
            actor.leave(conn)
        conn.send_close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, timeout=5)
        if not writer.done():
            writer.cancel()
        if conn.hint_task is not None:
            conn.hint_task.cancel()
        if websocket.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close()


async def _handle(conn: Connection, actor: TableActor, raw: str | bytes, budget: float) -> None:
    try:
        msg = parse_client_message(raw)
    except MessageError as e:
        conn.send(error_message(str(e), code="bad_message"))
        return
    if isinstance(msg, Ping):
        conn.send({"type": "pong"})
    elif isinstance(msg, Join):
        if conn.seat is not None:
            conn.send(error_message("already joined: open a new connection to rejoin",
                                    code="bad_message"))
            return
        seat = actor.seat_of(msg.token)
        if seat is None:
            conn.send(error_message("that token has no seat at this table", code="bad_token"))
            return
        refusal = conn.ticket.join(actor.id, seat) if conn.ticket is not None else None
        if refusal is not None:
            conn.send(error_message(refusal.reason, code="too_many"))
            conn.refuse(refusal)
            return
        conn.seat = seat
        try:
            await actor.join(conn, msg.since)
        except TableStopped as e:
            conn.send(error_message(str(e), code="table_stopped"))
            conn.release(str(e))
    elif conn.seat is None:
        conn.send(error_message('join first: {"type": "join", "token": ...}', code="not_joined"))
    elif isinstance(msg, Act):
        try:
            await actor.act(conn.seat, msg.action)
        except TableStopped as e:
            conn.send(error_message(str(e), code="table_stopped"))
            conn.release(str(e))
        except TableError as e:
            conn.send(error_message(str(e), code="illegal"))
    elif isinstance(msg, Seed):
        try:
            await actor.contribute(conn.seat, msg.hand_number, msg.seed)
        except TableStopped as e:
            conn.send(error_message(str(e), code="table_stopped"))
            conn.release(str(e))
        except TableError as e:
            conn.send(error_message(str(e), code="bad_seed"))
    elif isinstance(msg, Hint):
        if actor.config.kind in NO_HINT_KINDS:
            conn.send(error_message(NO_HINTS_MESSAGE, code="hint_unavailable"))
            return
        if conn.hint_task is not None and not conn.hint_task.done():
            conn.send(error_message("a hint is already being worked out",
                                    code="hint_unavailable"))
            return
        conn.hint_task = asyncio.create_task(_hint(conn, actor, conn.seat, budget))


async def _hint(conn: Connection, actor: TableActor, seat: int, budget: float) -> None:
    version = actor.version
    try:
        client = conn.websocket.client.host if conn.websocket.client else ""
        hints = await hints_for(actor.view(seat), budget, client)  # one per client at once
    except HintUnavailable as e:
        conn.send(error_message(str(e), code="hint_unavailable"))
        return
    except Exception:
        log.exception("hint failed")
        conn.send(error_message("the hint could not be worked out", code="hint_unavailable"))
        return
    conn.send({"type": "hint", "version": version, "hints": hints})
