"""The lobby sockets' messages (documented in ``/asyncapi.json``).

``/ws/lobby`` first sends ``lobby`` (the open tables and the games one can watch), then a
``table`` for every table opened or changed (a seat taken or freed, an agreement to fill,
started, cancelled) and a ``gone`` for every table that went (a quick-play table left empty,
a finished game). ``/ws/online/{table_id}`` sends the same for one table: ``table`` first,
then its changes. A client may send ``ping`` (answered ``pong``); nothing else.
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


class LobbyPing(Struct, tag_field="type", tag="ping", forbid_unknown_fields=True):
    """Keep the socket alive (answered with ``pong``)."""


class LobbyPong(LobbyMessage, tag="pong"):
    """The answer to ``ping``."""


LOBBY_CLIENT_MESSAGES: tuple[type[Struct], ...] = (LobbyPing,)
"""What a client may send on a lobby socket."""

LOBBY_SERVER_MESSAGES: tuple[type[Struct], ...] = (LobbyState, TableChanged, TableGone,
                                                     LobbyPong)
"""What the server sends on a lobby socket."""
