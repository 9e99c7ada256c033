"""Euchre nights in a room over HTTP: the host's night, a table's card by its code, the log.

An extension after the accounts extension (it uses the same database and the signed-in
host). Pages: ``/nights`` (the host's nights and the form for a new one), ``/nights/{id}``
(the night: names, each round's tables and codes for the host, corrections, standings, the
log), ``/nights/{id}/screen`` (standings to project) and ``/score`` (a table's phone).
"""

from __future__ import annotations

from typing import Any, Protocol, cast

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ...accounts import COOKIE_NAME
from ...nights import NightNotFound, NightService
from ..accounts.accounts_api import AccountsSite, signed_in, state_of
from ..core.encoder import json_answer
from ..core.errors import ApiError
from ..core.guards import Counted, hit_all, household_of, limits_of
from ..core.registry import Endpoint, Extension, Param
from ..core.site import kept_site, needed
from ..tables.api import read_body
from ..wire.nights import (
    ConfirmRequest,
    CorrectionRequest,
    HandEntry,
    NamesRequest,
    NightCreated,
    NightList,
    NightLog,
    NightRequest,
    NightState,
    TableCard,
)

CODE_MISSES = 30
"""Unknown table codes one household (address, or IPv6 /64) may try in :data:`CODE_WINDOW`:
a room's phones mistype a few; guessing one of about a billion codes needs far more."""
CODE_WINDOW = 600.0
"""Seconds."""


class NightsSite(AccountsSite, Protocol):
    """What euchre nights read of the site."""

    nights: NightService | None
    """Euchre nights in a room (None: the app has none)."""


def nights_site(conn: Any) -> NightsSite:
    """The site of ``conn`` (a request, a socket or the app), as euchre nights read it."""
    return cast(NightsSite, kept_site(conn))


def service_of(request: Request) -> NightService:
    """The site's night service (404 if the app has no euchre nights)."""
    service = nights_site(request).nights
    if service is None:
        raise ApiError("not_available", "euchre nights are not available on this server")
    return service


def _night_id(request: Request) -> str:
    return str(request.path_params["night_id"])


async def _state(request: Request, service: NightService, night_id: str) -> Response:
    session = await state_of(request).sessions.find(request.cookies.get(COOKIE_NAME))
    state = await service.state(night_id, session.account_id if session else None)
    return json_answer(msgspec.convert(state, NightState))


async def post_night(request: Request) -> Response:
    """``POST /api/nights``: a new night, registering, hosted by the signed-in person."""
    service = service_of(request)
    session = await signed_in(request, csrf=True)
    body = await read_body(request, NightRequest)
    night_id = await service.create(session.account_id, body.name, body.names, body.rounds,
                                    body.hands, body.loner_bonus, body.movement)
    return json_answer(NightCreated(id=night_id, url=f"/nights/{night_id}"), 201)


async def get_nights(request: Request) -> Response:
    """``GET /api/nights``: the signed-in host's nights."""
    service = service_of(request)
    session = await signed_in(request, csrf=False)
    return json_answer(msgspec.convert({"nights": await service.hosted_by(session.account_id)},
                                       NightList))


async def get_night(request: Request) -> Response:
    """``GET /api/nights/{night_id}``: the night (its codes only for its host)."""
    service = service_of(request)
    return await _state(request, service, _night_id(request))


async def put_people(request: Request) -> Response:
    """``PUT /api/nights/{night_id}/people``: the names, while registering."""
    service = service_of(request)
    session = await signed_in(request, csrf=True)
    body = await read_body(request, NamesRequest)
    await service.set_people(session.account_id, _night_id(request), body.names)
    return await _state(request, service, _night_id(request))


async def post_advance(request: Request) -> Response:
    """``POST /api/nights/{night_id}/advance``: start, next round, or finish."""
    service = service_of(request)
    session = await signed_in(request, csrf=True)
    await service.advance(session.account_id, _night_id(request))
    return await _state(request, service, _night_id(request))


async def post_correction(request: Request) -> Response:
    """``POST /api/nights/{night_id}/corrections``: the host enters or corrects a hand."""
    service = service_of(request)
    session = await signed_in(request, csrf=True)
    body = await read_body(request, CorrectionRequest)
    account = await state_of(request).accounts.get(session.account_id)
    await service.correct(session.account_id, account.username, _night_id(request),
                          body.round, body.table, body.hand, body.makers, body.tricks,
                          body.lone_seat)
    return await _state(request, service, _night_id(request))


async def get_log(request: Request) -> Response:
    """``GET /api/nights/{night_id}/log``: every entry, correction and confirmation."""
    service = service_of(request)
    entries = await service.log(_night_id(request))
    return json_answer(msgspec.convert({"entries": entries}, NightLog))


async def _code_attempt(request: Request) -> Counted:
    """Count a use of a table code (429 past :data:`CODE_MISSES`); given back when the code
    turns out to be a table's, so only unknown codes stay counted."""
    return await hit_all(limits_of(request), [
        (f"nightcode:{household_of(request)}", CODE_MISSES, CODE_WINDOW,
         "too many unknown table codes from your address")])


async def _by_code(request: Request,
                   model: type[HandEntry] | type[ConfirmRequest] | None) -> Response:
    """Answer a table's request by its code: counted, the change made, the card."""
    service = service_of(request)
    code = str(request.path_params["code"])
    body = await read_body(request, model) if model is not None else None
    counted = await _code_attempt(request)
    try:
        if isinstance(body, HandEntry):
            await service.enter(code, body.by_pair, body.hand, body.makers, body.tricks,
                                body.lone_seat)
        elif isinstance(body, ConfirmRequest):
            await service.confirm(code, body.by_pair)
        card = await service.card(code)
    except NightNotFound:
        raise
    except Exception:
        await counted.give_back()  # a known code, refused for another reason
        raise
    await counted.give_back()
    return json_answer(msgspec.convert(card, TableCard))


async def get_card(request: Request) -> Response:
    """``GET /api/score/{code}``: the table's card."""
    return await _by_code(request, None)


async def post_hand(request: Request) -> Response:
    """``POST /api/score/{code}/hands``: enter (or re-enter) a hand from the table."""
    return await _by_code(request, HandEntry)


async def post_confirm(request: Request) -> Response:
    """``POST /api/score/{code}/confirm``: the other pair confirms the card."""
    return await _by_code(request, ConfirmRequest)


async def make_parts(site: NightsSite) -> None:
    """The night service on the accounts' database."""
    site.nights = NightService(needed(site.accounts, "nights", "accounts").engine)


_HOST = {401: "Not signed in (no session, or it expired).",
         403: "The X-CSRF-Token header is missing or wrong, or you are not the night's host."}
_NIGHT = Param("night_id", "path", "The night's id.")
_CODE = Param("code", "path", "The table's scoring code for the round (6 letters and digits).")


def nights_extension() -> Extension[NightsSite]:
    """Euchre nights in a room: the host's API, the tables' scoring, the pages."""
    return Extension(
        "nights",
        endpoints=[
            Endpoint("POST", "/api/nights", post_night, "Host a euchre night",
                     "A night in a room, registering: its names, rounds, hands per round and "
                     "loner bonuses.", body=NightRequest, answers={201: NightCreated},
                     refusals={**_HOST, 400: "Bad settings, or names that do not make whole "
                                             "tables of four."}),
            Endpoint("GET", "/api/nights", get_nights, "The host's nights",
                     answers={200: NightList}, refusals={401: _HOST[401]}),
            Endpoint("GET", "/api/nights/{night_id}", get_night, "A euchre night",
                     "Each round's tables, the standings with their tie-breaks; the tables' "
                     "codes only for the host.", params=[_NIGHT], answers={200: NightState},
                     refusals={404: "No such night."}),
            Endpoint("PUT", "/api/nights/{night_id}/people", put_people,
                     "Change the names (before the night starts)", params=[_NIGHT],
                     body=NamesRequest, answers={200: NightState},
                     refusals={**_HOST, 400: "Names that do not make whole tables.",
                               404: "No such night.", 409: "The night has started."}),
            Endpoint("POST", "/api/nights/{night_id}/advance", post_advance,
                     "Start the night, the next round, or finish it",
                     "The next round starts once every table has entered its hands.",
                     params=[_NIGHT], answers={200: NightState},
                     refusals={**_HOST, 404: "No such night.",
                               409: "A table has hands missing, or the night is over."}),
            Endpoint("POST", "/api/nights/{night_id}/corrections", post_correction,
                     "The host enters or corrects a hand", "Kept in the log with the host's "
                     "name; the table's confirmation then no longer holds.", params=[_NIGHT],
                     body=CorrectionRequest, answers={200: NightState},
                     refusals={**_HOST, 400: "No such round, table or hand, or a bad hand.",
                               404: "No such night."}),
            Endpoint("GET", "/api/nights/{night_id}/log", get_log,
                     "Every entry, correction and confirmation", params=[_NIGHT],
                     answers={200: NightLog}, refusals={404: "No such night."}),
            Endpoint("GET", "/api/score/{code}", get_card, "A table's card by its code",
                     params=[_CODE], answers={200: TableCard},
                     refusals={404: "No table has that code.",
                               429: "Too many unknown codes from the address."}),
            Endpoint("POST", "/api/score/{code}/hands", post_hand,
                     "Enter a hand from the table", params=[_CODE], body=HandEntry,
                     answers={200: TableCard},
                     refusals={400: "A bad hand.", 404: "No table has that code.",
                               409: "The round is over (the host corrects it).",
                               429: "Too many unknown codes from the address."}),
            Endpoint("POST", "/api/score/{code}/confirm", post_confirm,
                     "The other pair confirms the card", params=[_CODE], body=ConfirmRequest,
                     answers={200: TableCard},
                     refusals={404: "No table has that code.",
                               409: "Hands missing, the same pair, or the round is over.",
                               429: "Too many unknown codes from the address."}),
        ],
        pages=["/nights", "/nights/{night_id}", "/nights/{night_id}/screen", "/score",
               "/score/{code}"],
        parts=make_parts,
    )
