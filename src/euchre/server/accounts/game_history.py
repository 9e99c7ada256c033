"""A person's finished games, newest first, a page at a time: date, kind, rules, partner,
opponents, score, rating change, coins and the replay (``GET /api/me/played``), and a
person's public games on their own page (``GET /api/people/{username}/games``).

The list is read from the database: the index of who sat where (``game_players``, and
``coin_games``) in order, each game's stored record for the seats and the score, the
``rating_changes`` and the coin ledger of that table. Only finished games are listed; the
index also holds games still being played, so a page reads the index in batches until it
has enough finished ones, and ``next`` is the index's offset after the last one read.
A public list shows only games at public online tables (never practice, coin tables
against the computer or a private table) and no coins.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from ...coins.ledger import Ledger
from ...errors import RecordError
from ...hand import SEAT_NAMES
from ...ratings.model import Rating
from ...record import GameRecord
from ...stats.index import PlayedGame
from ...storage.base import FINISHED, GameStore, StoredGame
from ...table.actor.seats import TableConfig
from ...table.kinds.online import ONLINE
from ..core.encoder import json_answer
from ..core.errors import ApiError
from ..tables.api import int_param
from ..wire.online import SeatRating
from ..wire.ratings import (
    PersonCard,
    PersonLookup,
    PlayedGameItem,
    PlayedGames,
    PlayedSeat,
    RatingMove,
)
from . import accounts_api
from .ratings_state import RatingsState, ratings_site, state_of

PAGE = 20
"""Games a page lists when the request names no ``limit``."""

MAX_PAGE = 50
"""The most games one page lists."""

BATCH = 50
"""Index rows read at a time while filling a page."""

MAX_BATCHES = 10
"""Batches one page reads at most (then ``next`` goes on from where it stopped)."""


@dataclass(frozen=True)
class _Found:
    """A finished game of the index, with what its list entry needs."""

    played: PlayedGame
    stored: StoredGame
    config: TableConfig


def _is_public(config: TableConfig) -> bool:
    """A game anyone may see on a person's page: an online table that was not private."""
    return config.kind == ONLINE and not config.extra.get("private", False)


async def _finished(state: RatingsState, store: GameStore, account_id: int, limit: int,
                    offset: int, public: bool) -> tuple[list[_Found], int | None]:
    """Up to ``limit`` finished games from the index after ``offset``, and the offset to go
    on from (None: the index is read to its end)."""
    found: list[_Found] = []
    position = offset
    for _ in range(MAX_BATCHES):
        batch = await state.players.games_of(account_id, BATCH, position)
        for i, played in enumerate(batch):
            stored = await store.get(played.game_id)
            if stored is None or stored.status != FINISHED or "config" not in stored.meta:
                continue
            config = TableConfig.from_json(stored.meta["config"])
            if public and not _is_public(config):
                continue
            found.append(_Found(played, stored, config))
            if len(found) == limit:
                after = position + i + 1
                more = i + 1 < len(batch) or len(batch) == BATCH
                return found, after if more else None
        if len(batch) < BATCH:
            return found, None
        position += len(batch)
    return found, position


def _seat(config: TableConfig, index: int) -> PlayedSeat:
    """Seat ``index`` as the list shows it: a computer by its one name at the table, its real
    seat ("North (computer)"; stored as "North (easy)", whose level the table shows apart)."""
    seat = config.seats[index]
    computer = seat.is_bot() and not seat.is_outside_bot()
    name = f"{SEAT_NAMES[index]} (computer)" if computer else seat.name
    return PlayedSeat(name=name, computer=computer, bot=seat.is_outside_bot())


def _item(found: _Found, rating: tuple[Rating, Rating] | None, coins: int | None
          ) -> PlayedGameItem:
    seat, config, stored = found.played.seat, found.config, found.stored
    score: list[int] | None = None
    result = "ended"
    try:
        game = GameRecord.from_json(stored.record).replay()
    except RecordError:
        game = None
    if game is not None:
        mine = seat % 2
        score = [game.score[mine], game.score[1 - mine]]
        if game.winner is not None:
            result = "won" if game.winner == mine else "lost"
    ended = dt.datetime.fromtimestamp(stored.updated_at, dt.UTC)
    return PlayedGameItem(
        id=stored.id, finished=ended.isoformat(), kind=found.played.kind, preset=config.preset,
        seat=seat, partner=_seat(config, (seat + 2) % 4),
        opponents=[_seat(config, (seat + 1) % 4), _seat(config, (seat + 3) % 4)],
        score=score, result=result,  # type: ignore[arg-type]
        rating=None if rating is None else RatingMove(before=rating[0].number,
                                                      after=rating[1].number),
        coins=coins, replay=f"/replay/{stored.id}")


async def played_games(request: Request, account_id: int, public: bool
                       ) -> tuple[list[PlayedGameItem], int, int, int | None]:
    """One page of the account's finished games (the request's ``limit`` and ``offset``):
    (games, limit, offset, next)."""
    state = state_of(request)
    limit = int_param(request, "limit", PAGE, 1, MAX_PAGE)
    offset = int_param(request, "offset", 0, 0, 10**9)
    found, after = await _finished(state, ratings_site(request).store, account_id, limit, offset,
                                   public)
    ids: Sequence[str] = [f.stored.id for f in found]
    changes = await state.ratings.changes_in(account_id, ids)
    coins: dict[str, int] = {}
    if not public:
        coins = await Ledger(accounts_api.state_of(request).engine).net_by_table(account_id, ids)
    games = [_item(f, (changes[f.stored.id].before, changes[f.stored.id].after)
                   if f.stored.id in changes else None, coins.get(f.stored.id))
             for f in found]
    return games, limit, offset, after


async def get_my_games(request: Request) -> Response:
    """``GET /api/me/played?limit=N&offset=K``: the signed-in person's finished games."""
    session = await accounts_api.signed_in(request, csrf=False)
    games, limit, offset, after = await played_games(request, session.account_id, False)
    return json_answer(PlayedGames(games=games, limit=limit, offset=offset, next=after))


async def get_person_games(request: Request) -> Response:
    """``GET /api/people/{username}/games?limit=N&offset=K``: a person's public games (at
    public online tables), their rating, no coins."""
    username = request.path_params["username"]
    account = await accounts_api.state_of(request).accounts.find(username)
    if account is None:
        raise ApiError("no_person", f"nobody is called {username!r} here")
    games, limit, offset, after = await played_games(request, account.id, True)
    return json_answer(PlayedGames(games=games, limit=limit, offset=offset, next=after,
                                   username=account.username,
                                   rating=await _rating_of(request, account.id)))


async def _rating_of(request: Request, account_id: int) -> SeatRating | None:
    """The account's rating with whether it is provisional (None: unrated)."""
    ratings = state_of(request).ratings
    rating = (await ratings.of([account_id])).get(account_id)
    if rating is None:
        return None
    provisional = (await ratings.provisional_of([account_id]))[account_id]
    return SeatRating(**rating.to_json(), provisional=provisional)


async def get_person(request: Request) -> Response:
    """``GET /api/people/{username}``: the person and their rating, or ``person: null``."""
    account = await accounts_api.state_of(request).accounts.find(
        request.path_params["username"])
    if account is None:
        return json_answer(PersonLookup(person=None))
    return json_answer(PersonLookup(person=PersonCard(
        username=account.username, rating=await _rating_of(request, account.id))))
