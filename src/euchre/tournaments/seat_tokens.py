"""Tournament seat tokens: an entrant's key to their seats, every round (only the hash is
kept)."""

from __future__ import annotations

import hashlib
import secrets


def new_seat_token() -> str:
    """A fresh secret seat token (an entrant's key to their seats, every round)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """How a seat token is kept (its SHA-256, as at every table)."""
    return hashlib.sha256(token.encode()).hexdigest()
