"""The engine's error types."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """Raised when an action is not legal in a state; the message says why, for a player."""


class DealError(ValueError):
    """Raised when a deal is malformed (a misdeal): wrong counts, unknown or repeated cards."""


class RecordError(ValueError):
    """Raised when a game record cannot be read."""
