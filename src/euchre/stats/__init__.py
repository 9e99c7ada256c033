"""People's statistics, computed from the stored game records (never counted by hand)."""

from .counts import COUNT_NAMES, Counts, game_counts
from .index import PlayedGame, PlayerIndex
from .service import game_seat_stats, person_stats

__all__ = [
    "COUNT_NAMES",
    "Counts",
    "PlayedGame",
    "PlayerIndex",
    "game_counts",
    "game_seat_stats",
    "person_stats",
]
