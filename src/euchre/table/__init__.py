"""Tables: one actor per table, its events, its pacing, and the kinds of table.

The table layer stands between the server (sockets, HTTP) and the engine and bots: it
knows the rules only through :class:`~euchre.game.GameState` and knows nothing of sockets.
"""

from __future__ import annotations

from .actor import TableActor, restore
from .errors import TableError
from .events import Event, Frame
from .fanout import Outgoing, Subscriber
from .kinds import PRACTICE, PRACTICE_KIND, TableKind, TableObserver, TurnPolicy
from .manager import TableManager
from .pacing import LoopScheduler, ManualScheduler, Pacing, Scheduler
from .seats import Seat, TableConfig

__all__ = [
    "PRACTICE",
    "PRACTICE_KIND",
    "Event",
    "Frame",
    "LoopScheduler",
    "ManualScheduler",
    "Outgoing",
    "Pacing",
    "Scheduler",
    "Seat",
    "Subscriber",
    "TableActor",
    "TableConfig",
    "TableError",
    "TableKind",
    "TableManager",
    "TableObserver",
    "TurnPolicy",
    "restore",
]
