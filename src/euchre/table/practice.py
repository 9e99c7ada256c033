"""Practice tables: a person in the South seat, computer players in the other three.

No account, no coins, no clock. The request names a rules preset, rule changes, and
the level of each computer player (partner North, left West, right East).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ..bots import LEVELS
from ..rules import PRESETS, Rules, RulesError
from .first_draw import choose_first_dealer
from .kinds import PRACTICE
from .names import NameRefused, check_display_name
from .seats import BOT, HUMAN, Seat, TableConfig, hash_token, new_table_id, new_token

DEFAULT_LEVEL = "medium"
"""The computer level used when a request names none."""

_FIELDS = ("kind", "preset", "rules", "partner", "left", "right", "name")


class PracticeRequestError(ValueError):
    """A practice-table request that cannot be honoured; the message says why."""


@dataclass(frozen=True)
class PracticeOptions:
    """What a person asked for when opening a practice table."""

    preset: str = "classic"
    """The rules preset."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Changes to the preset, by rule name."""
    partner: str = DEFAULT_LEVEL
    """The level of the partner (North, seat 2)."""
    left: str = DEFAULT_LEVEL
    """The level of the left opponent (West, seat 1)."""
    right: str = DEFAULT_LEVEL
    """The level of the right opponent (East, seat 3)."""
    name: str = "You"
    """The person's display name."""

    def make_rules(self) -> Rules:
        """The rules: the preset with the changes applied."""
        return Rules.preset(self.preset, **self.rules)


def parse_practice_request(body: Any) -> PracticeOptions:
    """Read a ``POST /api/tables`` body for a practice table; raise with a clear reason."""
    if not isinstance(body, dict):
        raise PracticeRequestError("the request body must be a JSON object")
    unknown = sorted(set(body) - set(_FIELDS))
    if unknown:
        raise PracticeRequestError(
            f"unknown field {unknown[0]!r}: practice tables take {', '.join(_FIELDS[1:])}"
        )
    preset = body.get("preset", "classic")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise PracticeRequestError(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
    rules = body.get("rules", {})
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise PracticeRequestError("rules must be an object of rule name to value")
    levels = {}
    for key in ("partner", "left", "right"):
        level = body.get(key, DEFAULT_LEVEL)
        if not isinstance(level, str) or level.strip().lower() not in LEVELS:
            raise PracticeRequestError(
                f"{key} must be one of {', '.join(LEVELS)}, not {level!r}"
            )
        levels[key] = level.strip().lower()
    name = body.get("name", "You")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 24:
        raise PracticeRequestError("name must be 1 to 24 characters")
    try:
        check_display_name(name.strip())
    except NameRefused as e:
        raise PracticeRequestError(str(e)) from None
    options = PracticeOptions(preset, dict(rules), name=name.strip(), **levels)
    try:
        options.make_rules()
    except (RulesError, TypeError) as e:
        raise PracticeRequestError(f"bad rules: {e}") from None
    return options


def practice_table(
    options: PracticeOptions, table_id: str | None = None, token: str | None = None,
    first_dealer: int | None = None,
) -> tuple[TableConfig, str]:
    """The settings of a new practice table and the person's token (South, seat 0)."""
    token = token or new_token()

    def bot(level: str, where: str) -> Seat:
        return Seat(BOT, f"{where} ({level})", level, secrets.randbits(62))

    seats = (
        Seat(HUMAN, options.name, None, None, hash_token(token)),
        bot(options.left, "West"),
        bot(options.partner, "North"),
        bot(options.right, "East"),
    )
    dealer, draw = choose_first_dealer(first_dealer)
    config = TableConfig(
        id=table_id or new_table_id(),
        kind=PRACTICE,
        rules=options.make_rules(),
        seats=seats,
        preset=options.preset,
        created_at=time.time(),
        first_dealer=dealer,
        first_draw=draw,
    )
    return config, token
