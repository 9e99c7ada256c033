"""The lobby sockets' messages (documented in ``/asyncapi.json``).

``/ws/lobby`` first sends ``lobby`` (the open tables and the games one can watch), then a
``table`` for every table opened or changed (a seat taken or freed, an agreement to fill,
started, cancelled) and a ``gone`` for every table that went (a quick-play table left empty,
a finished game). ``/ws/online/{table_id}`` sends the same for one table: ``table`` first,
then its changes, and ``start_refused`` when its start failed because someone seated can no
longer cover the stake. A client may send ``ping`` (answered ``pong``); nothing else, and at
most 10 messages at once and one a second after that (more: ``error`` ``rate_limited``, then
the socket is closed with 4429).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct

from .online import OnlineTable


class LobbyMessage(Struct, tag_field="type"):
    """Any message the lobby sockets send."""


class LobbyState(LobbyMessage, tag="lobby"):
    """The lobby as it is: open tables (newest first) and started games to watch."""

    tables: list[OnlineTable]
    """Tables waiting for their start, newest first (at most 50)."""
    games: list[OnlineTable]
    """Started games open to spectators, newest first (at most 20); ``watch`` links each."""


class TableChanged(LobbyMessage, tag="table"):
    """A table opened or changed (``status`` says whether it waits, started or was
    cancelled)."""

    table: OnlineTable


class TableGone(LobbyMessage, tag="gone"):
    """A table went: a quick-play table left empty, a game that ended, or one expired."""

    id: str
    reason: Literal["empty", "finished", "expired"] = "empty"


class StartRefused(LobbyMessage, tag="start_refused"):
    """A quick table with a stake that could not start when its last seat or agreement came,
    because someone seated can no longer cover the stake: sent on that table's socket only
    (``/ws/online/{id}``), never to the whole lobby. The table waits, as it was."""

    id: str
    people: list[str]
    """The names of the people who cannot cover the stake (never their balances)."""
    stake: int
    message: str
    """What to tell the people at the table."""


class LobbyError(LobbyMessage, tag="error"):
    """Why the server is about to close the socket: ``rate_limited`` (more messages than a
    lobby socket may send; the close code is 4429). Anything but a ping closes the socket
    with 1008 and its reason, and counts against the address as a flood close does."""

    code: str
    message: str


class LobbyPing(Struct, tag_field="type", tag="ping", forbid_unknown_fields=True):
    """Keep the socket alive (answered with ``pong``)."""


class LobbyPong(LobbyMessage, tag="pong"):
    """The answer to ``ping``."""


LOBBY_CLIENT_MESSAGES: tuple[type[Struct], ...] = (LobbyPing,)
"""What a client may send on a lobby socket."""

LOBBY_SERVER_MESSAGES: tuple[type[Struct], ...] = (LobbyState, TableChanged, TableGone,
                                                     StartRefused, LobbyPong, LobbyError)
"""What the server sends on a lobby socket."""
