"""Ratings of people at rated online tables: openskill over partnerships, applied once per game."""

from .model import DEFAULT_MU, DEFAULT_SIGMA, Rating, rate_partnerships
from .service import (
    ESTABLISHED_GAMES,
    ESTABLISHED_OPPONENTS,
    Leader,
    RatedGameError,
    RatingService,
    Standing,
)

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "ESTABLISHED_GAMES",
    "ESTABLISHED_OPPONENTS",
    "Leader",
    "RatedGameError",
    "Rating",
    "RatingService",
    "Standing",
    "rate_partnerships",
]
