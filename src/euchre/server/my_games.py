"""A signed-in person's games in progress, from any browser: ``GET /api/me/live``.

An extension (see :mod:`euchre.server.app`), after the accounts, online and ratings ones.
What it lists is read from what is stored (the online tables waiting in the lobby's store,
the ``game_players`` index and ``coin_games``, each game's stored status), never from one
process's memory, so every process gives the same answer. The seats it lists open with the
person's account (a socket ``join`` without a token), so no token is sent.
"""

from __future__ import annotations

import logging

from starlette.requests import Request
from starlette.responses import Response

from ..storage.base import FINISHED, GameStore
from ..table.online import ONLINE
from . import accounts_api
from .encoder import json_answer
from .lobby_state import lobby_of
from .registry import Endpoint, Extension
from .wire.accounts import LiveGame, LiveGames

log = logging.getLogger(__name__)

RECENT = 8
"""The latest games of the account looked at for ones still being played (a table nobody
plays is put away within the hour, so an older one is finished)."""


def _game(table_id: str, kind: str, seat: int, status: str, *, quick: bool = False,
          rated: bool = False, stake: int = 0) -> LiveGame:
    waiting = status == "waiting"
    return LiveGame(id=table_id, kind=kind, seat=seat, status=status,  # type: ignore[arg-type]
                    url=f"/online/{table_id}" if waiting else f"/table/{table_id}",
                    quick=quick, rated=rated, stake=stake)


async def live_games(request: Request, account_id: int) -> list[LiveGame]:
    """The account's waiting tables and games being played, newest first."""
    found: list[LiveGame] = []
    lobby = getattr(request.app.state, "online", None)
    if lobby is not None:
        waiting = await lobby_of(request).seats_of(account_id)
        waiting.sort(key=lambda pair: pair[0].created_at, reverse=True)
        for table, seat in waiting:
            found.append(_game(table.id, ONLINE, seat, "waiting", quick=table.quick,
                               rated=table.options.rated, stake=table.options.stake))
    ratings = getattr(request.app.state, "ratings", None)
    if ratings is None:
        return found
    store: GameStore = request.app.state.store
    for played in await ratings.players.games_of(account_id, limit=RECENT):
        if any(g.id == played.game_id for g in found):
            continue  # a table that started after the lobby was read: listed once
        stored = await store.get(played.game_id)
        if stored is None or stored.status == FINISHED:
            continue
        meta = stored.meta
        if str(played.seat) in (meta.get("replaced") or {}) or meta.get("closed"):
            continue  # the person left: a computer plays the seat
        extra = (meta.get("config") or {}).get("extra") or {}
        found.append(_game(played.game_id, played.kind, played.seat, "playing",
                           rated=bool(extra.get("rated")),
                           stake=int(extra.get("stake") or 0)))
    return found


async def get_live(request: Request) -> Response:
    """``GET /api/me/live``: the signed-in person's waiting tables and games in play."""
    session = await accounts_api.signed_in(request, csrf=False)
    return json_answer(LiveGames(games=await live_games(request, session.account_id)))


def my_games_extension() -> Extension:
    """The signed-in person's games in progress."""
    return Extension(
        "my_games",
        endpoints=[
            Endpoint("GET", "/api/me/live", get_live,
                     "The signed-in person's games in progress",
                     "Online tables where they wait for the start, and practice, coin and "
                     "online games they play; each opens from any browser where they are "
                     "signed in (the table socket's ``join`` without a token).",
                     answers={200: LiveGames}, refusals={401: "Not signed in."}),
        ],
    )

