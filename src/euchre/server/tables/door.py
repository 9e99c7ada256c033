"""One door to a table: :meth:`Tables.open` gives a handle to a table by its id, whether it
runs in this process or in another one of the site.

A :class:`TableHandle` does what callers need of a table: :meth:`~TableHandle.view` (the
table to read: as it runs here, or as last stored when another process runs it),
:meth:`~TableHandle.serve` (a socket's whole life at the table: its joins, watching, moves,
seeds, hints), :meth:`~TableHandle.replace` (a person left: a computer plays their seat),
:meth:`~TableHandle.close` (end the game before it is over) and
:meth:`~TableHandle.close_after_hand` (end it once the hand in play is over: a tournament
round's time ran out). :class:`LocalTable` does them at
the table's actor; :class:`RemoteTable` through the relays (:mod:`.relay`): the socket
relayed to the owner, the questions asked of it. Handovers are behind the door too: opened
with ``move_here``, a table that runs at another process where nobody is connected to it is
handed over and runs here from then on. When a table changes hands between a look and a
question the handle asks where it is again; a table still moving after that is
:class:`TableMoving` (503, nothing happened).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from typing import Any, Protocol, cast

from starlette.websockets import WebSocket

from ...errors import DomainError
from ...storage import FINISHED, StoredGame
from ...table.actor.actor import TableActor, TableStopped, replaced_seats
from ...table.hosting.manager import Elsewhere, TableManager
from ...table.hosting.owners import TableUnavailable
from ..core.site import kept_site
from ..ops.endpoints import OpsSite
from .bot_gate import BotGate
from .hints import HintService
from .relay.edge import RelayEdge
from .replay_cache import ReplayCache
from .session import Connection, Session, receive_each
from .socket_guard import SocketGuard

NOW, ALREADY, OVER = "now", "already", "over"
"""What a table decided on a replacement: taken over by it, taken over before, or too late
(the game had ended first)."""

TRIES = 5
"""Looks at where a table runs before it counts as moving (its owner let it go between
a look and a question)."""

MOVE_PAUSE = 0.05
"""Seconds before the n-th look again, times n: a table passed between processes (a leave
sent to three at once) settles with its new owner in a moment, and a busy machine needs it."""


class TableMoving(DomainError):
    """The table changed hands while it was asked, more than once: nothing happened, and a
    retry reaches its new owner."""

    code = "unavailable"

    def __init__(self) -> None:
        """The refusal, in words."""
        super().__init__("the table is moving to another server: try again in a moment")


class TableHandle(ABC):
    """A table, wherever it runs."""

    def __init__(self, tables: Tables, table_id: str) -> None:
        """``table_id``, through the door ``tables``."""
        self.tables = tables
        """The door it came through."""
        self.table_id = table_id
        """The table's id."""
        self.hops = 0
        """How often the table was found to have moved while this request was at it."""

    async def _moved(self) -> TableHandle:
        """Where the table runs now that it was not where this handle looked (stopped
        here, or let go by its owner): another process may have taken it over between a
        look and a question, as at a leave sent to several processes at once. After
        :data:`TRIES` moves, :class:`TableMoving`."""
        if self.hops + 1 >= TRIES:
            raise TableMoving()
        await asyncio.sleep(MOVE_PAUSE * (self.hops + 1))
        found = await self.tables.open(self.table_id, move_here=True)
        if found is None:
            raise TableMoving()
        found.hops = self.hops + 1
        return found

    async def _stored_over(self) -> StoredGame | None:
        """The table's game as stored if it is over, else None. An ended game never changes
        again, so this needs no owner: at a leave made at several processes at once, the
        lease of the table one of them closed may meanwhile be held by a process that runs
        nothing."""
        stored = await self.tables.manager.store.get(self.table_id)
        return stored if stored is not None and stored.status == FINISHED else None

    async def _replace_elsewhere(self, seat: int, reason: str) -> str:
        """:meth:`replace` where the table is now: it was not where this handle looked."""
        over = await self._stored_over()
        if over is not None:
            # Over and let go meanwhile (as for close): answered as stored, so a leave
            # asked again still reads ALREADY (its fee completed by key), never a 503.
            return ALREADY if seat in replaced_seats(over.meta) else OVER
        if await self.tables.manager.locate(self.table_id) is None:
            return OVER  # closed and let go by its owner meanwhile: nothing to run
        return await (await self._moved()).replace(seat, reason)

    async def _close_after_hand_elsewhere(self, reason: str) -> bool:
        """:meth:`close_after_hand` where the table is now."""
        over = await self._stored_over()
        if over is not None:
            return over.meta.get("closed") is not None
        return await (await self._moved()).close_after_hand(reason)

    async def _close_elsewhere(self, reason: str) -> bool:
        """:meth:`close` where the table is now: it was not where this handle looked."""
        over = await self._stored_over()
        if over is not None:  # closed (or played out) and let go meanwhile
            return over.meta.get("closed") is not None
        return await (await self._moved()).close(reason)

    @abstractmethod
    async def view(self) -> TableActor | None:
        """The table to read (its settings, seats, a seat's snapshot): as it runs here, or
        as last stored (it may lag its owner's latest move); None if it was never stored.
        Nothing done to it counts: act through the handle."""

    @abstractmethod
    async def serve(self, conn: Connection, websocket: WebSocket) -> None:
        """Serve the socket at the table until either side ends it."""

    @abstractmethod
    async def replace(self, seat: int, reason: str) -> str:
        """Give ``seat`` to a computer, decided by the table in the order its queue sees
        things: :data:`NOW`, :data:`ALREADY` or :data:`OVER`. :class:`TableMoving`."""

    @abstractmethod
    async def close(self, reason: str) -> bool:
        """End the game before it is over: True if the table is closed before its end (now
        or earlier), False if the game had ended first. :class:`TableMoving`."""

    @abstractmethod
    async def close_after_hand(self, reason: str) -> bool:
        """End the game once the hand in play is over (at once between hands), its finish
        hooks run as at a game's end: True if the table is closed or will close after the
        hand in play (by this request or an earlier one), False if the game had ended
        first. :class:`TableMoving`."""


class LocalTable(TableHandle):
    """A table this process runs: everything done at its actor."""

    def __init__(self, tables: Tables, actor: TableActor) -> None:
        """``actor``, one of ``tables``."""
        super().__init__(tables, actor.id)
        self.actor = actor
        """The table."""

    async def view(self) -> TableActor:
        """The table itself."""
        return self.actor

    async def serve(self, conn: Connection, websocket: WebSocket) -> None:
        """Each of the socket's messages handled at the actor, the answers written at once."""
        actor = self.actor
        session = Session(conn, actor, self.tables.hints, self.tables.gate)

        async def handle(data: str | bytes) -> None:
            await session.handle(data)
            await conn.write_queued()

        try:
            await receive_each(conn, websocket, handle)
        finally:
            actor.leave(conn)

    async def replace(self, seat: int, reason: str) -> str:
        """Replaced at the actor."""
        try:
            now = await self.actor.replace(seat, reason)
        except TableStopped:  # handed over meanwhile: asked where it runs now
            return await self._replace_elsewhere(seat, reason)
        return NOW if now else ALREADY if self.actor.is_replaced(seat) else OVER

    async def close(self, reason: str) -> bool:
        """Closed at the actor, which is then saved and let go."""
        try:
            await self.actor.close(reason)
        except TableStopped:  # handed over meanwhile: asked where it runs now
            return await self._close_elsewhere(reason)
        closed = self.actor.closed is not None
        await self.tables.manager.forget(self.table_id)
        return closed

    async def close_after_hand(self, reason: str) -> bool:
        """Told to the actor, which plays the hand in play out."""
        try:
            return await self.actor.close_after_hand(reason)
        except TableStopped:  # handed over meanwhile: asked where it runs now
            return await self._close_after_hand_elsewhere(reason)


class RemoteTable(TableHandle):
    """A table another process runs: read as stored, served and asked through the relays."""

    def __init__(self, tables: Tables, table_id: str, owner: str) -> None:
        """``table_id``, which ``owner`` runs."""
        super().__init__(tables, table_id)
        self.owner = owner
        """The process running it (as last seen)."""
        self._view: TableActor | None = None

    async def view(self) -> TableActor | None:
        """The table as last stored (read once)."""
        if self._view is None:
            self._view = await self.tables.manager.stored_view(self.table_id)
        return self._view

    def _edge(self) -> RelayEdge:
        if self.tables.edge is None:
            raise TableUnavailable("another server runs this table")
        return self.tables.edge

    async def serve(self, conn: Connection, websocket: WebSocket) -> None:
        """The socket relayed to the owner."""
        await self._edge().serve(conn, websocket, self.table_id, self.owner)

    async def replace(self, seat: int, reason: str) -> str:
        """The owner replaces it and says what its table decided."""
        outcome = await self._edge().replace_remote(self.owner, self.table_id, seat, reason)
        if outcome is not None:
            if outcome != OVER and self._view is not None:
                self._view.replaced[seat] = reason  # the stored view may lag the owner
            return outcome
        return await self._replace_elsewhere(seat, reason)

    async def close(self, reason: str) -> bool:
        """The owner closes it and says how."""
        there, closed = await self._edge().close_and_tell(self.owner, self.table_id, reason)
        if there:
            return closed is not None
        return await self._close_elsewhere(reason)

    async def close_after_hand(self, reason: str) -> bool:
        """The owner tells its table, and says what it decided."""
        there, closed = await self._edge().close_and_tell(self.owner, self.table_id, reason,
                                                          after_hand=True)
        if there:
            return closed is not None
        return await self._close_after_hand_elsewhere(reason)


class Tables:
    """The door: a handle to any table of the site by its id."""

    def __init__(self, manager: TableManager, hints: HintService, gate: BotGate | None = None,
                 edge: RelayEdge | None = None) -> None:
        """The tables of ``manager`` (this process's), others through ``edge`` (None: one
        process runs every table); sockets served here get ``hints`` and the outside bots'
        ``gate``."""
        self.manager = manager
        """This process's tables."""
        self.hints = hints
        """Hints for the sockets served here."""
        self.gate = gate
        """The outside bots' token check for the sockets served here."""
        self.edge = edge
        """The relays to the other processes' tables."""

    async def open(self, table_id: str, *, move_here: bool = False) -> TableHandle | None:
        """The table ``table_id`` (loaded here if nobody runs it), or None if there is no
        such table. With ``move_here``, a table another process runs with nobody connected
        to it there is handed over and runs here (a table follows its first socket).
        :class:`TableUnavailable` if ownership cannot be decided now."""
        found = await self.manager.locate(table_id)
        if isinstance(found, Elsewhere) and move_here and self.edge is not None \
                and await self.edge.hand_over(found.owner, table_id) is not False:
            found = await self.manager.locate(table_id)  # let go, or no answer: look again
        if found is None:
            return None
        if isinstance(found, Elsewhere):
            return RemoteTable(self, table_id, found.owner)
        return LocalTable(self, found)


class TablesSite(OpsSite, Protocol):
    """What the tables' routes and sockets read of the site."""

    tables: Tables
    """The door to every table (this process's, the others' through the relays)."""
    socket_guard: SocketGuard
    """The sockets' caps and join deadline."""
    replay_cache: ReplayCache
    """Finished games' replays, built once."""
    hints: HintService
    """Hints at practice tables."""
    gate: BotGate
    """The outside bots' token check for sockets."""


def tables_site(conn: Any) -> TablesSite:
    """The site of ``conn`` (a request, a socket or the app), as the tables read it."""
    return cast(TablesSite, kept_site(conn))
