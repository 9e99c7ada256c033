"""The outside bots' models: make a bot token, list and revoke them, who a token is."""

from __future__ import annotations

from typing import Any, ClassVar

from msgspec import Struct

from .common import Request


class BotTokenRequest(Request):
    """``POST /api/me/bots``: a new token for the bot called ``name`` (made now if nobody
    has the name; a bot of yours gets another token)."""

    name: str
    """The bot's name: 3-24 letters, digits, ``_``, ``-`` or ``.`` (a username)."""

    what: ClassVar[str] = "a bot token request"
    refusals: ClassVar[dict[str, Any]] = {"name": "name must be the bot's name (a string)"}


class BotTokenInfo(Struct):
    """A bot token as its owner sees it (never the token itself)."""

    id: int
    bot: str
    """The bot's name."""
    prefix: str
    """The token's first characters, to tell tokens apart."""
    created_at: str
    last_used_at: str | None
    """When a request last used it (to the minute), if ever."""
    revoked_at: str | None
    live: bool
    """False once revoked."""


class BotTokenCreated(BotTokenInfo):
    """A new bot token: ``token`` is shown this once and never again."""

    token: str = ""
    """The secret: ``Authorization: Bearer <token>``. Only its hash is stored."""
    notice: str = ""


class BotTokens(Struct):
    """The signed-in person's bot tokens, newest first (revoked ones too)."""

    tokens: list[BotTokenInfo]


class BotMe(Struct):
    """``GET /api/bot``: who a bearer token speaks for."""

    name: str
    """The bot's name (its name at every table, marked as a bot)."""
    bot: bool = True
    token_id: int = 0
    """The token's id (what its owner revokes)."""
