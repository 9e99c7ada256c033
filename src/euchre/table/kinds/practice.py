"""Practice tables: a person in the South seat, computer players in the other three.

No account, no coins, no clock. The request names a rules preset, rule changes, the
level of each computer player (partner North, left West, right East), optionally their
speed, and optionally an example hand of the strategy guide to deal first.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ...rules import Rules
from ..actor.first_draw import choose_first_dealer
from ..actor.kind import PRACTICE
from ..actor.seats import BOT, HUMAN, Seat, TableConfig, hash_token, new_table_id, new_token
from .examples import example

DEFAULT_LEVEL = "medium"
"""The computer level used when a request names none."""


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
    speed: str = "normal"
    """How fast the computer players move: ``slow``, ``normal`` or ``fast``."""
    example: str | None = None
    """The id of a strategy-guide example hand to deal first (``/learn``), or None."""

    def make_rules(self) -> Rules:
        """The rules: the preset with the changes applied."""
        return Rules.preset(self.preset, **self.rules)


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
    extra: dict[str, Any] = {}
    if options.speed != "normal":
        extra["speed"] = options.speed
    if options.example is not None:
        extra["example"] = options.example
        first_dealer = example(options.example).dealer
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
        extra=extra,
    )
    return config, token


def practice_start(config: TableConfig) -> dict[str, Any]:
    """How a new practice table starts: dealt its example hand (not shuffled: no seed),
    or nothing special (the first hand is shuffled and dealt as usual)."""
    example_id = config.extra.get("example")
    if not isinstance(example_id, str):
        return {}
    return {"game": example(example_id).first_hand(config.rules), "seeds": [""]}
