"""What the online API and the lobby sockets share: the site's lobby, its broker channel, and
the tables as anyone may see them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from ...broker import Broker
from ...table.kinds.lobby import Lobby
from ...table.kinds.online import OpenTable
from ..accounts.ratings_api import seat_ratings
from ..accounts.ratings_state import RatingsState
from ..core.errors import ApiError
from ..core.site import site_of
from ..wire.online import OnlineTable

LOBBY_CHANNEL = "lobby"
"""The broker channel every change to an online table is published on."""


@dataclass(frozen=True)
class Online:
    """The online tables' part of the site."""

    lobby: Lobby
    """The registry of open online tables."""
    refusals: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Each quick table's last refused start: (who sat then, the message)."""


def online_of(conn: Any) -> Online:
    """The site's online tables; ``conn`` is a request, a socket or the app."""
    online = site_of(conn).get(Online)
    if online is None:
        raise ApiError("not_enabled", "online tables are not enabled on this server")
    return online


def lobby_of(conn: Any) -> Lobby:
    """The site's lobby (the registry of open online tables); ``conn`` is a request, a
    socket or the app."""
    return online_of(conn).lobby


tables_of = lobby_of
"""The old name of :func:`lobby_of`."""


def broker_of(conn: Any) -> Broker:
    """The site's broker."""
    return site_of(conn).broker


def invite_link(conn: Any, table_id: str) -> str:
    """The link to the table's waiting page, on the server's public URL."""
    return f"{site_of(conn).public_url.rstrip('/')}/online/{table_id}"


async def shown_tables(app: Any, tables: list[OpenTable], **extra: Any
                       ) -> list[OnlineTable]:
    """The tables as anyone may see them, each signed-in person's seat with their rating,
    a started public game with its watch link."""
    shown = [{**t.to_json(), "invite": invite_link(app, t.id), **extra} for t in tables]
    for t, data in zip(tables, shown, strict=True):
        if t.started and t.options.spectators:
            data["watch"] = f"/watch/{t.id}"
            data.setdefault("table_url", f"/table/{t.id}")
    ratings = site_of(app).get(RatingsState)
    if ratings is not None:
        await seat_ratings(ratings, [t.accounts for t in tables], shown)
    return [msgspec.convert(t, OnlineTable) for t in shown]


