"""The coin service's errors: each carries a message for the player and an HTTP status."""

from __future__ import annotations


class CoinsError(Exception):
    """A coin operation that was refused; nothing changed."""

    status = 400
    """The HTTP status the API answers with."""

    def __init__(self, message: str) -> None:
        """An error with a message a player understands."""
        super().__init__(message)
        self.message = message
        """Why the operation was refused."""


class UnknownAccountError(CoinsError):
    """No account has that id."""

    status = 404


class InsufficientCoinsError(CoinsError):
    """The balance is smaller than the charge; balances never go below zero."""

    status = 409


class IdempotencyConflictError(CoinsError):
    """The idempotency key was already used for a different operation."""

    status = 409


class BadStakeError(CoinsError):
    """The stake is not one of the offered stakes."""

    status = 400


class AlreadyPlayingError(CoinsError):
    """The account already has an active coin game (one at a time)."""

    status = 409

    def __init__(self, message: str, table_id: str) -> None:
        """The error, naming the table the account is playing at."""
        super().__init__(message)
        self.table_id = table_id
        """The active table."""


class NotActiveError(CoinsError):
    """The coin game is over (or was never this account's)."""

    status = 409


class TopUpRefusedError(CoinsError):
    """The free daily top-up is not available now."""

    status = 409
