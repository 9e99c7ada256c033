"""Online tables over HTTP: open one, list the open ones, claim a seat, start the game.

An extension (see :mod:`euchre.server.app`): its startup registers the ``online`` table
kind (its move clock, no hints) and the registry of open tables; its endpoints add the API,
the ``/online`` pages and the ``/watch/{id}`` page (a spectator's view of a public table).
Playing is the ordinary table socket, one seat token per person.
Invite links are built from the server's public URL (``euchre serve --public-url``), never
from a request's Host header.
"""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response

from ..table.online import (
    MAX_PAGE,
    ONLINE,
    ONLINE_KIND,
    PAGE_SIZE,
    OnlineOptions,
    OnlineTables,
    OpenTable,
)
from . import guards
from .api import int_param, manager_of, read_body
from .encoder import json_answer
from .errors import ApiError
from .people import person_of
from .registry import Endpoint, Extension, Param, TableKindApi
from .wire.online import (
    OnlineTable,
    OnlineTableRequest,
    SeatLeft,
    SeatRequest,
    SeatTaken,
    StartRequest,
    TokenRequest,
)
from .wire.online import OnlineTables as OnlineTablesAnswer


def tables_of(request: Request) -> OnlineTables:
    """The app's registry of open online tables."""
    tables: OnlineTables | None = getattr(request.app.state, "online", None)
    if tables is None:
        raise ApiError("not_enabled", "online tables are not enabled on this server")
    return tables


def invite_link(request: Request, table_id: str) -> str:
    """The link to the table's waiting page, on the server's public URL."""
    public_url: str = request.app.state.settings.public_url
    return f"{public_url.rstrip('/')}/online/{table_id}"


def _seat_answer(request: Request, table_id: str, seat: int, token: str) -> SeatTaken:
    return SeatTaken(id=table_id, seat=seat, token=token, url=f"/online/{table_id}",
                     table_url=f"/table/{table_id}", invite=invite_link(request, table_id),
                     ws=f"/ws/tables/{table_id}")


async def _tables(request: Request, tables: list[OpenTable], **extra: Any) -> list[OnlineTable]:
    """The tables as anyone may see them, each signed-in person's seat with their rating."""
    shown = [{**t.to_json(), **extra} for t in tables]
    rate = getattr(request.app.state, "seat_ratings", None)  # set by ratings_api
    if rate is not None:
        await rate([t.accounts for t in tables], shown)
    return [msgspec.convert(t, OnlineTable) for t in shown]


async def open_online(request: Request, body: OnlineTableRequest) -> SeatTaken:
    """Open an online table with the creator South (``POST /api/tables``, kind online)."""
    person = await person_of(request, csrf=body.rated)  # rated: the CSRF token too
    name = person.username if person is not None else body.name  # the account's name
    options = OnlineOptions(body.preset, dict(body.rules or {}), body.seconds_per_move,
                            body.level, name, body.rated, body.spectators)
    tables = tables_of(request)
    creator = await guards.online_creator(request, tables)  # 429: too many waiting
    table, token = tables.create(options, creator=creator,
                                 account=person.account_id if person is not None else None)
    return _seat_answer(request, table.id, 0, token)



async def get_online(request: Request) -> Response:
    """``GET /api/online?limit=N&cursor=C``: the online tables waiting for their start,
    newest first, a page at a time (``next`` is the cursor of the next page, or null)."""
    limit = int_param(request, "limit", PAGE_SIZE, 1, MAX_PAGE)
    tables, after = tables_of(request).page(limit, request.query_params.get("cursor"))
    return json_answer(OnlineTablesAnswer(tables=await _tables(request, tables), next=after))


async def get_online_table(request: Request) -> Response:
    """``GET /api/online/{id}``: one online table's seats and status."""
    table = tables_of(request).get(request.path_params["table_id"])
    [shown] = await _tables(request, [table], invite=invite_link(request, table.id))
    return json_answer(shown)


async def post_seat(request: Request) -> Response:
    """``POST /api/tables/{id}/seats``: claim a free seat; answers its token."""
    table_id = request.path_params["table_id"]
    tables = tables_of(request)
    body = await read_body(request, SeatRequest)
    person = await person_of(request, csrf=tables.get(table_id).options.rated)
    if person is None and body.name is None:
        raise ApiError("bad_request", "name: give your name (or sign in)")
    name = person.username if person is not None else str(body.name)
    token = tables.claim(table_id, body.seat, name,
                         account=person.account_id if person is not None else None)
    return json_answer(_seat_answer(request, table_id, body.seat, token), 201)


async def post_start(request: Request) -> Response:
    """``POST /api/tables/{id}/start {"token"}``: the creator starts the game."""
    table_id = request.path_params["table_id"]
    tables = tables_of(request)
    body = await read_body(request, StartRequest)
    table = tables.start(table_id, body.token)
    try:
        await manager_of(request).open(table.config())
    except Exception:
        tables.unstart(table_id)
        raise
    [shown] = await _tables(request, [table], table_url=f"/table/{table_id}")
    return json_answer(shown)


async def post_leave(request: Request) -> Response:
    """``POST /api/online/{id}/leave {"token"}``: give up a claimed seat before the start."""
    table_id = request.path_params["table_id"]
    body = await read_body(request, TokenRequest)
    seat = tables_of(request).leave(table_id, body.token)
    return json_answer(SeatLeft(id=table_id, seat=seat))


async def post_cancel(request: Request) -> Response:
    """``POST /api/online/{id}/cancel {"token"}``: the creator cancels the table before the
    start; it leaves the list, and the people seated see it cancelled."""
    table_id = request.path_params["table_id"]
    body = await read_body(request, TokenRequest)
    table = tables_of(request).cancel(table_id, body.token)
    [shown] = await _tables(request, [table])
    return json_answer(shown)


async def startup(app: Starlette) -> None:
    """Register the online kind and the open-table registry."""
    app.state.online = OnlineTables()
    app.state.manager.register(ONLINE_KIND)


_ID = Param("table_id", "path", "The table id.")


def online_extension() -> Extension:
    """Online tables against real people."""
    return Extension(
        "online",
        endpoints=[
            Endpoint("GET", "/api/online", get_online, "Online tables waiting for their start",
                     "Newest first, a page at a time: ``next`` is the cursor of the next page.",
                     params=[Param("limit", "query", "Tables per page.",
                                   schema={"type": "integer", "minimum": 1,
                                           "maximum": MAX_PAGE, "default": PAGE_SIZE}),
                             Param("cursor", "query", "``next`` of the page before.")],
                     answers={200: OnlineTablesAnswer},
                     refusals={400: "A bad limit or cursor."}),
            Endpoint("GET", "/api/online/{table_id}", get_online_table,
                     "One online table's seats and status", params=[_ID],
                     answers={200: OnlineTable},
                     refusals={404: "No open online table has that id."}),
            Endpoint("POST", "/api/tables/{table_id}/seats", post_seat, "Claim a free seat",
                     params=[_ID], body=SeatRequest, answers={201: SeatTaken},
                     refusals={400: "A bad seat or name (a guest must give one).",
                               403: "A guest at a rated table, or no CSRF token.",
                               404: "No such open table.",
                               409: "The seat is taken, the game has started, or the "
                                    "person already sits at this rated table."}),
            Endpoint("POST", "/api/tables/{table_id}/start", post_start,
                     "The creator starts the game (computers fill free seats)",
                     params=[_ID], body=StartRequest, answers={200: OnlineTable},
                     refusals={403: "Only the creator can start the game.",
                               404: "No such open table.",
                               409: "The game has already started, or a rated table "
                                    "has a free seat."}),
            Endpoint("POST", "/api/online/{table_id}/leave", post_leave,
                     "Give up a claimed seat before the start",
                     params=[_ID], body=TokenRequest, answers={200: SeatLeft},
                     refusals={403: "The token holds no seat at this table.",
                               404: "No such open table.",
                               409: "The game has started, the table was cancelled, or the "
                                    "creator tried to leave (they cancel instead)."}),
            Endpoint("POST", "/api/online/{table_id}/cancel", post_cancel,
                     "The creator cancels the table before the start",
                     params=[_ID], body=TokenRequest, answers={200: OnlineTable},
                     refusals={403: "Only the creator can cancel the table.",
                               404: "No such open table.",
                               409: "The game has started, or the table is already "
                                    "cancelled."}),
        ],
        pages=["/online", "/online/{table_id}", "/watch/{table_id}"],
        table_kinds=[TableKindApi(ONLINE, OnlineTableRequest, SeatTaken, open_online)],
        startup=startup,
    )
