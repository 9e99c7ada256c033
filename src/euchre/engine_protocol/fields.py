"""Reading the fields of engine-protocol requests (``session.py``), with clear refusals."""

from __future__ import annotations

from typing import Any, overload

from ..cards import CardError, parse_card
from ..hand import Deal
from ..rules import Rules, RulesError

Request = dict[str, Any]
"""One parsed request line."""


class ProtocolError(Exception):
    """A refused request: ``code`` is a short word for programs, the message is for people."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code
        """One of ``bad_json``, ``bad_request``, ``unknown_command``, ``no_game``,
        ``bad_action``, ``illegal``, ``bad_deal``, ``bad_record``, ``unavailable``,
        ``internal`` (a bug in the engine: please report it)."""


def optional_int(request: Request, name: str) -> int | None:
    """A request's integer field, or None when it is absent or null."""
    value = request.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ProtocolError(f"{name} must be an integer")
    return value


@overload
def seat_field(request: Request, name: str, default: int) -> int: ...
@overload
def seat_field(request: Request, name: str, default: None) -> int | None: ...
def seat_field(request: Request, name: str, default: int | None) -> int | None:
    """A request's seat field (0-3), or ``default`` when it is absent."""
    value = optional_int(request, name)
    if value is None:
        return default
    if not 0 <= value <= 3:
        raise ProtocolError(f"{name} must be a seat 0-3, not {value}")
    return value


def rules_field(request: Request) -> Rules:
    """The rules a request names: ``preset`` (default classic) changed by ``rules``."""
    preset = request.get("preset", "classic")
    changes = request.get("rules", {})
    if not isinstance(preset, str):
        raise ProtocolError("preset must be a string such as \"classic\"")
    if not isinstance(changes, dict):
        raise ProtocolError("rules must be an object of rule fields, such as "
                          '{"stick_the_dealer": true}')
    try:
        return Rules.preset(preset, **changes)
    except (RulesError, TypeError) as e:
        raise ProtocolError(f"bad rules: {e}") from None


def fixed_deal(request: Request, pattern: str) -> Deal:
    """The deal a request gives as ``hands`` (seats 0-3) and ``kitty`` (upcard first)."""
    hands, kitty = request.get("hands"), request.get("kitty")
    if not (isinstance(hands, list) and all(isinstance(h, list) for h in hands)):
        raise ProtocolError("hands must be four lists of cards, seats 0-3", "bad_deal")
    if not isinstance(kitty, list):
        raise ProtocolError("kitty must be a list of cards, the upcard first", "bad_deal")
    try:
        return Deal(tuple(tuple(card_field(c) for c in h) for h in hands),
                    tuple(card_field(c) for c in kitty), pattern)
    except CardError as e:
        raise ProtocolError(f"misdeal: {e}", "bad_deal") from None


def card_field(value: Any) -> int:
    """A card given as text such as ``"JH"``."""
    if not isinstance(value, str):
        raise CardError(f"a card is a string such as \"JH\", not {value!r}")
    return parse_card(value)
