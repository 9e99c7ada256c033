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

from ...accounts.seat_claims import SeatClaims
from ...storage.base import FINISHED
from ...table.actor.seats import TableConfig
from ...table.kinds.online import ONLINE
from ..accounts import accounts_api
from ..core.encoder import json_answer
from ..core.people import bearer_token, bot_of
from ..core.registry import Endpoint, Extension
from ..core.site import needed
from ..tables.api import read_body
from ..wire.accounts import ClaimedSeats, ClaimSeats, LiveGame, LiveGames
from .lobby_state import OnlineSite, online_site

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


async def live_games(request: Request, account_id: int, bot: bool = False
                     ) -> list[LiveGame]:
    """The account's waiting tables and games being played, newest first (``bot``: an
    outside bot's account, whose seats are its bot seats)."""
    found: list[LiveGame] = []
    site = online_site(request)
    online = site.online
    if online is not None:
        waiting = await online.lobby.seats_of(account_id, bot=bot)
        waiting.sort(key=lambda pair: pair[0].created_at, reverse=True)
        for table, seat in waiting:
            found.append(_game(table.id, ONLINE, seat, "waiting", quick=table.quick,
                               rated=table.options.rated, stake=table.options.stake))
    ratings = site.ratings
    if ratings is None:
        return found
    store = site.store
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
    """``GET /api/me/live``: the signed-in person's waiting tables and games in play, or
    with a bot token (``Authorization: Bearer``) the bot's own; each seat is left with the
    token or, for the bot, its bot token alone (``{"token": null}``)."""
    if bearer_token(request) is not None:
        bot = await bot_of(request, str(bearer_token(request)))
        return json_answer(LiveGames(games=await live_games(request, bot.account_id,
                                                            bot=True)))
    session = await accounts_api.signed_in(request, csrf=False)
    return json_answer(LiveGames(games=await live_games(request, session.account_id)))


async def post_claim(request: Request) -> Response:
    """``POST /api/me/seats {"seats": [{"id", "token"}]}``: bind the seats this browser took
    as a guest to the account just signed in to (each checked against its token in the
    stored table; a seat that already has an account is left alone)."""
    session = await accounts_api.signed_in(request, csrf=True)
    body = await read_body(request, ClaimSeats)
    site = online_site(request)
    claims = site.claims
    store = site.store
    ratings = site.ratings
    bound: list[str] = []
    for held in body.seats[:50]:
        stored = await store.get(held.id)
        if claims is None or stored is None or stored.status == FINISHED \
                or "config" not in stored.meta:
            continue
        config = TableConfig.from_json(stored.meta["config"])
        seat = config.seat_of(held.token)
        if seat is None or config.seats[seat].account_id is not None \
                or config.seats[seat].account is not None:
            continue
        if await claims.claim(held.id, seat, session.account_id):
            bound.append(held.id)
            if ratings is not None:  # listed among the person's games from now on
                await ratings.players.record(held.id, config.kind, [(seat, session.account_id)])
    return json_answer(ClaimedSeats(bound=bound))


async def make_parts(site: OnlineSite) -> None:
    """The claims of guest seats, on the accounts' database."""
    site.claims = SeatClaims(needed(site.accounts, "my games", "accounts").engine)


def my_games_extension() -> Extension[OnlineSite]:
    """The signed-in person's games in progress."""
    return Extension(
        "my_games",
        endpoints=[
            Endpoint("GET", "/api/me/live", get_live,
                     "The signed-in person's (or the bot's) games in progress",
                     "Online tables where they wait for the start, and practice, coin and "
                     "online games they play; each opens from any browser where they are "
                     "signed in (the table socket's ``join`` without a token). With a bot "
                     "token, the outside bot's own: it leaves each with its bot token and "
                     "``{\"token\": null}`` (``/api/online/{id}/leave``, "
                     "``/api/online/{id}/leave-game``, ``/api/tables/{id}/leave``), its "
                     "table socket still takes the seat's token.",
                     answers={200: LiveGames},
                     refusals={401: "Not signed in, or the bot token is unknown or "
                                    "revoked."},
                     bot_token=True),
            Endpoint("POST", "/api/me/seats", post_claim,
                     "Keep the seats taken as a guest after signing in",
                     "Each seat is checked against its token in the stored table and bound "
                     "to the account, so it opens from any browser where the person is "
                     "signed in; a seat that already has an account is left alone.",
                     body=ClaimSeats, answers={200: ClaimedSeats},
                     refusals={401: "Not signed in.", 403: "No CSRF token."}),
        ],
        parts=make_parts,
    )

