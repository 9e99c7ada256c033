"""Euchre nights in a room: the host's evening of real tables, scored from phones."""

from .service import NightConflict, NightError, NightNotFound, NightService, NotTheHost

__all__ = ["NightConflict", "NightError", "NightNotFound", "NightService", "NotTheHost"]
