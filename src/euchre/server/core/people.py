"""Who is asking: the signed-in person behind a request, for tables that record accounts.

The session cookie is ``SameSite=Strict`` (never sent by another site's request), so an
ordinary table may take the account from it alone; a rated table (where a seat changes
the person's rating) also wants the session's CSRF token in ``X-CSRF-Token``, like every
other request that changes an account.

A program playing an outside bot sends ``Authorization: Bearer <bot token>`` instead
(:mod:`euchre.accounts.bots`): the request acts as the bot, under the bot's name, with no
cookie and no CSRF token (a browser never adds that header by itself, so another site
cannot forge it). An unknown or revoked token is refused (401), never taken as a guest.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from starlette.requests import HTTPConnection, Request

from ...accounts import (
    COOKIE_NAME,
    CSRF_HEADER,
    CsrfError,
    NotSignedInError,
)
from ...accounts.bots import BotIdentity, BotTokenRefused
from ...table.actor.seats import AccountKey, BotKey, SeatKey, TableConfig
from .site import core_site


@dataclass(frozen=True)
class Person:
    """A signed-in person."""

    account_id: int
    """The account's id."""
    username: str
    """The account's name (their name at every table)."""
    bot: BotIdentity | None = None
    """The outside bot's token, when a program plays as a bot (else None: a person)."""

    @property
    def bot_token(self) -> int | None:
        """The id of the bot token the request came with, if a bot's."""
        return self.bot.token_id if self.bot is not None else None


async def person_of(request: HTTPConnection, *, csrf: bool = False) -> Person | None:
    """The signed-in person making ``request``, or None for a guest; with ``csrf`` a
    signed-in request without the right ``X-CSRF-Token`` is refused (:class:`CsrfError`)."""
    site = core_site(request)
    sessions, accounts = site.sessions, site.account_service
    if sessions is None or accounts is None:
        return None
    bearer = bearer_token(request)
    if bearer is not None:
        bot = await bot_of(request, bearer)
        return Person(bot.account_id, bot.name, bot)
    cookie = request.cookies.get(COOKIE_NAME)
    session = await sessions.find(cookie) if cookie else None
    if session is None:
        return None
    if csrf and not session.csrf_ok(request.headers.get(CSRF_HEADER)):
        raise CsrfError("the X-CSRF-Token header is missing or wrong: reload the page")
    try:
        account = await accounts.get(session.account_id)
    except NotSignedInError:
        return None
    return Person(int(account.id), str(account.username))


def bearer_token(request: HTTPConnection) -> str | None:
    """The token of an ``Authorization: Bearer`` header, if the request has one."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise BotTokenRefused("the Authorization header must be 'Bearer <bot token>'")
    return token.strip()


async def bot_of(request: HTTPConnection, token: str) -> BotIdentity:
    """The bot a live bearer token speaks for (:class:`BotTokenRefused`: 401 otherwise)."""
    service = core_site(request).bots
    found = await service.identify(token) if service is not None else None
    if found is None:
        raise BotTokenRefused("this bot token is unknown or was revoked")
    return found
async def account_key_of(connection: HTTPConnection, *, csrf: bool = False
                         ) -> AccountKey | None:
    """The signed-in person behind a request or a socket as the key to their seats, or
    None for a guest (:func:`person_of`)."""
    person = await person_of(connection, csrf=csrf)
    if person is None or person.bot is not None:  # a bot's seat opens with its token only
        return None
    return AccountKey(person.account_id, person.username)


async def seat_key(request: HTTPConnection, token: str | None, table_id: str | None = None
                   ) -> SeatKey | None:
    """What opens the caller's seat: the token sent, else the signed-in person (with the
    session's CSRF token: this changes a seat), else None (a guest without a token: the
    seat's own refusal follows). With ``table_id`` the person's key also holds the seats
    there they took as a guest and bound to the account at sign-in, as a socket's does."""
    if token is not None:
        return token
    if bearer_token(request) is not None:  # an outside bot: its own seats, by its account
        bot = await bot_of(request, str(bearer_token(request)))
        return BotKey(bot.account_id)
    key = await account_key_of(request, csrf=True)
    claims = core_site(request).claims
    if key is not None and table_id is not None and claims is not None:
        key = dataclasses.replace(key, claimed=await claims.seats_of(key.account_id, table_id))
    return key


def key_text(key: AccountKey | None) -> str:
    """``key`` as one word for the relay between processes (usernames have no spaces nor
    colons)."""
    if key is None:
        return ""
    return f"{key.account_id}:{key.username}:{','.join(map(str, key.claimed))}"


def key_from_text(text: str) -> AccountKey | None:
    """Read :func:`key_text` output (the relay's own channel, not a client's words)."""
    number, _, rest = text.partition(":")
    username, _, claimed = rest.partition(":")
    if not (number.isdigit() and username):
        return None
    seats = tuple(int(s) for s in claimed.split(",") if s.isdigit())
    return AccountKey(int(number), username, seats)


async def seat_person(request: Request, config: TableConfig, seat: int) -> TableConfig:
    """``config`` with the signed-in person (if any) recorded at ``seat``."""
    person = await person_of(request)
    if person is None:
        return config
    seats = list(config.seats)
    seats[seat] = dataclasses.replace(seats[seat], account=person.username,
                                      account_id=person.account_id, name=(
                                          person.username if person.bot else seats[seat].name),
                                      bot_token=person.bot_token)
    return dataclasses.replace(config, seats=(seats[0], seats[1], seats[2], seats[3]))
