"""The OpenAPI description of the HTTP API, written by hand next to the routes it describes.

The table socket is described in ``docs/protocol.md``; OpenAPI has no words for it.
"""

from __future__ import annotations

from typing import Any

from .. import __version__


def error_response(description: str) -> dict[str, Any]:
    """An error response: ``{"error": message}`` (schema ``Error``)."""
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def json_response(ref: str, description: str) -> dict[str, Any]:
    """A JSON response whose body is the schema named ``ref``."""
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{ref}"}}}}


def json_body(ref: str) -> dict[str, Any]:
    """A required JSON request body whose schema is the one named ``ref``."""
    return {"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{ref}"}}}}


_ID = {"name": "table_id", "in": "path", "required": True, "schema": {"type": "string"},
       "description": "The table id (returned by POST /api/tables)."}
_GAME = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"},
         "description": "The game id (the id of the table it was played at)."}

_SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "string", "description": "What was wrong."}},
    },
    "PracticeTableRequest": {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "kind": {"type": "string", "enum": ["practice"], "default": "practice"},
            "preset": {"type": "string", "default": "classic",
                       "enum": ["classic", "stick-the-dealer", "redeal", "canadian",
                                "kitchen-table", "benny", "short"]},
            "rules": {"type": "object", "description": "Rule changes by name (see "
                      "GET /api/presets for names and allowed values).",
                      "additionalProperties": True},
            "partner": {"$ref": "#/components/schemas/Level"},
            "left": {"$ref": "#/components/schemas/Level"},
            "right": {"$ref": "#/components/schemas/Level"},
            "name": {"type": "string", "minLength": 1, "maxLength": 24, "default": "You"},
        },
    },
    "Level": {"type": "string", "enum": ["random", "easy", "medium", "hard"],
              "default": "medium", "description": "A computer player's level."},
    "TableCreated": {
        "type": "object",
        "required": ["id", "seat", "token"],
        "properties": {
            "id": {"type": "string"},
            "seat": {"type": "integer", "description": "The person's seat (0, South)."},
            "token": {"type": "string", "description": "The seat's secret: keep it to rejoin."},
            "url": {"type": "string", "description": "The page of the table."},
            "ws": {"type": "string", "description": "The table socket's path."},
        },
    },
    "Table": {
        "type": "object",
        "description": "One seat's table snapshot (TABLE in docs/protocol.md).",
        "properties": {
            "id": {"type": "string"},
            "kind": {"type": "string"},
            "version": {"type": "integer"},
            "seat": {"type": "integer", "nullable": True},
            "seats": {"type": "array", "items": {"type": "object"}},
            "preset": {"type": "string"},
            "rules": {"type": "object"},
            "rules_text": {"type": "array", "items": {"type": "string"}},
            "score": {"type": "array", "items": {"type": "integer"}},
            "hand_number": {"type": "integer"},
            "dealer": {"type": "integer", "nullable": True},
            "to_act": {"type": "integer", "nullable": True},
            "commitment": {"type": "string", "nullable": True},
            "game_over": {"type": "boolean"},
            "winner": {"type": "integer", "nullable": True},
            "view": {"type": "object", "nullable": True,
                     "description": "HandView.to_json() for this seat."},
            "clock": {"type": "object", "nullable": True},
            "summary": {"type": "object", "nullable": True},
            "next_commitment": {
                "type": "object", "nullable": True,
                "description": "The next hand's table seed commitment {hand_number, "
                               "commitment}: people send their seeds after it.",
            },
            "first_draw": {
                "type": "object", "nullable": True,
                "description": "How the first dealer was found: cards dealt face up from "
                               "South until a black jack (doc 002 deal rule 1).",
                "properties": {"dealer": {"type": "integer"},
                               "cards": {"type": "array", "items": {"type": "object"}}},
            },
        },
    },
    "Record": {
        "type": "object",
        "description": "A game record (euchre-record version 1, JSON form).",
        "properties": {
            "format": {"type": "string", "enum": ["euchre-record"]},
            "version": {"type": "integer"},
            "rules": {"type": "object"},
            "hands": {"type": "array", "items": {"type": "object"}},
            "final": {"type": "array", "items": {"type": "integer"}, "nullable": True},
        },
    },
    "Replay": {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "rules": {"type": "object"},
            "rules_text": {"type": "array", "items": {"type": "string"}},
            "final": {"type": "array", "items": {"type": "integer"}},
            "frames": {"type": "array", "items": {"type": "object"},
                       "description": "One open-handed position per deal and per action."},
        },
    },
    "Presets": {
        "type": "object",
        "properties": {
            "presets": {"type": "array", "items": {"type": "object"}},
            "fields": {"type": "array", "items": {"type": "object"}},
            "levels": {"type": "array", "items": {"type": "string"}},
            "default_level": {"type": "string"},
        },
    },
}

_PATHS: dict[str, Any] = {
    "/api/tables": {
        "post": {
            "summary": "Open a table",
            "description": "Open a practice table (no account): the person sits South (seat 0), "
                           "computer players elsewhere. Other kinds (coin) are added by the "
                           "accounts module.",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/PracticeTableRequest"}}}},
            "responses": {"201": json_response("TableCreated", "The table is open and dealing."),
                          "400": error_response("Unknown kind, preset, rule or level."),
                          "413": error_response("Body too large."),
                          "429": error_response("Too many new tables from this address or "
                                                "account (Retry-After); nothing opened.")},
        }
    },
    "/api/tables/{table_id}": {
        "get": {
            "summary": "A seat's table snapshot",
            "parameters": [
                _ID,
                {"name": "X-Seat-Token", "in": "header", "required": False,
                 "schema": {"type": "string"},
                 "description": "The seat's token (preferred: headers stay out of access logs)."},
                {"name": "token", "in": "query", "required": False,
                 "schema": {"type": "string"},
                 "description": "The seat's token, when the header is not sent."},
            ],
            "responses": {"200": json_response("Table", "The snapshot for the token's seat."),
                          "401": error_response("No token given."),
                          "403": error_response("The token has no seat at this table."),
                          "404": error_response("No such table.")},
        }
    },
    "/api/games/{game_id}/record": {
        "get": {
            "summary": "A game's record",
            "description": "Finished hands only while the game is running: never a hidden "
                           "card of a hand in progress. Each finished hand carries its "
                           "revealed shuffle seed.",
            "parameters": [_GAME, {"name": "format", "in": "query", "required": False,
                                   "schema": {"type": "string", "enum": ["text", "json"],
                                              "default": "text"}}],
            "responses": {"200": {"description": "The record.", "content": {
                "text/plain": {"schema": {"type": "string"}},
                "application/json": {"schema": {"$ref": "#/components/schemas/Record"}}}},
                "400": error_response("Unknown format."), "404": error_response("No such game.")},
        }
    },
    "/api/games/{game_id}/replay": {
        "get": {
            "summary": "Replay frames of a finished game",
            "parameters": [_GAME],
            "responses": {"200": json_response("Replay", "Every position, open-handed."),
                          "404": error_response("No such game."),
                          "409": error_response("The game is still being played.")},
        }
    },
    "/api/presets": {
        "get": {
            "summary": "Rule presets, rule fields and computer levels",
            "responses": {"200": json_response("Presets", "What a table can be opened with.")},
        }
    },
    "/api/health": {
        "get": {"summary": "Liveness", "responses": {"200": {"description": "Alive."}}}
    },
}


def openapi_schema() -> dict[str, Any]:
    """The OpenAPI 3.0 document of the HTTP API."""
    return {
        "openapi": "3.0.3",
        "info": {"title": "Euchre", "version": __version__,
                 "description": "Play euchre in the browser. The table socket "
                                "(/ws/tables/{table_id}) is described in docs/protocol.md."},
        "paths": _PATHS,
        "components": {"schemas": _SCHEMAS},
    }
