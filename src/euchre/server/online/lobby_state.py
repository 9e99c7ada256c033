"""What the online API and the lobby sockets share: the site's lobby, its broker channel, and
the tables as anyone may see them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, cast

import msgspec

from ...coins.pots import PotService
from ...table.kinds.lobby import Lobby
from ...table.kinds.online import OpenTable
from ..accounts.ratings_api import seat_ratings
from ..accounts.ratings_state import RatingsSite
from ..core.errors import ApiError
from ..core.guards import GuardedSite
from ..core.site import kept_site
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


class OnlineSite(RatingsSite, GuardedSite, Protocol):
    """What online tables (and their stakes) read of the site."""

    online: Online | None
    """The online tables' part (None: the app has no online tables)."""
    pots: PotService | None
    """The stake pots of online tables (None: no coin stakes on this server)."""


def online_site(conn: Any) -> OnlineSite:
    """The site of ``conn`` (a request, a socket or the app), as online tables read it."""
    return cast(OnlineSite, kept_site(conn))


def online_of(site: OnlineSite) -> Online:
    """The site's online tables (404 when the app has none)."""
    online = site.online
    if online is None:
        raise ApiError("not_enabled", "online tables are not enabled on this server")
    return online


def lobby_of(site: OnlineSite) -> Lobby:
    """The site's lobby (the registry of open online tables)."""
    return online_of(site).lobby


def invite_link(site: OnlineSite, table_id: str) -> str:
    """The link to the table's waiting page, on the server's public URL."""
    return f"{site.public_url.rstrip('/')}/online/{table_id}"


async def shown_tables(site: OnlineSite, tables: list[OpenTable], **extra: Any
                       ) -> list[OnlineTable]:
    """The tables as anyone may see them, each signed-in person's seat with their rating,
    a started public game with its watch link."""
    shown = [{**t.to_json(), "invite": invite_link(site, t.id), **extra} for t in tables]
    for t, data in zip(tables, shown, strict=True):
        if t.started and t.options.spectators:
            data["watch"] = f"/watch/{t.id}"
            data.setdefault("table_url", f"/table/{t.id}")
    ratings = site.ratings
    if ratings is not None:
        await seat_ratings(ratings, [t.accounts for t in tables], shown)
    return [msgspec.convert(t, OnlineTable) for t in shown]


