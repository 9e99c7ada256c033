"""Messages from a client over the table socket, parsed into typed values with clear errors.

Every client message is a JSON object with a ``type``: ``join``, ``action``, ``seed``,
``hint`` or ``ping``. Anything else gets an ``error`` message back and changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE_BYTES = 4096
"""Longer client messages are refused unread."""


class MessageError(ValueError):
    """A client message that is not valid JSON or not a message of the protocol."""


@dataclass(frozen=True)
class Join:
    """Take a seat with its token; ``since``: the last version the client has."""

    token: str
    """The seat's secret token (from ``POST /api/tables``)."""
    since: int | None = None
    """Send only the events after this version (if still kept), else a snapshot."""


@dataclass(frozen=True)
class Act:
    """Make a move, in action notation (``play JH``, ``order``, ``call S alone`` ...)."""

    action: str
    """The action text."""


@dataclass(frozen=True)
class Seed:
    """A person's shuffle seed for the next hand, sent after its table commitment."""

    hand_number: int
    """The hand the seed is for (the TABLE's ``next_commitment.hand_number``)."""
    seed: str
    """16 to 128 lower-case hex digits (the page sends 32 random bytes)."""


@dataclass(frozen=True)
class Hint:
    """Ask for the computer's advice on the current decision."""


@dataclass(frozen=True)
class Ping:
    """Keep the connection alive; answered with ``pong``."""


ClientMessage = Join | Act | Seed | Hint | Ping
"""Any message a client may send."""

_TYPES = ("join", "action", "seed", "hint", "ping")


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Parse one client message; raises :class:`MessageError` saying what is wrong."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise MessageError(f"message too long (over {MAX_MESSAGE_BYTES} bytes)")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise MessageError("not JSON: send one JSON object per message") from None
    if not isinstance(data, dict):
        raise MessageError('a message must be a JSON object with a "type"')
    kind = data.get("type")
    if kind not in _TYPES:
        raise MessageError(f"unknown message type {kind!r}: use one of {', '.join(_TYPES)}")
    if kind == "join":
        _only(data, "token", "since")
        token = data.get("token")
        if not isinstance(token, str) or not token:
            raise MessageError('join needs "token": the seat\'s token as a string')
        since = data.get("since")
        if since is not None and (not isinstance(since, int) or isinstance(since, bool)
                                  or since < 0):
            raise MessageError('"since" must be a version number (0 or more) or null')
        return Join(token, since)
    if kind == "action":
        _only(data, "action")
        action = data.get("action")
        if not isinstance(action, str) or not action.strip():
            raise MessageError('action needs "action": a move such as "play JH" or "pass"')
        return Act(action)
    if kind == "seed":
        _only(data, "hand_number", "seed")
        number, seed = data.get("hand_number"), data.get("seed")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise MessageError('seed needs "hand_number": the hand it is for (1 or more)')
        if not isinstance(seed, str) or not seed:
            raise MessageError('seed needs "seed": hex digits as a string')
        return Seed(number, seed)
    _only(data)
    return Hint() if kind == "hint" else Ping()


def _only(data: dict[str, Any], *allowed: str) -> None:
    extra = sorted(set(data) - {"type", *allowed})
    if extra:
        raise MessageError(f"unexpected field {extra[0]!r} in a {data['type']} message")


def error_message(message: str, *, code: str = "error") -> dict[str, Any]:
    """The server's reply to a refused message (nothing changed)."""
    return {"type": "error", "code": code, "message": message}
