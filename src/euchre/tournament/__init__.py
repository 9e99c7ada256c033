"""Tournaments' pure parts: schedules, king's table movement, individual scores and standings.

Standard library and the engine only (``pyproject.toml``'s contracts); the server and the
storage build tournaments on these.
"""

from .schedule import Pair, Round, Table, kings_table, partnerships, schedule
from .scoring import (
    TIE_BREAKS,
    HandScore,
    RoundPlay,
    StandingsLine,
    Tally,
    hand_points,
    standings,
    table_winner,
    table_winner_or_last,
    tallies,
)

__all__ = [
    "TIE_BREAKS",
    "HandScore",
    "Pair",
    "Round",
    "RoundPlay",
    "StandingsLine",
    "Table",
    "Tally",
    "hand_points",
    "kings_table",
    "partnerships",
    "schedule",
    "standings",
    "table_winner",
    "table_winner_or_last",
    "tallies",
]
