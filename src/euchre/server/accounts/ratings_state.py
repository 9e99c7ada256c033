"""The ratings services a site holds, and how a request finds them: apart from the ratings
API so that the modules its routes use (``game_history``) can reach them without importing
the API that lists those routes."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import Request

from ...ratings import RatingService
from ...stats import PlayerIndex
from ..core.errors import ApiError
from ..core.site import site_of


@dataclass
class RatingsState:
    """The services behind the ratings API."""

    ratings: RatingService
    """Ratings and rated games."""
    players: PlayerIndex
    """Who sat where."""


def state_of(request: Request) -> RatingsState:
    """The site's ratings services (404 if the app has no ratings)."""
    state = site_of(request).get(RatingsState)
    if state is None:
        raise ApiError("not_available", "ratings are not available on this server")
    return state
