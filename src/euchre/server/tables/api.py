"""The core HTTP API: open tables (of the kinds the app has), a seat's table, records,
replays and presets. Every body is a wire model; every refusal an ``ErrorAnswer``.
"""

from __future__ import annotations

import dataclasses
import logging
import typing
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from ...bots import LEVELS
from ...errors import RecordError
from ...record import GameRecord
from ...rules import GAME_LENGTHS, PRESETS, Rules
from ...table.actor.records import public_record, replay_frames
from ...table.hosting.manager import TableManager
from ..core import guards
from ..core.encoder import JsonAnswer, encode, json_answer
from ..core.errors import ApiError
from ..core.fields import field_docs
from ..core.registry import KIND_ANSWERS, KIND_REQUESTS, Endpoint, Param
from ..wire.common import BadRequest, convert, load_json
from ..wire.tables import (
    Health,
    PresetInfo,
    Presets,
    RecordJson,
    Replay,
    RuleField,
    TableSnapshot,
)
from .door import tables_site

log = logging.getLogger(__name__)

T = TypeVar("T")

SEAT_TOKEN_HEADER = "x-seat-token"
"""The request header that carries a seat's token (kept out of URLs and access logs)."""

MAX_BODY_BYTES = 16384
"""Longer request bodies are refused."""

DEFAULT_LEVEL = "medium"
"""The computer level the start page offers first."""


async def read_json(request: Request) -> Any:
    """The request body as parsed JSON (``{}`` when empty); refuses what is too large, not
    JSON, or nested too deeply (400, ``bad_message``)."""
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        raise BadRequest(f"request body too large (over {MAX_BODY_BYTES} bytes)")
    if not body.strip():
        return {}
    return load_json(body, what="the request body", not_json="the request body is not valid JSON")


async def read_body(request: Request, model: type[T]) -> T:
    """The request body as ``model`` (refusals in words, 400)."""
    return convert(await read_json(request), model)


def manager_of(request: Request) -> TableManager:
    """The site's table manager."""
    return tables_site(request).manager


async def post_tables(request: Request) -> Response:
    """``POST /api/tables``: open a table of one of the app's kinds."""
    registry = tables_site(request).registry
    body = await read_json(request)
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    name = body.get("kind", "practice")
    kind = registry.kinds.get(name) if isinstance(name, str) else None
    if kind is None:
        raise ApiError("unknown_kind", f"unknown table kind {name!r}: use one of "
                                       f"{', '.join(registry.kinds)}")
    request_body = convert(body, kind.request)
    # A retry of a table already opened (its request_id) opens nothing: it is not counted.
    if kind.repeat is None or not await kind.repeat(request, request_body):
        await guards.table_attempt(request, kind.name)  # 429 when this client opened too many
    answer = await kind.open(request, request_body)
    return json_answer(answer, 201)


async def get_table(request: Request) -> Response:
    """``GET /api/tables/{id}`` with the ``X-Seat-Token`` header (or ``?token=T``): the seat's
    table snapshot."""
    table_id = request.path_params["table_id"]
    tables = tables_site(request).tables
    table = await tables.open(table_id)
    # A table another process runs is read as last stored (it may lag its latest move).
    actor = await table.view() if table is not None else None
    if actor is None:
        raise ApiError("no_table", f"no table {table_id!r}")
    token = request.headers.get(SEAT_TOKEN_HEADER) or request.query_params.get("token")
    if not token:
        raise ApiError("no_token",
                       "give the seat's token: the X-Seat-Token header (or ?token=...)")
    seat = actor.seat_of(token)
    if seat is None:
        raise ApiError("bad_token", "that token has no seat at this table")
    return json_answer(actor.snapshot(seat))


@typing.overload
def int_param(request: Request, name: str, default: int, low: int, high: int) -> int: ...
@typing.overload
def int_param(request: Request, name: str, default: None, low: int, high: int) -> int | None: ...
def int_param(request: Request, name: str, default: int | None, low: int, high: int
              ) -> int | None:
    """The whole-number query parameter ``name`` in ``[low, high]`` (``default`` if absent);
    400 ``bad_request`` with a plain reason otherwise."""
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ApiError("bad_request", f"{name} must be a whole number") from None
    if not low <= value <= high:
        raise ApiError("bad_request", f"{name} must be between {low} and {high}")
    return value


async def _record(request: Request) -> tuple[GameRecord, bool]:
    game_id = request.path_params["game_id"]
    manager = manager_of(request)
    actor = manager.peek(game_id)
    if actor is not None:
        return actor.public_record(), actor.finished
    stored = await manager.store.get(game_id)
    if stored is None:
        raise ApiError("no_game", f"no game {game_id!r}")
    try:
        record = GameRecord.from_json(stored.record)
    except RecordError:
        # The reason may quote the stored record, which holds the hand in progress: log it.
        log.exception("game %s: the stored record is unreadable", game_id)
        raise ApiError("internal", "the stored record is unreadable") from None
    return public_record(record), stored.status == "finished"


async def get_record(request: Request) -> Response:
    """``GET /api/games/{id}/record``: the record (finished hands only while running)."""
    await guards.expensive_read(request)
    record, _ = await _record(request)
    fmt = request.query_params.get("format", "text")
    if fmt not in ("text", "json"):
        raise BadRequest("format must be text or json")
    if fmt == "json":
        return json_answer(msgspec.convert(record.to_json(), RecordJson))
    return PlainTextResponse(record.to_text())


async def get_replay(request: Request) -> Response:
    """``GET /api/games/{id}/replay``: open-handed frames of a finished game, built once
    (:mod:`.replay_cache`), read at a rate per address."""
    await guards.expensive_read(request)
    game_id = request.path_params["game_id"]

    async def build() -> bytes:
        record, finished = await _record(request)
        if not finished:
            raise ApiError("still_playing", "the game is still being played: replays open "
                                            "when it ends")
        answer = {"id": game_id, "rules": record.rules.to_dict(),
                  "rules_text": record.rules.describe(),
                  "final": list(record.final) if record.final else None,
                  "frames": replay_frames(record)}
        return encode(msgspec.convert(answer, Replay))

    body = await tables_site(request).replay_cache.get(game_id, build)
    return JsonAnswer(body)


def rule_fields() -> list[RuleField]:
    """Every rule: name, type, default, allowed values and description."""
    hints = typing.get_type_hints(Rules)
    docs = field_docs(Rules)
    default = Rules()
    out = []
    for f in dataclasses.fields(Rules):
        if f.name == "hands_limit":
            continue  # tournament rounds only: checked_rules refuses it for a table
        hint = hints[f.name]
        kind: typing.Literal["boolean", "integer", "string"]
        allowed: list[bool | int | str]
        if hint is bool:
            kind, allowed = "boolean", [False, True]
        elif f.name == "game_to":
            kind, allowed = "integer", list(GAME_LENGTHS)
        else:
            kind, allowed = "string", list(typing.get_args(hint))
        out.append(RuleField(name=f.name, type=kind, default=getattr(default, f.name),
                             allowed=allowed, description=docs.get(f.name, "")))
    return out


async def get_presets(request: Request) -> Response:
    """``GET /api/presets``: presets, rule fields and computer levels."""
    return json_answer(Presets(
        presets=[PresetInfo(name=name, rules=rules, rules_text=rules.describe())
                 for name, rules in PRESETS.items()],
        fields=rule_fields(),
        levels=list(LEVELS),
        default_level=DEFAULT_LEVEL,
    ))


async def get_health(request: Request) -> Response:
    """``GET /api/health``: alive, with the number of tables in memory."""
    return json_answer(Health(ok=True, tables=len(manager_of(request))))


_TABLE_ID = Param("table_id", "path", "The table id (returned by POST /api/tables).")
_GAME_ID = Param("game_id", "path", "The game id (the id of the table it was played at).")


def endpoints() -> list[Endpoint]:
    """The core API's endpoints."""
    return [
        Endpoint("POST", "/api/tables", post_tables, "Open a table",
                 "Open a table of one of the server's kinds: practice (no account: the "
                 "person South, computers elsewhere), and whatever the server's extensions "
                 "add (coin, online).",
                 body=KIND_REQUESTS, answers={201: KIND_ANSWERS},
                 refusals={400: "Unknown kind, preset, rule or level; a bad body.",
                           401: "A kind that needs a signed-in session.",
                           429: "Too many new tables from this client: wait (Retry-After).",
                           409: "A kind's own refusal (a coin game already running)."},
                 bot_token=True),
        Endpoint("GET", "/api/tables/{table_id}", get_table, "A seat's table snapshot",
                 params=[_TABLE_ID,
                         Param("X-Seat-Token", "header", "The seat's token (preferred: "
                               "headers stay out of access logs)."),
                         Param("token", "query", "The seat's token, when the header is not "
                               "sent.")],
                 answers={200: TableSnapshot},
                 refusals={401: "No token given.",
                           403: "The token has no seat at this table.",
                           404: "No such table."}),
        Endpoint("GET", "/api/games/{game_id}/record", get_record, "A game's record",
                 "Finished hands only while the game is running: never a hidden card of a "
                 "hand in progress. Each finished hand carries its revealed shuffle seed.",
                 params=[_GAME_ID, Param("format", "query", "text (default) or json",
                                         schema={"type": "string", "enum": ["text", "json"],
                                                 "default": "text"})],
                 answers={200: RecordJson}, text_too=True,
                 refusals={400: "Unknown format.", 404: "No such game.",
                           429: "Too many expensive reads from this address (Retry-After).",
                           500: "The stored record is unreadable."}),
        Endpoint("GET", "/api/games/{game_id}/replay", get_replay,
                 "Replay frames of a finished game", params=[_GAME_ID],
                 answers={200: Replay},
                 refusals={404: "No such game.", 409: "The game is still being played.",
                           429: "Too many expensive reads from this address (Retry-After).",
                           500: "The stored record is unreadable."}),
        Endpoint("GET", "/api/presets", get_presets,
                 "Rule presets, rule fields and computer levels", answers={200: Presets}),
        Endpoint("GET", "/api/health", get_health, "Liveness, with the tables in memory",
                 answers={200: Health}),
    ]
