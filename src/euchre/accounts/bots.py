"""Outside bots: accounts of their own, played by a program that holds a bot token.

A person's account makes a bot by name (a username nobody holds, checked like one) and gets
a token for it, shown once. The token is the program's identity: a request with
``Authorization: Bearer <token>`` acts as the bot, under the bot's name. Only the token's
SHA-256 is stored; a revoked token is refused from the moment it is revoked. A bot account
has no password (nobody signs in as it) and no coins (it cannot sit at a stake table).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..coins.ledger import in_transaction, utcnow
from ..storage.accounts_models import accounts
from ..storage.bot_models import bot_tokens, bots
from .errors import AccountError, UsernameTakenError
from .lookalikes import check_not_lookalike, keep_keys
from .service import check_username

TOKEN_PREFIX = "eb_"
"""How every bot token begins (so a leaked one is easy to recognise and search for)."""

SHOWN_PREFIX = 10
"""Characters of a token kept in the clear, to tell tokens apart in a list."""

MAX_BOTS_PER_OWNER = 10
"""Bot accounts one person may own, ever (revoking a token does not give one back)."""

NEW_BOTS_PER_DAY = 3
"""Bot accounts one person may make in 24 hours."""

MAX_LIVE_TOKENS = 10
"""Live (unrevoked) bot tokens one person may hold across all their bots."""

NO_PASSWORD = "!bot"
"""A bot account's password hash: never a valid argon2 hash, so no password matches it."""

USED_EVERY = dt.timedelta(seconds=60)
"""A token's ``last_used_at`` is written at most this often (not on every message)."""


class BotError(AccountError):
    """A refused bot operation; nothing changed."""


class BotNotFound(BotError):
    """No bot token of this person has that id."""

    code = "not_found"


class TooManyBotTokens(BotError):
    """The person holds :data:`MAX_LIVE_TOKENS` live tokens already."""

    code = "conflict"


class TooManyBots(BotError):
    """The person made their share of bot accounts (409): bots belong to their owner, and
    throw-away ones would multiply one person (issue 34)."""

    code = "conflict"


class BotTokenRefused(BotError):
    """A bearer token that is unknown or revoked (401)."""

    code = "bad_bot_token"


def hash_bot_token(token: str) -> str:
    """The SHA-256 (hex) of a bot token: all that is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def _aware(t: dt.datetime | None) -> dt.datetime | None:
    return t if t is None or t.tzinfo is not None else t.replace(tzinfo=dt.UTC)


@dataclass(frozen=True, slots=True)
class BotIdentity:
    """Who a live bot token speaks for."""

    token_id: int
    """The token's id (what a seat taken with it remembers)."""
    account_id: int
    """The bot's own account."""
    name: str
    """The bot's name (its username)."""
    owner_id: int
    """The person's account that made the bot."""


@dataclass(frozen=True, slots=True)
class BotToken:
    """A bot token as its owner sees it in a list (never the token itself)."""

    id: int
    """The token's id."""
    bot: str
    """The bot's name."""
    prefix: str
    """The token's first characters."""
    created_at: dt.datetime
    """When it was made."""
    last_used_at: dt.datetime | None
    """When a request last used it (to the minute), if ever."""
    revoked_at: dt.datetime | None
    """When it was revoked, or None while it is live."""

    def to_json(self) -> dict[str, Any]:
        """As the API shows it."""
        def iso(t: dt.datetime | None) -> str | None:
            return None if t is None else t.isoformat()
        return {"id": self.id, "bot": self.bot, "prefix": self.prefix,
                "created_at": iso(self.created_at), "last_used_at": iso(self.last_used_at),
                "revoked_at": iso(self.revoked_at), "live": self.revoked_at is None}


async def _check_bot_share(conn: AsyncConnection, owner_id: int, now: dt.datetime) -> None:
    """Refuse a new bot account past the owner's share (:class:`TooManyBots`)."""
    made = [_aware(t) for t in (await conn.scalars(
        select(bots.c.created_at).where(bots.c.owner_id == owner_id))).all()]
    if len(made) >= MAX_BOTS_PER_OWNER:
        raise TooManyBots(f"you have made {MAX_BOTS_PER_OWNER} bots, the most one person may "
                          "own: make a new token for one of them")
    if sum(1 for t in made if t is not None and now - t < dt.timedelta(days=1)) \
            >= NEW_BOTS_PER_DAY:
        raise TooManyBots(f"you made {NEW_BOTS_PER_DAY} bots in the last 24 hours: make a "
                          "new token for one of them, or a new bot tomorrow")


class BotService:
    """Make bots and their tokens, list and revoke them, and recognise a token."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """The service on ``engine``'s (migrated) database."""
        self.engine = engine
        """The database."""
        self.now = now
        """The clock."""

    async def create(self, owner_id: int, name: object) -> tuple[BotToken, str]:
        """A new token for the owner's bot called ``name`` (made now if nobody has the
        name); returns it and the token, which is never shown again. Refused: a name a
        person or another owner's bot holds (409), a bad name (400), too many tokens."""
        bot_name = check_username(name)
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)

        async def work(conn: AsyncConnection) -> BotToken:
            now = self.now()
            if await conn.scalar(select(bots.c.account_id)
                                 .where(bots.c.account_id == owner_id)) is not None:
                raise BotError("a bot cannot make bots")
            live = await conn.scalar(
                select(func.count()).select_from(bot_tokens.join(bots))
                .where(bots.c.owner_id == owner_id, bot_tokens.c.revoked_at.is_(None)))
            if int(live or 0) >= MAX_LIVE_TOKENS:
                raise TooManyBotTokens(f"you hold {MAX_LIVE_TOKENS} live bot tokens: revoke "
                                       "one first")
            row = (await conn.execute(
                select(accounts.c.id, accounts.c.username, bots.c.owner_id)
                .select_from(accounts.outerjoin(bots, bots.c.account_id == accounts.c.id))
                .where(accounts.c.username_key == bot_name.lower()))).first()
            if row is None:
                await _check_bot_share(conn, owner_id, now)
                await check_not_lookalike(conn, bot_name)
                made = await conn.execute(
                    accounts.insert().values(username=bot_name, username_key=bot_name.lower(),
                                             password_hash=NO_PASSWORD, balance=0,
                                             created_at=now).returning(accounts.c.id))
                bot_id = int(made.scalar_one())
                await keep_keys(conn, bot_id, bot_name)
                await conn.execute(bots.insert().values(account_id=bot_id, owner_id=owner_id,
                                                        created_at=now))
                shown = bot_name
            elif row.owner_id == owner_id:
                bot_id, shown = int(row.id), str(row.username)
            else:
                raise UsernameTakenError("that name is taken: choose another for your bot")
            prefix = token[:SHOWN_PREFIX]
            made = await conn.execute(bot_tokens.insert().values(
                bot_id=bot_id, token_hash=hash_bot_token(token), prefix=prefix,
                created_at=now).returning(bot_tokens.c.id))
            return BotToken(int(made.scalar_one()), shown, prefix, now, None, None)

        try:
            made = await in_transaction(self.engine, work)
        except IntegrityError:  # the name was taken meanwhile
            raise UsernameTakenError("that name is taken: choose another for your bot") from None
        return made, token

    async def tokens(self, owner_id: int) -> list[BotToken]:
        """The owner's bot tokens, newest first, revoked ones included."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(bot_tokens, accounts.c.username)
                .select_from(bot_tokens.join(bots).join(accounts,
                                                        accounts.c.id == bots.c.account_id))
                .where(bots.c.owner_id == owner_id).order_by(bot_tokens.c.id.desc()))
            return [BotToken(int(r.id), str(r.username), str(r.prefix),
                             _aware(r.created_at) or self.now(), _aware(r.last_used_at),
                             _aware(r.revoked_at)) for r in rows]

    async def revoke(self, owner_id: int, token_id: int) -> BotToken:
        """Revoke one of the owner's tokens (again: nothing changes); returns it."""
        async with self.engine.begin() as conn:
            row = (await conn.execute(
                select(bot_tokens.c.id).select_from(bot_tokens.join(bots))
                .where(bot_tokens.c.id == token_id, bots.c.owner_id == owner_id))).first()
            if row is None:
                raise BotNotFound("you have no bot token with that id")
            await conn.execute(update(bot_tokens).where(
                bot_tokens.c.id == token_id, bot_tokens.c.revoked_at.is_(None)
            ).values(revoked_at=self.now()))
        for token in await self.tokens(owner_id):
            if token.id == token_id:
                return token
        raise BotNotFound("you have no bot token with that id")  # pragma: no cover

    async def identify(self, token: str | None) -> BotIdentity | None:
        """The bot a live token speaks for, or None (unknown, malformed or revoked)."""
        if not token or len(token) > 128 or not token.startswith(TOKEN_PREFIX):
            return None
        async with self.engine.connect() as conn:
            row = (await conn.execute(
                select(bot_tokens.c.id, bot_tokens.c.last_used_at, bot_tokens.c.revoked_at,
                       bots.c.account_id, bots.c.owner_id, accounts.c.username)
                .select_from(bot_tokens.join(bots).join(accounts,
                                                        accounts.c.id == bots.c.account_id))
                .where(bot_tokens.c.token_hash == hash_bot_token(token)))).first()
        if row is None or row.revoked_at is not None:
            return None
        now = self.now()
        used = _aware(row.last_used_at)
        if used is None or now - used >= USED_EVERY:
            async with self.engine.begin() as conn:
                await conn.execute(update(bot_tokens).where(bot_tokens.c.id == row.id)
                                   .values(last_used_at=now))
        return BotIdentity(int(row.id), int(row.account_id), str(row.username),
                           int(row.owner_id))

    async def is_live(self, token_id: int) -> bool:
        """Whether the token with this id exists and is not revoked."""
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(bot_tokens.c.revoked_at)
                                      .where(bot_tokens.c.id == token_id))).first()
        return row is not None and row.revoked_at is None

    async def is_bot(self, account_id: int) -> bool:
        """Whether the account is a bot's."""
        async with self.engine.connect() as conn:
            found = await conn.scalar(select(bots.c.account_id)
                                      .where(bots.c.account_id == account_id))
        return found is not None
