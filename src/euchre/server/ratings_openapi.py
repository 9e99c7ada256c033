"""The OpenAPI entries of the ratings and statistics API, added to the server's document."""

from __future__ import annotations

from typing import Any

from . import openapi
from .openapi import error_response as _error
from .openapi import json_response as _json

MAX_LEADERS = 100
"""The most leaders one page of ``GET /api/leaders`` lists."""

LEADERS_PAGE = 25
"""Leaders per page when the request names no ``limit``."""

_RATING = {
    "type": "object",
    "description": "An openskill rating: skill mu, its uncertainty sigma (one standard "
                   "deviation), ordinal = mu - 3 sigma (what the leaderboard sorts by), "
                   "rated games finished.",
    "properties": {"mu": {"type": "number"}, "sigma": {"type": "number"},
                   "ordinal": {"type": "number"}, "games": {"type": "integer"}},
}

_COUNTS = {
    "type": "object",
    "description": "Counts over finished games (games, wins, hands, points, made_trump, "
                   "made, euchred, alone, marches) and rates (win_rate, points_per_hand, "
                   "make_trump_rate per hand, euchred_rate per hand made trump, alone_rate "
                   "and march_rate per hand; null with nothing to divide by).",
    "additionalProperties": {"type": ["number", "null"]},
}

SCHEMAS: dict[str, Any] = {
    "Rating": _RATING,
    "StatCounts": _COUNTS,
    "Leader": {
        "type": "object",
        "properties": {"rank": {"type": "integer"}, "username": {"type": "string"},
                       "mu": {"type": "number"}, "sigma": {"type": "number"},
                       "ordinal": {"type": "number"}, "games": {"type": "integer"}},
    },
    "Leaders": {
        "type": "object",
        "properties": {
            "leaders": {"type": "array", "items": {"$ref": "#/components/schemas/Leader"}},
            "total": {"type": "integer", "description": "People with a rating."},
            "limit": {"type": "integer"}, "offset": {"type": "integer"},
            "next": {"type": ["integer", "null"],
                     "description": "The offset of the next page (null: the last)."},
        },
    },
    "PersonStats": {
        "type": "object",
        "properties": {
            "username": {"type": "string"},
            "rating": {"oneOf": [{"$ref": "#/components/schemas/Rating"}, {"type": "null"}]},
            "rank": {"type": ["integer", "null"]},
            "stats": {"type": "object", "properties": {
                "all": {"$ref": "#/components/schemas/StatCounts"},
                "games_counted": {"type": "integer"},
                "by_kind": {"type": "object", "additionalProperties":
                            {"$ref": "#/components/schemas/StatCounts"},
                            "description": "practice, coin, online."}}},
        },
    },
    "GameStats": {
        "type": "object",
        "properties": {
            "id": {"type": "string"}, "kind": {"type": "string"},
            "seats": {"type": "array", "items": {"$ref": "#/components/schemas/StatCounts"},
                      "description": "Per seat 0-3, plus seat, name and signed_in."},
        },
    },
}

PATHS: dict[str, Any] = {
    "/api/leaders": {"get": {
        "summary": "The leaderboard of rated play",
        "description": "People with a rating, best ordinal (mu - 3 sigma) first, a page at "
                       "a time.",
        "parameters": [
            {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1,
                                                        "maximum": MAX_LEADERS,
                                                        "default": LEADERS_PAGE}},
            {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": 0,
                                                         "default": 0}}],
        "responses": {"200": _json("Leaders", "One page of the leaderboard."),
                      "400": _error("Bad limit or offset.")}}},
    "/api/me/stats": {"get": {
        "summary": "The signed-in person's rating and statistics",
        "description": "Computed from the records of their finished practice, coin and "
                       "online games (the latest 200).",
        "responses": {"200": _json("PersonStats", "Rating, rank and statistics."),
                      "401": _error("Not signed in.")}}},
    "/api/games/{game_id}/stats": {"get": {
        "summary": "Each seat's statistics in one finished game",
        "description": "What a browser adds to the statistics it keeps for a guest's "
                       "practice games.",
        "parameters": [openapi._GAME],
        "responses": {"200": _json("GameStats", "The seats' counts."),
                      "404": _error("No such game."),
                      "409": _error("The game is still being played.")}}},
}


def add_to_openapi() -> None:
    """Add the paths and schemas."""
    openapi._SCHEMAS.update(SCHEMAS)
    openapi._PATHS.update(PATHS)
