"""What the online API and the lobby sockets share: the app's lobby, its broker channel, and
the tables as anyone may see them."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.applications import Starlette

from ...broker import Broker
from ...table.lobby import Lobby
from ...table.online import OpenTable
from ..core.errors import ApiError
from ..wire.online import OnlineTable

LOBBY_CHANNEL = "lobby"
"""The broker channel every change to an online table is published on."""


def lobby_of(conn: Any) -> Lobby:
    """The app's lobby (the registry of open online tables); ``conn`` is a request, a
    socket or the app."""
    app = getattr(conn, "app", conn)
    tables: Lobby | None = getattr(app.state, "online", None)
    if tables is None:
        raise ApiError("not_enabled", "online tables are not enabled on this server")
    return tables


tables_of = lobby_of
"""The old name of :func:`lobby_of`."""


def broker_of(app: Starlette) -> Broker:
    """The site's broker (the site extension's), else this app's own in memory."""
    broker: Broker = getattr(app.state, "broker", None) or app.state.lobby_broker
    return broker


def invite_link(conn: Any, table_id: str) -> str:
    """The link to the table's waiting page, on the server's public URL."""
    app = getattr(conn, "app", conn)
    public_url: str = app.state.settings.public_url
    return f"{public_url.rstrip('/')}/online/{table_id}"


async def shown_tables(app: Starlette, tables: list[OpenTable], **extra: Any
                       ) -> list[OnlineTable]:
    """The tables as anyone may see them, each signed-in person's seat with their rating,
    a started public game with its watch link."""
    shown = [{**t.to_json(), "invite": invite_link(app, t.id), **extra} for t in tables]
    for t, data in zip(tables, shown, strict=True):
        if t.started and t.options.spectators:
            data["watch"] = f"/watch/{t.id}"
            data.setdefault("table_url", f"/table/{t.id}")
    rate = getattr(app.state, "seat_ratings", None)  # set by ratings_api
    if rate is not None:
        await rate([t.accounts for t in tables], shown)
    return [msgspec.convert(t, OnlineTable) for t in shown]


