"""Tournaments' pure parts: schedules, king's table movement, individual scores and standings;
team events' pairings (round robin, Swiss, single and double elimination) and standings;
prize pools.

Standard library and the engine only (``pyproject.toml``'s contracts); the server and the
storage build tournaments on these.
"""

from .elimination import (
    Bracket,
    Match,
    bracket_order,
    double_elimination,
    double_elimination_plan,
    single_elimination,
    single_elimination_plan,
)
from .prizes import (
    DEFAULT_PRIZE_TABLE,
    Prizes,
    check_prize_table,
    describe_prize_table,
    place_prizes,
    prizes,
)
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
from .team_pairings import MAX_TEAMS, TeamRound, round_robin, swiss_round
from .team_standings import (
    TEAM_TIE_BREAK_TEXT,
    TEAM_TIE_BREAKS,
    MatchResult,
    TeamRecord,
    TeamStanding,
    TeamTieBreak,
    describe_tie_breaks,
    rank_teams,
    team_records,
)

__all__ = [
    "DEFAULT_PRIZE_TABLE",
    "MAX_TEAMS",
    "TEAM_TIE_BREAKS",
    "TEAM_TIE_BREAK_TEXT",
    "TIE_BREAKS",
    "Bracket",
    "HandScore",
    "Match",
    "MatchResult",
    "Pair",
    "Prizes",
    "Round",
    "RoundPlay",
    "StandingsLine",
    "Table",
    "Tally",
    "TeamRecord",
    "TeamRound",
    "TeamStanding",
    "TeamTieBreak",
    "bracket_order",
    "check_prize_table",
    "describe_prize_table",
    "describe_tie_breaks",
    "double_elimination",
    "double_elimination_plan",
    "hand_points",
    "kings_table",
    "partnerships",
    "place_prizes",
    "prizes",
    "rank_teams",
    "round_robin",
    "schedule",
    "single_elimination",
    "single_elimination_plan",
    "standings",
    "swiss_round",
    "table_winner",
    "table_winner_or_last",
    "tallies",
    "team_records",
]
