"""The HTTP API: open tables, read a seat's table, records and replays, presets.

Errors are JSON ``{"error": message}`` with a 4xx status. New table kinds register a
creator in :data:`TABLE_KINDS` (the accounts work adds ``coin``).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import typing
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..errors import RecordError
from ..record import GameRecord
from ..rules import GAME_LENGTHS, PRESETS, Rules
from ..table.manager import TableManager
from ..table.practice import PracticeRequestError, parse_practice_request, practice_table
from ..table.records import public_record, replay_frames
from . import guards
from .fields import field_docs

log = logging.getLogger(__name__)

SEAT_TOKEN_HEADER = "x-seat-token"
"""The request header that carries a seat's token (kept out of URLs and access logs)."""

MAX_BODY_BYTES = 16384
"""Longer request bodies are refused."""


class ApiError(Exception):
    """An HTTP error with a message for the caller."""

    def __init__(self, status: int, message: str) -> None:
        """An error with its HTTP status."""
        super().__init__(message)
        self.status = status
        """The HTTP status code."""


TableCreator = Callable[[Request, dict[str, Any]], Awaitable[dict[str, Any]]]
"""Opens a table of one kind from a request body; returns the 201 response body."""


def error(status: int, message: str, **extra: Any) -> JSONResponse:
    """A JSON error response: ``{"error": message}`` and any ``extra`` fields."""
    return JSONResponse({"error": message, **extra}, status_code=status)


async def read_json(request: Request) -> Any:
    """The request body as JSON, or :class:`ApiError` 400."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise ApiError(413, "request body too large")
    if not body.strip():
        return {}
    try:
        return json.loads(body)
    except ValueError:
        raise ApiError(400, "the request body is not valid JSON") from None


def manager_of(request: Request) -> TableManager:
    """The app's table manager."""
    manager: TableManager = request.app.state.manager
    return manager


async def create_practice(request: Request, body: dict[str, Any]) -> dict[str, Any]:
    """Open a practice table: the person South, computers elsewhere."""
    try:
        options = parse_practice_request(body)
    except PracticeRequestError as e:
        raise ApiError(400, str(e)) from None
    config, token = practice_table(options)
    from .people import seat_person  # (people imports this module)

    config = await seat_person(request, config, 0)  # a signed-in person's games count for them
    await manager_of(request).open(config)
    return {"id": config.id, "seat": 0, "token": token, "url": f"/table/{config.id}",
            "ws": f"/ws/tables/{config.id}"}


TABLE_KINDS: dict[str, TableCreator] = {"practice": create_practice}
"""Table kind -> creator; other modules add kinds here."""


async def post_tables(request: Request) -> Response:
    """``POST /api/tables``: open a table."""
    try:
        body = await read_json(request)
        if not isinstance(body, dict):
            raise ApiError(400, "the request body must be a JSON object")
        kind = body.get("kind", "practice")
        creator = TABLE_KINDS.get(kind) if isinstance(kind, str) else None
        if creator is None:
            raise ApiError(400, f"unknown table kind {kind!r}: use one of "
                                f"{', '.join(TABLE_KINDS)}")
        await guards.table_attempt(request, kind)  # 429 when this client opened too many
        return JSONResponse(await creator(request, body), status_code=201)
    except ApiError as e:
        return error(e.status, str(e))


async def get_table(request: Request) -> Response:
    """``GET /api/tables/{id}`` with the ``X-Seat-Token`` header (or ``?token=T``): the seat's
    table snapshot."""
    table_id = request.path_params["table_id"]
    actor = await manager_of(request).get(table_id)
    if actor is None:
        return error(404, f"no table {table_id!r}")
    token = request.headers.get(SEAT_TOKEN_HEADER) or request.query_params.get("token")
    if not token:
        return error(401, "give the seat's token: the X-Seat-Token header (or ?token=...)")
    seat = actor.seat_of(token)
    if seat is None:
        return error(403, "that token has no seat at this table")
    return JSONResponse(actor.snapshot(seat))


async def _record(request: Request) -> tuple[GameRecord, bool] | Response:
    game_id = request.path_params["game_id"]
    manager = manager_of(request)
    actor = manager.peek(game_id)
    if actor is not None:
        return actor.public_record(), actor.finished
    stored = await manager.store.get(game_id)
    if stored is None:
        return error(404, f"no game {game_id!r}")
    try:
        record = GameRecord.from_json(stored.record)
    except RecordError:
        # The reason may quote the stored record, which holds the hand in progress: log it.
        log.exception("game %s: the stored record is unreadable", game_id)
        return error(500, "the stored record is unreadable")
    return public_record(record), stored.status == "finished"


async def get_record(request: Request) -> Response:
    """``GET /api/games/{id}/record``: the record (finished hands only while running)."""
    found = await _record(request)
    if isinstance(found, Response):
        return found
    record, _ = found
    fmt = request.query_params.get("format", "text")
    if fmt == "json":
        return JSONResponse(record.to_json())
    if fmt != "text":
        return error(400, "format must be text or json")
    return PlainTextResponse(record.to_text())


async def get_replay(request: Request) -> Response:
    """``GET /api/games/{id}/replay``: open-handed frames of a finished game."""
    found = await _record(request)
    if isinstance(found, Response):
        return found
    record, finished = found
    if not finished:
        return error(409, "the game is still being played: replays open when it ends")
    return JSONResponse({"id": request.path_params["game_id"],
                         "rules": record.rules.to_dict(),
                         "rules_text": record.rules.describe(),
                         "final": list(record.final) if record.final else None,
                         "frames": replay_frames(record)})


def rule_fields() -> list[dict[str, Any]]:
    """Every rule: name, type, default, allowed values and description."""
    hints = typing.get_type_hints(Rules)
    docs = field_docs(Rules)
    default = Rules()
    out = []
    for f in dataclasses.fields(Rules):
        hint = hints[f.name]
        if hint is bool:
            kind, allowed = "boolean", [False, True]
        elif f.name == "game_to":
            kind, allowed = "integer", list[Any](GAME_LENGTHS)
        else:
            kind, allowed = "string", list[Any](typing.get_args(hint))
        out.append({"name": f.name, "type": kind, "default": getattr(default, f.name),
                    "allowed": allowed, "description": docs.get(f.name, "")})
    return out


async def get_presets(request: Request) -> Response:
    """``GET /api/presets``: presets, rule fields and computer levels."""
    from ..bots import LEVELS

    return JSONResponse({
        "presets": [
            {"name": name, "rules": rules.to_dict(), "rules_text": rules.describe()}
            for name, rules in PRESETS.items()
        ],
        "fields": rule_fields(),
        "levels": list(LEVELS),
        "default_level": "medium",
    })


def routes() -> list[BaseRoute]:
    """The API routes."""
    return [
        Route("/api/tables", post_tables, methods=["POST"]),
        Route("/api/tables/{table_id}", get_table, methods=["GET"]),
        Route("/api/games/{game_id}/record", get_record, methods=["GET"]),
        Route("/api/games/{game_id}/replay", get_replay, methods=["GET"]),
        Route("/api/presets", get_presets, methods=["GET"]),
    ]
