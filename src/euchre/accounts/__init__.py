"""Accounts: argon2 passwords, server-side sessions, CSRF tokens (the sign-in and sign-up
rate limits are in :mod:`euchre.server.core.guards`)."""

from .errors import (
    AccountError,
    BadPasswordError,
    BadUsernameError,
    CsrfError,
    NotSignedInError,
    RateLimitedError,
    UsernameTakenError,
    WrongCredentialsError,
)
from .passwords import Passwords
from .service import Account, AccountService
from .sessions import COOKIE_NAME, CSRF_HEADER, LoginSession, LoginSessionStore

__all__ = [
    "COOKIE_NAME",
    "CSRF_HEADER",
    "Account",
    "AccountError",
    "AccountService",
    "BadPasswordError",
    "BadUsernameError",
    "CsrfError",
    "LoginSession",
    "LoginSessionStore",
    "NotSignedInError",
    "Passwords",
    "RateLimitedError",
    "UsernameTakenError",
    "WrongCredentialsError",
]
