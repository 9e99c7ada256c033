"""Online tables over HTTP: open one, list the open ones, claim a seat, start the game.

An extension module (see :mod:`euchre.server.app`): ``startup`` registers the ``online``
table kind, its move clock and the registry of open tables; ``routes`` adds the API and
the ``/online`` pages. Playing is the ordinary table socket, one seat token per person.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..accounts import AccountError
from ..table.online import (
    MAX_PAGE,
    ONLINE,
    PAGE_SIZE,
    OnlineError,
    OnlineTables,
    online_policy,
    parse_online_request,
    parse_seat_request,
)
from . import api, guards
from .online_openapi import add_to_openapi
from .pages import client_page
from .people import Person, person_of


def tables_of(request: Request) -> OnlineTables:
    """The app's registry of open online tables."""
    tables: OnlineTables = request.app.state.online
    return tables


def _invite(request: Request, table_id: str) -> str:
    return f"{str(request.base_url).rstrip('/')}/online/{table_id}"


def _seat_answer(request: Request, table_id: str, seat: int, token: str) -> dict[str, Any]:
    return {"id": table_id, "seat": seat, "token": token, "url": f"/online/{table_id}",
            "table_url": f"/table/{table_id}", "invite": _invite(request, table_id),
            "ws": f"/ws/tables/{table_id}"}


async def create_online(request: Request, body: dict[str, Any]) -> dict[str, Any]:
    """Open an online table with the creator South (``POST /api/tables``, kind online)."""
    if getattr(request.app.state, "online", None) is None:
        raise api.ApiError(400, "online tables are not enabled on this server")
    try:
        options = parse_online_request(body)
        person = await _person(request, rated=options.rated)
        if person is not None:  # signed in: they play under their account's name
            options = dataclasses.replace(options, name=person.username)
        account = person.account_id if person is not None else None
        creator = await guards.online_creator(request, tables_of(request))  # 429: too many
        table, token = tables_of(request).create(options, creator=creator, account=account)
    except OnlineError as e:
        raise api.ApiError(e.status, str(e)) from None
    return _seat_answer(request, table.id, 0, token)


async def _person(request: Request, *, rated: bool) -> Person | None:
    """The signed-in person (a rated table also wants the CSRF token), or None."""
    try:
        return await person_of(request, csrf=rated)
    except AccountError as e:
        raise api.ApiError(e.status, str(e)) from None


def _int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise api.ApiError(400, f"{name} must be a whole number") from None
    if not low <= value <= high:
        raise api.ApiError(400, f"{name} must be between {low} and {high}")
    return value


def _error(e: OnlineError) -> Response:
    return api.error(e.status, str(e))


async def get_online(request: Request) -> Response:
    """``GET /api/online?limit=N&cursor=C``: the online tables waiting for their start,
    newest first, a page at a time (``next`` is the cursor of the next page, or null)."""
    try:
        limit = _int_param(request, "limit", PAGE_SIZE, 1, MAX_PAGE)
        tables, after = tables_of(request).page(limit, request.query_params.get("cursor"))
    except api.ApiError as e:
        return api.error(e.status, str(e))
    except OnlineError as e:
        return _error(e)
    return JSONResponse({"tables": await _with_ratings(request, tables), "next": after})


async def get_online_table(request: Request) -> Response:
    """``GET /api/online/{id}``: one online table's seats and status."""
    try:
        table = tables_of(request).get(request.path_params["table_id"])
    except OnlineError as e:
        return _error(e)
    [shown] = await _with_ratings(request, [table])
    return JSONResponse({**shown, "invite": _invite(request, table.id)})


async def post_seat(request: Request) -> Response:
    """``POST /api/tables/{id}/seats``: claim a free seat; answers its token."""
    table_id = request.path_params["table_id"]
    try:
        body = await api.read_json(request)
        rated = tables_of(request).get(table_id).options.rated
        person = await _person(request, rated=rated)
        seat, name = parse_seat_request(body, person.username if person else None)
        token = tables_of(request).claim(table_id, seat, name,
                                         account=person.account_id if person else None)
    except api.ApiError as e:
        return api.error(e.status, str(e))
    except OnlineError as e:
        return _error(e)
    return JSONResponse(_seat_answer(request, table_id, seat, token), status_code=201)


async def _with_ratings(request: Request, tables: list[Any]) -> list[dict[str, Any]]:
    """The tables' JSON, each signed-in person's seat with their rating (null if unrated)."""
    shown = [t.to_json() for t in tables]
    rate = getattr(request.app.state, "seat_ratings", None)  # set by ratings_api
    if rate is not None:
        await rate([t.accounts for t in tables], shown)
    return shown


async def post_start(request: Request) -> Response:
    """``POST /api/tables/{id}/start {"token"}``: the creator starts the game."""
    table_id = request.path_params["table_id"]
    tables = tables_of(request)
    try:
        body = await api.read_json(request)
        token = body.get("token") if isinstance(body, dict) else None
        table = tables.start(table_id, token)
    except api.ApiError as e:
        return api.error(e.status, str(e))
    except OnlineError as e:
        return _error(e)
    try:
        await api.manager_of(request).open(table.config())
    except Exception:
        tables.unstart(table_id)
        raise
    return JSONResponse({**table.to_json(), "table_url": f"/table/{table_id}"})


async def startup(app: Starlette) -> None:
    """Register the online kind: its creator, its move clock, the open-table registry."""
    app.state.online = OnlineTables()
    app.state.manager.policies[ONLINE] = online_policy
    api.TABLE_KINDS[ONLINE] = create_online


def routes() -> list[BaseRoute]:
    """The online routes (and their OpenAPI entries)."""
    add_to_openapi()
    return [
        Route("/online", client_page, methods=["GET"]),
        Route("/online/{table_id}", client_page, methods=["GET"]),
        Route("/api/online", get_online, methods=["GET"]),
        Route("/api/online/{table_id}", get_online_table, methods=["GET"]),
        Route("/api/tables/{table_id}/seats", post_seat, methods=["POST"]),
        Route("/api/tables/{table_id}/start", post_start, methods=["POST"]),
    ]
