"""The first dealer of a new table, found as doc 002 deal rule 1 says.

"Deal cards face up one at a time around the table. The first player to receive a black jack
deals." The cards come from a freshly shuffled 24-card deck (the joker is never in it), dealt
from South (seat 0) clockwise; the cards shown are kept with the table's settings and sent to
every seat in the TABLE snapshot (``first_draw``), so the page can show how the dealer was found.
"""

from __future__ import annotations

import random
from typing import Any

from ...cards import card_text, parse_card
from ...shuffle import draw_first_dealer, shuffled_deck

Draw = tuple[tuple[int, int], ...]
"""The cards dealt face up, in order, as (seat, card); the last is the first black jack."""

DRAW_START = 0
"""The seat dealt the first face-up card (South); the deck is random, so any seat is fair."""


def choose_first_dealer(given: int | None = None,
                        rng: random.Random | None = None) -> tuple[int, Draw]:
    """The first dealer and the draw that found it; a ``given`` dealer (tests, a table resumed
    from settings) is taken as is, with no draw. ``rng`` None: the secure generator."""
    if given is not None:
        return given, ()
    dealer, shown = draw_first_dealer(shuffled_deck(False, rng), DRAW_START)
    return dealer, tuple(shown)


def draw_to_json(draw: Draw) -> list[list[Any]]:
    """A draw for storage: ``[[seat, "JS"], ...]``."""
    return [[seat, card_text(card)] for seat, card in draw]


def draw_from_json(data: Any) -> Draw:
    """Read :func:`draw_to_json` output (anything missing or empty: no draw)."""
    return tuple((int(seat), parse_card(str(card))) for seat, card in (data or ()))


def first_draw_json(dealer: int, draw: Draw) -> dict[str, Any] | None:
    """The snapshot's ``first_draw``: ``{"dealer", "cards": [{"seat", "card"}]}``, or None
    when the table's first dealer was not drawn."""
    if not draw:
        return None
    return {"dealer": dealer,
            "cards": [{"seat": seat, "card": card_text(card)} for seat, card in draw]}
