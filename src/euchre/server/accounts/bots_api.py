"""Outside bots over HTTP: a person makes bot tokens, lists and revokes them; a program
asks who its token is.

An extension after the accounts extension (it uses the same database). A bot token is
shown once; requests made with ``Authorization: Bearer <token>`` act as the bot wherever
the site asks who is asking (:func:`euchre.server.core.people.person_of`): opening and joining
online and practice tables. Revoking a token refuses it at once, over HTTP and on every
socket a bot plays through (:mod:`euchre.server.tables.bot_gate`), in every process of the site.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ...accounts.bots import BotService, BotToken
from ...broker import Broker, BrokerUnavailable
from ..core.encoder import json_answer
from ..core.errors import ApiError
from ..core.people import bearer_token, bot_of
from ..core.registry import Endpoint, Extension, Param
from ..core.site import needed
from ..tables.api import read_body
from ..tables.bot_gate import REVOKED_CHANNEL, BotGate
from ..wire.bots import BotMe, BotTokenCreated, BotTokenInfo, BotTokenRequest, BotTokens
from .accounts_api import AccountsSite, accounts_site, signed_in

log = logging.getLogger(__name__)

SHOWN_ONCE = ("Keep this token secret: it is shown only now. A program that holds it plays "
              "as your bot; revoke it on your account page if it leaks.")
"""The notice that comes with a new token."""


def service_of(request: Request) -> BotService:
    """The site's bot service (404 if the app has no outside bots)."""
    service = accounts_site(request).bots
    if service is None:
        raise ApiError("not_available", "outside bots are not available on this server")
    return service


def _info(token: BotToken) -> BotTokenInfo:
    return msgspec.convert(token.to_json(), BotTokenInfo)


async def post_bot_token(request: Request) -> Response:
    """``POST /api/me/bots {"name"}``: a new token for the signed-in person's bot."""
    service = service_of(request)
    session = await signed_in(request, csrf=True)
    body = await read_body(request, BotTokenRequest)
    made, token = await service.create(session.account_id, body.name)
    return json_answer(msgspec.convert({**made.to_json(), "token": token,
                                        "notice": SHOWN_ONCE}, BotTokenCreated), 201)


async def get_bot_tokens(request: Request) -> Response:
    """``GET /api/me/bots``: the signed-in person's bot tokens (never a token itself)."""
    service = service_of(request)
    session = await signed_in(request, csrf=False)
    return json_answer(BotTokens(tokens=[_info(t) for t in
                                         await service.tokens(session.account_id)]))


async def delete_bot_token(request: Request) -> Response:
    """``DELETE /api/me/bots/{token_id}``: revoke one of the person's tokens, at once."""
    service = service_of(request)
    session = await signed_in(request, csrf=True)
    try:
        token_id = int(request.path_params["token_id"])
    except ValueError:
        raise ApiError("not_found", "you have no bot token with that id") from None
    revoked = await service.revoke(session.account_id, token_id)
    site = accounts_site(request)
    site.gate.revoke(token_id)  # this process's sockets, now
    try:  # the other processes' sockets
        await site.broker.publish(REVOKED_CHANNEL, str(token_id))
    except BrokerUnavailable as e:  # their sockets are refused at the next join
        log.warning("could not announce the revocation of bot token %s: %s", token_id, e)
    await site.gate.revoked_here(token_id)  # its tournament seats go to computers
    return json_answer(_info(revoked))


async def get_bot(request: Request) -> Response:
    """``GET /api/bot`` with ``Authorization: Bearer <token>``: who the token speaks for."""
    token = bearer_token(request)
    if token is None:
        raise ApiError("no_token", "send the bot token: Authorization: Bearer <token>")
    bot = await bot_of(request, token)
    return json_answer(BotMe(name=bot.name, token_id=bot.token_id))


async def _hear_revocations(broker: Broker, gate: BotGate) -> None:
    """Close this process's sockets of tokens revoked in another process."""
    while True:
        try:
            async with broker.subscribe(REVOKED_CHANNEL) as sub:
                async for message in sub:
                    text = message.decode() if isinstance(message, bytes) else message
                    with contextlib.suppress(ValueError):
                        gate.revoke(int(text))
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the broker went away: listen again shortly
            log.warning("listening for revoked bot tokens failed: %s", e)
            await asyncio.sleep(1.0)


async def make_parts(site: AccountsSite) -> None:
    """The bot service on the accounts' database."""
    site.bots = BotService(needed(site.accounts, "bots", "accounts").engine)


async def startup(site: AccountsSite) -> None:
    """Listen for revocations in the site's other processes until the site stops."""
    site.background.start(_hear_revocations(site.broker, site.gate))


_CSRF = {401: "Not signed in (no session, or it expired).",
         403: "The X-CSRF-Token header is missing or wrong."}


def bots_extension() -> Extension[AccountsSite]:
    """Outside bots: bot tokens, and who a token is."""
    return Extension(
        "bots",
        endpoints=[
            Endpoint("POST", "/api/me/bots", post_bot_token, "Make a bot token",
                     "A token for the signed-in person's bot called ``name`` (the bot is made "
                     "if nobody has the name). The token is shown once.",
                     body=BotTokenRequest, answers={201: BotTokenCreated},
                     refusals={**_CSRF, 400: "A bad name.",
                               409: "The name is taken, or too many live tokens."}),
            Endpoint("GET", "/api/me/bots", get_bot_tokens, "The person's bot tokens",
                     answers={200: BotTokens}, refusals={401: _CSRF[401]}),
            Endpoint("DELETE", "/api/me/bots/{token_id}", delete_bot_token,
                     "Revoke a bot token (refused at once everywhere)",
                     params=[Param("token_id", "path", "The token's id.")],
                     answers={200: BotTokenInfo},
                     refusals={**_CSRF, 404: "No bot token of yours has that id."}),
            Endpoint("GET", "/api/bot", get_bot, "Who a bot token speaks for",
                     "Send ``Authorization: Bearer <token>``.",
                     params=[Param("Authorization", "header", "``Bearer <bot token>``.",
                                   required=True)],
                     answers={200: BotMe},
                     refusals={401: "No token, or an unknown or revoked one."},
                     bot_token=True),
        ],
        parts=make_parts,
        startup=startup,
    )
