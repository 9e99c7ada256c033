"""A quick message on the table socket (``say``, issue 36 item 6): the socket's dispatcher
(:func:`~.ws.handle_message`) hands it here, and the table decides (:mod:`euchre.table.talk`).

A spectator or a socket not yet seated is refused here; everything else (a hand in play,
the rate, a silent table, an outside bot's seat) is the table's to refuse. The accepted
message comes back as the ``say`` event everyone at the table gets; a refusal is an
``error`` with the table's code, and nothing changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import DomainError
from ...table.actor import TableActor, TableStopped
from ..wire.socket import Say, error_message

if TYPE_CHECKING:
    from .ws import Connection

SPECTATOR_TEXT = "spectators see the table's messages but do not send them: only seated people do"
"""The refusal of a ``say`` from a spectator's socket."""

NOT_JOINED_TEXT = 'join your seat first: {"type": "join", "token": ...}'
"""The refusal of a ``say`` before the socket joined a seat."""


async def say(conn: Connection, actor: TableActor, msg: Say) -> None:
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
