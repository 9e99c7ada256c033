"""A quick message on the table socket (``say``, issue 36 item 6): the socket's dispatcher
(:func:`~.ws.handle_message`) hands it here, and the table decides (:mod:`euchre.table.talk`).

A spectator or a socket not yet seated is refused here; everything else (a hand in play,
the rate, a silent table, an outside bot's seat) is the table's to refuse. The accepted
message comes back as the ``say`` event everyone at the table gets; a refusal is an
``error`` with the table's code, and nothing changes.
"""

from __future__ import annotations

from typing import Protocol

from ...errors import DomainError
from ...table.actor import TableActor, TableStopped
from ..wire.socket import Say, ServerMessage, error_message


class Speaker(Protocol):
    """What this needs of a table socket's connection (:class:`~.ws.Connection`)."""

    seat: int | None
    watching: bool

    def send(self, message: ServerMessage) -> None:
        """Queue a message for the client."""

    def release(self, reason: str) -> None:
        """The table stopped here: close, so the client finds it again."""


SPECTATOR_TEXT = "spectators see the table's messages but do not send them: only seated people do"
"""The refusal of a ``say`` from a spectator's socket."""

NOT_JOINED_TEXT = 'join your seat first: {"type": "join", "token": ...}'
"""The refusal of a ``say`` before the socket joined a seat."""


async def say(conn: Speaker, actor: TableActor, msg: Say) -> None:
    """Say ``msg``'s quick message at ``actor`` from ``conn``'s seat."""
    if conn.watching:
        conn.send(error_message(SPECTATOR_TEXT, code="spectator"))
        return
    if conn.seat is None:
        conn.send(error_message(NOT_JOINED_TEXT, code="not_joined"))
        return
    try:
        await actor.say(conn.seat, msg.message)
    except TableStopped as e:
        conn.send(error_message(e.message, code="table_stopped"))
        conn.release(e.message)
    except DomainError as e:
        conn.send(error_message(e.message, code=e.code))
