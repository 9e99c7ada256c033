"""The table socket's ``rematch`` message: a seated person offers, accepts or declines a
rematch at the end of the game (``table/rematch.py`` holds its rules).

One function the socket's dispatch calls for the message; the table answers with a
``rematch`` event to everyone, or this connection with an ``error`` (code ``no_rematch``:
the game is not over, nobody offered, the offer ended; nothing changed).
"""

from __future__ import annotations

from typing import Protocol

from ...errors import DomainError
from ...table.actor import TableActor, TableStopped
from ..wire.socket import Rematch, ServerMessage, error_message


class Seated(Protocol):
    """What this needs of a connection: its seat, a way to answer it, and to let it go."""

    seat: int | None

    def send(self, message: ServerMessage) -> None:
        """Queue a message for the socket."""
        ...

    def release(self, reason: str) -> None:
        """Close the socket once what is queued is written."""
        ...


async def rematch_message(conn: Seated, actor: TableActor, msg: Rematch) -> None:
    """Hand a seated connection's ``rematch`` to its table; a refusal is sent back."""
    assert conn.seat is not None  # the dispatch sends only joined seats here
    try:
        await actor.rematch(conn.seat, msg.accept, msg.partners)
    except TableStopped as e:
        conn.send(error_message(e.message, code="table_stopped"))
        conn.release(e.message)
    except DomainError as e:
        conn.send(error_message(e.message, code=e.code))
