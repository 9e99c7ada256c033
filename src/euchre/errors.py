"""The engine's error types."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """Raised when an action is not legal in a state; the message says why, for a player."""


class DealError(ValueError):
    """Raised when a deal is malformed (a misdeal): wrong counts, unknown or repeated cards."""


class RecordError(ValueError):
    """Raised when a game record cannot be read."""


class DomainError(Exception):
    """A request the table, coins or accounts layer refuses; nothing changed.

    ``code`` is a short stable word for programs (the server maps it to an HTTP status);
    the message is for people. The layers that raise it know nothing of HTTP.
    """

    code = "bad_request"
    """The refusal's stable code."""

    def __init__(self, message: str) -> None:
        """A refusal with a message a person understands."""
        super().__init__(message)
        self.message = message
        """Why it was refused."""
