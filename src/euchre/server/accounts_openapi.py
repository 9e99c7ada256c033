"""The OpenAPI entries of the accounts and coins API, added to the server's document."""

from __future__ import annotations

from typing import Any

from . import openapi
from .openapi import error_response, json_body, json_response

_CSRF = {"name": "X-CSRF-Token", "in": "header", "required": True,
         "schema": {"type": "string"},
         "description": "The session's CSRF token (from GET /api/me or the sign-in answer)."}
_NOTICE = {"type": "string", "description": "Play coins have no cash value and cannot be "
                                            "cashed out."}

SCHEMAS: dict[str, Any] = {
    "Credentials": {
        "type": "object", "required": ["username", "password"],
        "properties": {
            "username": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{2,23}$"},
            "password": {"type": "string", "minLength": 8, "maxLength": 200},
        },
    },
    "Me": {
        "type": "object", "required": ["username", "balance", "csrf"],
        "properties": {
            "username": {"type": "string"},
            "balance": {"type": "integer", "description": "Play coins."},
            "csrf": {"type": "string", "description": "Echo in X-CSRF-Token."},
            "active_table": {"type": "object", "nullable": True,
                             "description": "The coin game in progress (id, token, stake)."},
            "can_top_up": {"type": "boolean"},
            "top_up_to": {"type": "integer"},
            "notice": _NOTICE,
        },
    },
    "LedgerEntry": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "amount": {"type": "integer", "description": "Whole coins; negative charges."},
            "reason": {"type": "string",
                       "enum": ["welcome", "topup", "stake", "payout", "fee", "refund"]},
            "table": {"type": "string", "nullable": True},
            "balance_after": {"type": "integer"},
            "time": {"type": "string", "format": "date-time"},
        },
    },
    "Ledger": {
        "type": "object",
        "properties": {"balance": {"type": "integer"},
                       "entries": {"type": "array",
                                   "items": {"$ref": "#/components/schemas/LedgerEntry"}},
                       "notice": _NOTICE},
    },
    "Games": {
        "type": "object",
        "properties": {
            "games": {"type": "array", "items": {"type": "object"},
                      "description": "Coin games, newest first: stake, status, score, replay."},
            "stats": {"type": "object", "description": "games, wins, losses, left, hands, "
                      "trump_called, hands_made, euchred, euchres, loners_tried, loners_made, "
                      "loner_marches."},
            "notice": _NOTICE,
        },
    },
    "Stakes": {
        "type": "object",
        "properties": {
            "stakes": {"type": "array", "items": {"type": "object", "properties": {
                "stake": {"type": "integer"}, "payout": {"type": "integer"},
                "winnings": {"type": "integer"}, "leaving_fee": {"type": "integer"},
                "leaving_costs": {"type": "integer"}}}},
            "rule": {"type": "string"},
            "starting_balance": {"type": "integer"},
            "top_up_to": {"type": "integer"},
            "notice": _NOTICE,
        },
    },
    "CoinTableRequest": {
        "type": "object", "required": ["kind", "stake"], "additionalProperties": False,
        "properties": {
            "kind": {"type": "string", "enum": ["coin"]},
            "stake": {"type": "integer", "enum": [10, 50, 100, 500]},
            "request_id": {"type": "string", "maxLength": 80,
                           "description": "Idempotency key: a repeat returns the same table "
                                          "and charges nothing (also the Idempotency-Key "
                                          "header)."},
        },
    },
    "Left": {
        "type": "object",
        "properties": {
            "left": {"type": "boolean", "description": "False if the game was already over."},
            "status": {"type": "string"},
            "stake": {"type": "integer"},
            "stake_forfeit": {"type": "integer"},
            "fee": {"type": "integer", "description": "Charged: 10% of the stake rounded "
                                                      "up, never more than the balance."},
            "balance": {"type": "integer"},
            "notice": _NOTICE,
        },
    },
}

PATHS: dict[str, Any] = {
    "/api/accounts": {"post": {
        "summary": "Create an account and sign in",
        "description": "Starts with 1000 play coins. Sets the session cookie (HttpOnly, "
                       "SameSite=Strict). JSON only, from this site. At most 10 "
                       "attempts (refused ones too) and 5 new accounts per client address "
                       "an hour.",
        "requestBody": json_body("Credentials"),
        "responses": {"201": json_response("Me", "Signed in."),
                      "400": error_response("Bad username or password."),
                      "403": error_response("Another site's request."),
                      "409": error_response("The username is taken."),
                      "415": error_response("Not JSON."),
                      "429": error_response("Too many sign-up attempts or new accounts from "
                                            "this address (Retry-After); nothing was "
                                            "created.")}}},
    "/api/session": {
        "post": {"summary": "Sign in", "requestBody": json_body("Credentials"),
                 "responses": {"200": json_response("Me", "Signed in."),
                               "401": error_response("Wrong username or password."),
                               "429": error_response("Too many sign-in attempts for the "
                                                     "username or from the address "
                                                     "(Retry-After).")}},
        "delete": {"summary": "Sign out", "parameters": [_CSRF],
                   "responses": {"200": {"description": "Signed out."},
                                 "401": error_response("Not signed in."),
                                 "403": error_response("CSRF token missing or wrong.")}},
    },
    "/api/me": {"get": {"summary": "The signed-in account",
                        "responses": {"200": json_response("Me", "Username, balance, CSRF token."),
                                      "401": error_response("Not signed in.")}}},
    "/api/me/ledger": {"get": {
        "summary": "Coin history, newest first",
        "parameters": [
            {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 100}},
            {"name": "before", "in": "query", "schema": {"type": "integer"},
             "description": "Only entries with a smaller id (paging)."}],
        "responses": {"200": json_response("Ledger", "Entries."),
                      "401": error_response("Not signed in.")}}},
    "/api/me/games": {"get": {
        "summary": "Coin games with replays and statistics",
        "responses": {"200": json_response("Games", "Games and statistics."),
                      "401": error_response("Not signed in.")}}},
    "/api/me/topup": {"post": {
        "summary": "The free daily top-up",
        "description": "Once a UTC day, when the balance is below the smallest stake and no "
                       "coin game is active: the balance goes up to 200.",
        "parameters": [_CSRF],
        "responses": {"200": {"description": "Topped up."},
                      "401": error_response("Not signed in."), "403": error_response("CSRF."),
                      "409": error_response("Not available now.")}}},
    "/api/stakes": {"get": {"summary": "Stakes offered, with payouts and leaving fees",
                            "responses": {"200": json_response("Stakes", "The stakes.")}}},
    "/api/tables/{table_id}/leave": {"post": {
        "summary": "Leave a coin game",
        "description": "Leaving an active coin game forfeits the stake and charges a 10% "
                       "leaving fee (rounded up, never more than the balance). Repeating "
                       "the request changes nothing.",
        "parameters": [{"name": "table_id", "in": "path", "required": True,
                        "schema": {"type": "string"}}, _CSRF],
        "responses": {"200": json_response("Left", "Left (or the game was already over)."),
                      "401": error_response("Not signed in."), "403": error_response("CSRF."),
                      "404": error_response("No coin table of yours with that id.")}}},
}


def add_to_openapi() -> None:
    """Add the paths and schemas, and the coin request to ``POST /api/tables``."""
    openapi._SCHEMAS.update(SCHEMAS)
    openapi._PATHS.update(PATHS)
    post = openapi._PATHS["/api/tables"]["post"]
    post["requestBody"] = {"required": True, "content": {"application/json": {"schema": {
        "oneOf": [{"$ref": "#/components/schemas/PracticeTableRequest"},
                  {"$ref": "#/components/schemas/CoinTableRequest"}]}}}}
    post["description"] = (
        "Open a practice table (no account) or a coin table (signed in, with the "
        "X-CSRF-Token header): the person sits South (seat 0), computer players elsewhere. "
        "A coin table holds the stake when the game starts; a win pays twice the stake.")
    post["responses"].update({
        "401": error_response("Coin table: not signed in."),
        "403": error_response("Coin table: CSRF token missing or wrong."),
        "409": error_response("Coin table: not enough coins, or a coin game is already active."),
    })
