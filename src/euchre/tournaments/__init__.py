"""Online tournaments at the site's own tables: progressive (rotating partners or king's
table), and team events of fixed pairs (round robin, Swiss, single and double elimination).

:class:`TournamentService` keeps them in the database; the server opens each round's tables
and reports their ends (``euchre.server.tournaments``).
"""

from .errors import (
    TournamentConflict,
    TournamentError,
    TournamentForbidden,
    TournamentNotFound,
)
from .service import (
    ROUND_TIME,
    RoundTable,
    Seated,
    TournamentService,
    TournamentSettings,
    computer_name,
    hand_scores,
)

__all__ = [
    "ROUND_TIME",
    "RoundTable",
    "Seated",
    "TournamentConflict",
    "TournamentError",
    "TournamentForbidden",
    "TournamentNotFound",
    "TournamentService",
    "TournamentSettings",
    "computer_name",
    "hand_scores",
]
