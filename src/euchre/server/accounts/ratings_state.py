"""The ratings services a site holds, and how a request finds them: apart from the ratings
API so that the modules its routes use (``game_history``) can reach them without importing
the API that lists those routes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, cast

from starlette.requests import Request

from ...ratings import RatingService
from ...stats import PlayerIndex
from ..core.errors import ApiError
from ..core.site import kept_site
from .accounts_api import AccountsSite


@dataclass
class RatingsState:
    """The services behind the ratings API."""

    ratings: RatingService
    """Ratings and rated games."""
    players: PlayerIndex
    """Who sat where."""


class RatingsSite(AccountsSite, Protocol):
    """What ratings and statistics read of the site."""

    ratings: RatingsState | None
    """The ratings' services (None: the app has no ratings)."""


def ratings_site(conn: Any) -> RatingsSite:
    """The site of ``conn`` (a request, a socket or the app), as ratings read it."""
    return cast(RatingsSite, kept_site(conn))


def state_of(request: Request) -> RatingsState:
    """The site's ratings services (404 if the app has no ratings)."""
    state = ratings_site(request).ratings
    if state is None:
        raise ApiError("not_available", "ratings are not available on this server")
    return state
