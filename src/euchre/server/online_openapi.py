"""The OpenAPI entries of the online-table API, added to the server's document."""

from __future__ import annotations

from typing import Any

from ..table.online import (
    DEFAULT_SECONDS,
    MAX_NAME,
    MAX_PAGE,
    MAX_SECONDS,
    MIN_SECONDS,
    PAGE_SIZE,
)
from . import openapi
from .openapi import error_response as _error
from .openapi import json_body as _body
from .openapi import json_response as _json

_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"},
       "description": "The online table's id."}
_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME}

SCHEMAS: dict[str, Any] = {
    "OnlineTableRequest": {
        "type": "object", "required": ["kind"], "additionalProperties": False,
        "properties": {
            "kind": {"type": "string", "enum": ["online"]},
            "preset": {"type": "string", "default": "classic"},
            "rules": {"type": "object", "additionalProperties": True},
            "seconds_per_move": {"type": "number", "minimum": MIN_SECONDS,
                                 "maximum": MAX_SECONDS, "default": DEFAULT_SECONDS},
            "level": {"$ref": "#/components/schemas/Level"},
            "name": {**_NAME, "default": "Host",
                     "description": "Not a seat's or a computer's name (North, Computer, "
                                    "Ann (hard) ...). A signed-in person plays under "
                                    "their account's name instead."},
            "rated": {"type": "boolean", "default": False,
                      "description": "A rated table: signed-in people only (with the "
                                     "X-CSRF-Token header), starts with four people, "
                                     "updates their ratings when the game ends."},
        },
    },
    "OnlineSeat": {
        "type": "object", "required": ["id", "seat", "token"],
        "properties": {
            "id": {"type": "string"}, "seat": {"type": "integer"},
            "token": {"type": "string", "description": "The seat's secret: keep it."},
            "url": {"type": "string", "description": "The table's waiting page."},
            "table_url": {"type": "string", "description": "The table page once started."},
            "invite": {"type": "string", "description": "A link to share."},
            "ws": {"type": "string"},
        },
    },
    "SeatRequest": {
        "type": "object", "required": ["seat"], "additionalProperties": False,
        "properties": {"seat": {"type": "integer", "minimum": 0, "maximum": 3},
                       "name": {**_NAME, "description": "Required of a guest; a "
                                "signed-in person sits under their account's name."}},
    },
    "StartRequest": {
        "type": "object", "required": ["token"],
        "properties": {"token": {"type": "string", "description": "The creator's token."}},
    },
    "OnlineTable": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "status": {"type": "string", "enum": ["open", "started"]},
            "rated": {"type": "boolean"},
            "preset": {"type": "string"}, "rules": {"type": "object"},
            "rules_text": {"type": "array", "items": {"type": "string"}},
            "seconds_per_move": {"type": "number"}, "level": {"type": "string"},
            "seats": {"type": "array", "items": {"type": "object"},
                      "description": "seat, position, name (null while free), taken, "
                                     "signed_in, rating (a signed-in person's: mu, "
                                     "sigma, ordinal, games; null if unrated)."},
            "free": {"type": "integer"}, "url": {"type": "string"},
        },
    },
    "OnlineTables": {
        "type": "object",
        "properties": {"tables": {"type": "array",
                                  "items": {"$ref": "#/components/schemas/OnlineTable"}},
                       "next": {"type": ["string", "null"],
                                "description": "The cursor of the next page (null: last)."}},
    },
}

PATHS: dict[str, Any] = {
    "/api/online": {"get": {
        "summary": "Online tables waiting for their start",
        "parameters": [
            {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1,
                                                        "maximum": MAX_PAGE,
                                                        "default": PAGE_SIZE}},
            {"name": "cursor", "in": "query", "schema": {"type": "string"},
             "description": "``next`` of the page before."}],
        "responses": {"200": _json("OnlineTables", "The open tables, newest first."),
                      "400": _error("Bad limit or cursor.")}}},
    "/api/online/{table_id}": {"get": {
        "summary": "One online table's seats and status",
        "parameters": [_ID],
        "responses": {"200": _json("OnlineTable", "The table."),
                      "404": _error("No open online table with that id.")}}},
    "/api/tables/{table_id}/seats": {"post": {
        "summary": "Claim a free seat at an online table",
        "parameters": [_ID], "requestBody": _body("SeatRequest"),
        "responses": {"201": _json("OnlineSeat", "The seat and its token."),
                      "400": _error("Bad seat or name."), "404": _error("No such table."),
                      "403": _error("A guest at a rated table."),
                      "409": _error("The seat is taken, the game has started, or the "
                                    "person already sits at this rated table.")}}},
    "/api/tables/{table_id}/start": {"post": {
        "summary": "Start an online table's game (its creator only)",
        "description": "Free seats are filled by computer players of the table's level.",
        "parameters": [_ID], "requestBody": _body("StartRequest"),
        "responses": {"200": _json("OnlineTable", "Started."),
                      "403": _error("Not the creator's token."),
                      "404": _error("No such table."),
                      "409": _error("Already started, or a rated table with a free "
                                    "seat.")}}},
}


def add_to_openapi() -> None:
    """Add the paths and schemas, and the online request to ``POST /api/tables``."""
    openapi._SCHEMAS.update(SCHEMAS)
    openapi._PATHS.update(PATHS)
    post = openapi._PATHS["/api/tables"]["post"]
    ref = {"$ref": "#/components/schemas/OnlineTableRequest"}
    schema = (post.get("requestBody") or {}).get("content", {}) \
        .get("application/json", {}).get("schema", {})
    options = list(schema.get("oneOf") or [schema or
                                           {"$ref": "#/components/schemas/PracticeTableRequest"}])
    if ref not in options:
        options.append(ref)
    post["requestBody"] = {"required": True,
                           "content": {"application/json": {"schema": {"oneOf": options}}}}
    post.setdefault("responses", {}).setdefault(
        "409", _error("Online table: too many tables are waiting to start."))
