"""The account service's errors: a message for the person and an HTTP status each."""

from __future__ import annotations


class AccountError(Exception):
    """A refused account operation; nothing changed."""

    status = 400
    """The HTTP status the API answers with."""

    def __init__(self, message: str) -> None:
        """An error with a message a person understands."""
        super().__init__(message)
        self.message = message
        """Why it was refused."""


class BadUsernameError(AccountError):
    """The username is not allowed."""


class BadPasswordError(AccountError):
    """The new password is not allowed (too short, too long)."""


class UsernameTakenError(AccountError):
    """Another account has that username."""

    status = 409


class WrongCredentialsError(AccountError):
    """No account with that username and password (which one is wrong is not said)."""

    status = 401


class NotSignedInError(AccountError):
    """The request needs a signed-in session (none, expired or forged cookie)."""

    status = 401


class CsrfError(AccountError):
    """The request's CSRF token is missing or wrong."""

    status = 403


class RateLimitedError(AccountError):
    """Too many failed sign-ins, or new accounts from one address; try again later."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        """The error with the seconds to wait."""
        super().__init__(message)
        self.retry_after = retry_after
        """Seconds until the next attempt is allowed."""
