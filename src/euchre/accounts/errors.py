"""The account service's errors: a message for the person and a stable code each."""

from __future__ import annotations

from ..errors import DomainError


class AccountError(DomainError):
    """A refused account operation; nothing changed."""


class BadUsernameError(AccountError):
    """The username is not allowed."""

    code = "bad_username"


class BadPasswordError(AccountError):
    """The new password is not allowed (too short, too long)."""

    code = "bad_password"


class UsernameTakenError(AccountError):
    """Another account has that username."""

    code = "username_taken"


class WrongCredentialsError(AccountError):
    """No account with that username and password (which one is wrong is not said)."""

    code = "wrong_credentials"


class NotSignedInError(AccountError):
    """The request needs a signed-in session (none, expired or forged cookie)."""

    code = "not_signed_in"


class CsrfError(AccountError):
    """The request's CSRF token is missing or wrong."""

    code = "csrf"


class RateLimitedError(AccountError):
    """Too many failed sign-ins, or new accounts from one address; try again later."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int) -> None:
        """The error with the seconds to wait."""
        super().__init__(message)
        self.retry_after = retry_after
        """Seconds until the next attempt is allowed."""
