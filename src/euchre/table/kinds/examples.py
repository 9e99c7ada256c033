"""Example hands from the strategy guide (``/learn``): a practice table can be dealt one.

The hands live in the web client's ``learn/examples.json`` (the guide shows the same file),
each with the dealer, the four hands (seat 0 is the person, South) and the kitty, upcard first.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...cards import parse_card
from ...game import GameState
from ...hand import Deal
from ...rules import Rules

EXAMPLES_FILE = Path(__file__).resolve().parents[2] / "web" / "static" / "learn" / "examples.json"
"""Where the examples are kept."""


class ExampleError(ValueError):
    """An unknown example id, or an example file that is not a valid deal."""


@dataclass(frozen=True)
class Example:
    """One example hand of the guide."""

    id: str
    """Its id (used in ``/learn#id`` and the practice request's ``example``)."""
    preset: str
    """The rules preset it is played under."""
    dealer: int
    """The dealer's seat."""
    hands: tuple[tuple[str, ...], ...]
    """Five cards for each seat 0-3 (seat 0 is the person)."""
    kitty: tuple[str, ...]
    """The kitty, upcard first."""

    def first_hand(self, rules: Rules) -> GameState:
        """A new game whose first hand is this deal."""
        deal = Deal(
            tuple(tuple(parse_card(c) for c in h) for h in self.hands),
            tuple(parse_card(c) for c in self.kitty),
            "3-2",
        )
        return GameState(rules, self.dealer).deal(deal)


def _example(raw: Any) -> Example:
    try:
        example = Example(
            id=str(raw["id"]),
            preset=str(raw.get("preset", "classic")),
            dealer=int(raw["dealer"]),
            hands=tuple(tuple(str(c) for c in h) for h in raw["hands"]),
            kitty=tuple(str(c) for c in raw["kitty"]),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise ExampleError(f"a malformed example: {e}") from None
    cards = [c for h in example.hands for c in h] + list(example.kitty)
    if not (0 <= example.dealer < 4 and len(example.hands) == 4
            and all(len(h) == 5 for h in example.hands) and len(example.kitty) == 4
            and len(set(cards)) == 24):
        raise ExampleError(f"example {example.id!r} is not a deal of 24 different cards")
    return example


@functools.cache
def examples() -> dict[str, Example]:
    """Every example, by id (read once)."""
    data = json.loads(EXAMPLES_FILE.read_text(encoding="utf-8"))
    return {e.id: e for e in map(_example, data["examples"])}


def example(example_id: str) -> Example:
    """The example with this id, or :class:`ExampleError`."""
    found = examples().get(example_id)
    if found is None:
        raise ExampleError(f"no example hand {example_id!r}: choose one of {', '.join(examples())}")
    return found
