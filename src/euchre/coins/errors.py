"""The coin service's errors: each carries a message for the player and a stable code."""

from __future__ import annotations

from ..errors import DomainError


class CoinsError(DomainError):
    """A coin operation that was refused; nothing changed."""


class UnknownAccountError(CoinsError):
    """No account has that id."""

    code = "unknown_account"


class InsufficientCoinsError(CoinsError):
    """The balance is smaller than the charge; balances never go below zero."""

    code = "insufficient_coins"


class IdempotencyConflictError(CoinsError):
    """The idempotency key was already used for a different operation."""

    code = "idempotency_conflict"


class BadStakeError(CoinsError):
    """The stake is not one of the offered stakes."""

    code = "bad_stake"


class AlreadyPlayingError(CoinsError):
    """The account already has an active coin game (one at a time)."""

    code = "already_playing"

    def __init__(self, message: str, table_id: str) -> None:
        """The error, naming the table the account is playing at."""
        super().__init__(message)
        self.table_id = table_id
        """The active table."""


class NotActiveError(CoinsError):
    """The coin game is over (or was never this account's)."""

    code = "not_active"


class TopUpRefusedError(CoinsError):
    """The free daily top-up is not available now."""

    code = "top_up_refused"
