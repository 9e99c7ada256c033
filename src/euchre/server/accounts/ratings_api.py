"""Ratings and statistics: the leaderboard, a person's statistics, rated online tables.

An extension (see :mod:`euchre.server.app`), after the accounts one (it uses the accounts'
database) and the online one. Its startup adds a table-open hook that notes which
signed-in person sits where (and registers a rated table), a finish hook at online tables
that applies a rated game's result once, and settles rated games a crash left
unapplied; its endpoints are ``/leaders``, ``GET /api/leaders``, ``GET /api/me/stats`` and
``GET /api/games/{id}/stats``.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ...errors import RecordError
from ...ratings import RatedGameError, RatingService, RatingStanding
from ...ratings.model import Rating
from ...ratings.service import RatingChange
from ...record import GameRecord
from ...stats import PlayerIndex, game_seat_stats, person_stats
from ...storage.base import FINISHED, GameStore
from ...table.actor.kind import FinishedTable
from ...table.actor.seats import TableConfig
from ...table.kinds.online import ONLINE
from ..core import guards
from ..core.encoder import json_answer
from ..core.errors import ApiError
from ..core.registry import Endpoint, Extension, Param
from ..core.site import needed
from ..tables.api import int_param
from ..wire.online import SeatRating
from ..wire.ratings import (
    LEADERS_PAGE,
    MAX_LEADERS,
    GameRatings,
    GameStats,
    Leader,
    Leaders,
    PersonLookup,
    PersonStats,
    PlayedGames,
    RatingChangeItem,
    RatingFigures,
    RatingHistory,
)
from . import accounts_api
from .ratings_state import RatingsSite, RatingsState, ratings_site, state_of

log = logging.getLogger(__name__)


async def get_leaders(request: Request) -> Response:
    """``GET /api/leaders?limit=N&offset=K``: rated people, highest rating first."""
    state = state_of(request)
    limit = int_param(request, "limit", LEADERS_PAGE, 1, MAX_LEADERS)
    offset = int_param(request, "offset", 0, 0, 10**9)
    ratings = state.ratings
    leaders, total = await ratings.leaders(limit, offset)
    after = offset + len(leaders)
    return json_answer(Leaders(
        leaders=[msgspec.convert(x.to_json(), Leader) for x in leaders], total=total,
        limit=limit, offset=offset, next=after if after < total else None,
        provisional=await ratings.provisional(total), games_needed=ratings.games_needed,
        opponents_needed=ratings.opponents_needed))


async def get_my_stats(request: Request) -> Response:
    """``GET /api/me/stats``: the signed-in person's rating, rank and statistics."""
    state = state_of(request)
    session = await accounts_api.signed_in(request, csrf=False)
    await guards.expensive_read(request)  # it replays the person's latest games
    account_id = session.account_id
    account = await accounts_api.state_of(request).accounts.get(account_id)
    rating = (await state.ratings.of([account_id])).get(account_id)
    store = ratings_site(request).store
    # Given from the start: a new account is provisional (0 rated games) too.
    standing = await state.ratings.standing(account_id)
    return json_answer(msgspec.convert({
        "username": account.username,
        "rating": None if rating is None else {**rating.to_json(),
                                               "provisional": standing.provisional},
        "rank": await state.ratings.rank_of(account_id),
        "stats": await person_stats(store, state.players, account_id),
        "standing": standing.to_json(),
    }, PersonStats))


def _figures(rating: Rating) -> RatingFigures:
    return RatingFigures(number=rating.number, mu=round(rating.mu, 2), sigma=round(rating.sigma, 2),
                         ordinal=round(rating.ordinal, 2))


def _change_item(change: RatingChange, provisional: bool | None = None) -> RatingChangeItem:
    item = RatingChangeItem(game_id=change.game_id, seat=change.seat, name=change.username,
                            won=change.won, before=_figures(change.before),
                            after=_figures(change.after), at=change.at.isoformat())
    if provisional is not None:
        item.provisional = provisional
    return item


async def get_game_ratings(request: Request) -> Response:
    """``GET /api/games/{id}/ratings``: each person's rating before and after a rated
    game (public, as the leaderboard is)."""
    state = state_of(request)
    game_id = request.path_params["game_id"]
    status = await state.ratings.status(game_id)
    if status is None:
        raise ApiError("no_game", f"{game_id!r} is not a rated game")
    changes = await state.ratings.changes_of_game(game_id) if status == "applied" else []
    provisional = await state.ratings.provisional_of([c.account_id for c in changes])
    return json_answer(GameRatings(id=game_id, status=status,  # type: ignore[arg-type]
                                   changes=[_change_item(c, provisional[c.account_id])
                                            for c in changes]))


async def get_my_ratings(request: Request) -> Response:
    """``GET /api/me/ratings``: the signed-in person's rating history, newest first."""
    state = state_of(request)
    session = await accounts_api.signed_in(request, csrf=False)
    limit = int_param(request, "limit", 50, 1, 200) or 50
    changes = await state.ratings.history(session.account_id, limit)
    return json_answer(RatingHistory(changes=[_change_item(c) for c in changes]))


async def get_game_stats(request: Request) -> Response:
    """``GET /api/games/{id}/stats``: each seat's counts in a finished game."""
    await guards.expensive_read(request)
    game_id = request.path_params["game_id"]
    store = ratings_site(request).store
    stored = await store.get(game_id)
    if stored is None or "config" not in stored.meta:
        raise ApiError("no_game", f"no game {game_id!r}")
    if stored.status != FINISHED:
        raise ApiError("still_playing",
                       "the game is still being played: its statistics come at the end")
    config = TableConfig.from_json(stored.meta["config"])
    seats = []
    for seat, occupant in enumerate(config.seats):
        counts = game_seat_stats(stored, seat)
        if counts is None:
            raise ApiError("internal", "the stored record is unreadable")
        signed_in = occupant.account_id is not None or occupant.account is not None
        seats.append({"seat": seat, "name": occupant.name, "signed_in": signed_in,
                      **({"bot": True} if occupant.is_outside_bot() else {}),
                      **counts.to_json()})
    return json_answer(msgspec.convert({"id": game_id, "kind": stored.kind, "seats": seats},
                                       GameStats))


async def seat_ratings(state: RatingsState, accounts: Sequence[Sequence[int | None]],
                       shown: list[dict[str, Any]]) -> None:
    """Put each signed-in person's rating (or null) on their seat in the tables' JSON,
    marked ``provisional`` while it is not listed on the leaderboard yet."""
    ids = [a for table in accounts for a in table if a is not None]
    known = await state.ratings.of(ids)
    met = await state.ratings.opponents([a for a in ids if a in known])
    ratings = state.ratings
    for table, data in zip(accounts, shown, strict=True):
        for seat, account in zip(data["seats"], table, strict=True):
            if account is not None:
                rating = known.get(account)
                seat["rating"] = None if rating is None else {
                    **rating.to_json(),
                    "provisional": RatingStanding(rating.games, met.get(account, 0),
                                            ratings.games_needed,
                                            ratings.opponents_needed).provisional}


async def reconcile(state: RatingsState, store: GameStore) -> None:
    """Apply rated games that ended while no finish hook ran (a crash, a restart)."""
    for game_id in await state.ratings.pending():
        stored = await store.get(game_id)
        if stored is None or stored.status != FINISHED:
            continue  # still running (resumed with its hook), or never stored
        try:
            winner = GameRecord.from_json(stored.record).replay().winner
        except RecordError:
            log.exception("rated game %s: the stored record is unreadable", game_id)
            continue
        if winner is not None and await state.ratings.apply(game_id, winner):
            log.info("applied rated game %s after a restart", game_id)


async def make_parts(site: RatingsSite) -> None:
    """The rating service and the index of who sat where, on the accounts' database."""
    accounts = needed(site.accounts, "ratings", "accounts")
    site.ratings = RatingsState(RatingService(accounts.engine), PlayerIndex(accounts.engine))


async def startup(site: RatingsSite) -> None:
    """Wire the open and finish hooks, and settle unapplied rated games."""
    state = needed(site.ratings, "ratings", "its own parts")
    manager = site.manager

    async def note_seats(config: TableConfig) -> None:
        seats = [(i, s.account_id) for i, s in enumerate(config.seats)
                 if s.account_id is not None]
        await state.players.record(config.id, config.kind, seats)
        if config.extra.get("rated"):
            if len(seats) != 4:
                raise RatedGameError("a rated table seats four signed-in people")
            await state.ratings.register(config.id, [a for _, a in seats])

    async def rate(table: FinishedTable) -> None:
        winner = table.game.winner
        if winner is not None and await state.ratings.is_rated(table.id):
            await state.ratings.apply(table.id, winner)  # once per game, whoever calls

    manager.open_hooks.append(note_seats)
    online = manager.kinds.get(ONLINE)
    if online is not None:
        manager.register(dataclasses.replace(online, finish=(*online.finish, rate)))
    await reconcile(state, site.store)


def history_endpoints() -> list[Endpoint]:
    """``GET /api/me/played`` and ``GET /api/people/{username}/games`` (game_history.py)."""
    from .game_history import MAX_PAGE, PAGE, get_my_games, get_person, get_person_games

    paging = [Param("limit", "query", "Games per page.",
                    schema={"type": "integer", "minimum": 1, "maximum": MAX_PAGE,
                            "default": PAGE}),
              Param("offset", "query", "Where the page starts (the ``next`` of the page "
                    "before).", schema={"type": "integer", "minimum": 0, "default": 0})]
    return [
        Endpoint("GET", "/api/me/played", get_my_games, "The signed-in person's finished games",
                 "Newest first, a page at a time: date, kind, rules, partner, opponents, "
                 "score, rating change, coins and the replay.", params=paging,
                 answers={200: PlayedGames},
                 refusals={401: "Not signed in.", 400: "A bad limit or offset."}),
        Endpoint("GET", "/api/people/{username}", get_person, "A person and their rating",
                 "``person`` is null when nobody has that name (a 200 either way).",
                 params=[Param("username", "path", "The person's name.", required=True)],
                 answers={200: PersonLookup}),
        Endpoint("GET", "/api/people/{username}/games", get_person_games,
                 "A person's public games and rating",
                 "Their finished games at public online tables (no practice, no private "
                 "table, no coins), newest first, a page at a time.",
                 params=[Param("username", "path", "The person's name.", required=True),
                         *paging],
                 answers={200: PlayedGames},
                 refusals={404: "Nobody by that name.", 400: "A bad limit or offset."}),
    ]


def ratings_extension() -> Extension[RatingsSite]:
    """Ratings of rated online tables, statistics from game records, the leaderboard."""
    return Extension(
        "ratings",
        endpoints=[
            Endpoint("GET", "/api/leaders", get_leaders, "The leaderboard of rated play",
                     "Established people, highest rating (``number``, from mu) first, a page at a "
                     "time: ``next`` is the offset of the next page.",
                     params=[Param("limit", "query", "Leaders per page.",
                                   schema={"type": "integer", "minimum": 1,
                                           "maximum": MAX_LEADERS, "default": LEADERS_PAGE}),
                             Param("offset", "query", "Leaders to skip.",
                                   schema={"type": "integer", "minimum": 0, "default": 0})],
                     answers={200: Leaders}, refusals={400: "A bad limit or offset."}),
            Endpoint("GET", "/api/me/stats", get_my_stats,
                     "The signed-in person's rating and statistics",
                     "Computed from the records of their latest 200 finished practice, "
                     "coin and online games.",
                     answers={200: PersonStats},
                     refusals={401: "Not signed in.",
                               429: "Too many expensive reads from this address."}),
            Endpoint("GET", "/api/games/{game_id}/ratings", get_game_ratings,
                     "Each person's rating before and after a rated game",
                     "Empty ``changes`` while the game is ``pending`` (being played, or its "
                     "result not yet applied).",
                     params=[Param("game_id", "path", "The game (table) id.", required=True)],
                     answers={200: GameRatings}, refusals={404: "Not a rated game."}),
            Endpoint("GET", "/api/me/ratings", get_my_ratings,
                     "The signed-in person's rating history",
                     "Their rating before and after each rated game, newest first.",
                     params=[Param("limit", "query", "Changes to list.",
                                   schema={"type": "integer", "minimum": 1, "maximum": 200,
                                           "default": 50})],
                     answers={200: RatingHistory}, refusals={401: "Not signed in.",
                                                             400: "A bad limit."}),
            Endpoint("GET", "/api/games/{game_id}/stats", get_game_stats,
                     "Each seat's statistics in one finished game",
                     "What a browser adds to the statistics it keeps for a guest's practice "
                     "games.",
                     params=[Param("game_id", "path", "The game (table) id.", required=True)],
                     answers={200: GameStats},
                     refusals={404: "No such game.", 409: "The game is still being played.",
                               429: "Too many expensive reads from this address."}),
            *history_endpoints(),
        ],
        pages=["/leaders", "/people/{username}"],
        parts=make_parts,
        startup=startup,
        schemas=[SeatRating],
    )
