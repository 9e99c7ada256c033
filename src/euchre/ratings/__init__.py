"""Ratings of people at rated online tables: openskill over partnerships, applied once per game."""

from .model import DEFAULT_MU, DEFAULT_SIGMA, Rating, rate_partnerships
from .service import Leader, RatedGameError, RatingService

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "Leader",
    "RatedGameError",
    "Rating",
    "RatingService",
    "rate_partnerships",
]
