"""The table socket's check of outside bots' seats: only a live bot token plays them.

An outside bot plays its seat over the ordinary table socket with the seat's token, like a
person, so it gets the same parsing, refusals and limits. What is added for a seat an
outside bot took (``Seat.bot_token``): the bot token must still be live. A join is checked
against the database; a revocation closes the bot's open sockets at once (``4401``, after
an ``error`` with code ``revoked``), in this process directly and in the site's other
processes through the broker; and every later message of such a socket is refused while
its token is known to be revoked, in case a notice went astray.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from ...accounts.bots import BotService
from ..wire.socket import error_message
from .socket_guard import Refusal

if TYPE_CHECKING:
    from ...table.actor.actor import TableActor


class GatedSocket(Protocol):
    """What the gate needs of a table socket (``session.Connection``; named here, not imported,
    so the socket module and its gate do not import each other)."""

    seat: int | None

    def send(self, message: Any) -> None:
        """Queue a message for the socket."""

    def refuse(self, refusal: Refusal) -> None:
        """Tell the socket why and close it."""


log = logging.getLogger(__name__)

CLOSE_REVOKED = 4401
"""Close code: the bot token this socket's seat was taken with was revoked."""

REVOKED_CHANNEL = "bot-revoked"
"""The broker channel on which a revoked token's id is announced to every process."""

REVOKED_MESSAGE = "this bot's token was revoked: the bot can no longer play this seat"
"""What a revoked bot's socket is told before it is closed."""


class BotGate:
    """Which sockets play seats of outside bots, and whether their tokens are live."""

    def __init__(self, service: BotService | None) -> None:
        """A gate asking ``service`` (None: the app has no outside bots)."""
        self.service = service
        """Where bot tokens are looked up."""
        self.revoked: set[int] = set()
        """Ids of tokens this process was told were revoked."""
        self._sockets: dict[int, weakref.WeakSet[GatedSocket]] = {}
        self.on_revoke: list[Callable[[int], Awaitable[None]]] = []
        """Told each token revoked through this process (:meth:`revoked_here`): a
        tournament has a computer play its bot's seats."""

    async def admits(self, conn: GatedSocket, actor: TableActor) -> bool:
        """Whether ``conn``'s seat may act (not an outside bot's, or its token is live);
        if not, the socket is told and closed. Joining asks the database, every later
        message only this process's list of revoked tokens."""
        if conn.seat is None:
            return True
        token = actor.config.seats[conn.seat].bot_token
        if token is None:
            return True
        known = self._sockets.get(token)
        if token not in self.revoked and known is not None and conn in known:
            return True
        service = self.service
        if token not in self.revoked and service is not None and await service.is_live(token):
            self._sockets.setdefault(token, weakref.WeakSet()).add(conn)
            return True
        self.revoked.add(token)
        _refuse(conn)
        return False

    def revoke(self, token_id: int) -> int:
        """The token was revoked: close its sockets in this process; how many."""
        self.revoked.add(token_id)
        sockets = self._sockets.pop(token_id, None) or weakref.WeakSet()
        closed = 0
        for conn in list(sockets):
            _refuse(conn)
            closed += 1
        if closed:
            log.info("bot token %s revoked: closed %d socket(s)", token_id, closed)
        return closed


    async def revoked_here(self, token_id: int) -> None:
        """The token was revoked by a request to this process: tell :attr:`on_revoke`
        (once for the site: the other processes only close their sockets)."""
        for hook in self.on_revoke:
            try:
                await hook(token_id)
            except Exception:  # one hook failing must not stop the others
                log.exception("bot token %s revoked: a hook failed", token_id)


def _refuse(conn: GatedSocket) -> None:
    conn.seat = None
    conn.send(error_message(REVOKED_MESSAGE, code="revoked"))
    conn.refuse(Refusal(CLOSE_REVOKED, "bot token revoked"))
