"""Ratings of people at rated online tables: openskill over partnerships, applied once per game."""

from .model import DEFAULT_MU, DEFAULT_SIGMA, Rating, rate_partnerships
from .service import (
    ESTABLISHED_GAMES,
    ESTABLISHED_OPPONENTS,
    LeaderboardRow,
    RatedGameError,
    RatingService,
    RatingStanding,
)

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "ESTABLISHED_GAMES",
    "ESTABLISHED_OPPONENTS",
    "LeaderboardRow",
    "RatedGameError",
    "Rating",
    "RatingService",
    "RatingStanding",
    "rate_partnerships",
]
