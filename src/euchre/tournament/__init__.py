"""Tournaments' pure parts: schedules, king's table movement, individual scores and standings.

Standard library and the engine only (``pyproject.toml``'s contracts); the server and the
storage build tournaments on these.
"""

from .schedule import Pair, Round, Table, kings_table, partnerships, schedule

__all__ = ["Pair", "Round", "Table", "kings_table", "partnerships", "schedule"]
