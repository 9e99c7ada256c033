"""One seat's information state as text: everything it has seen this hand, in order.

:func:`information_state_text` is the researcher's string form (OpenSpiel's
``information_state_string``): built from the seat's :class:`~euchre.view.HandView` and nothing
else, so two hands that differ only in cards the seat has not seen give the same text, and it
remembers every action the seat saw (perfect recall), another seat's discard or farmer's swap by
its kind only. ``euchre.env.information_state_tensor`` is the same information as numbers.

The text, one fact a line (cards and actions in the engine's notation)::

    seat 1 West; dealer 3 East; score 0-0 (seats 0 & 2 - seats 1 & 3)
    rules: classic
    phase: play; to act 1
    hand: 9D TD QD
    upcard: JS, taken
    0: order
    3: discard ?
    0: play 9H
    legal: play 9D, play TD, play QD

``rules:`` gives the rules as :meth:`~euchre.rules.Rules.to_text` does (``classic`` when no rule
differs); ``legal:`` appears only when the seat is to act; the lines after ``upcard:`` are the
history, a ``?`` standing for a card the seat did not see; a last line tells the result once the
hand is over.
"""

from __future__ import annotations

from .cards import card_text
from .hand import SEAT_NAMES
from .view import HandView


def information_state_text(view: HandView) -> str:
    """The seat's information state as text (the module docstring gives the layout)."""
    seat, dealer = view.seat, view.dealer
    lines = [
        f"seat {seat} {SEAT_NAMES[seat]}; dealer {dealer} {SEAT_NAMES[dealer]}; "
        f"score {view.score[0]}-{view.score[1]} (seats 0 & 2 - seats 1 & 3)",
        f"rules: {view.rules.to_text()}",
        f"phase: {view.phase}"
        + (f"; to act {view.to_act}" if view.to_act is not None else ""),
        "hand: " + " ".join(card_text(c) for c in view.hand),
        f"upcard: {card_text(view.upcard)}{', taken' if view.upcard_taken else ''}",
    ]
    hidden = iter(view.hidden_kinds)
    for s, action in view.history:
        lines.append(f"{s}: {action}" if action is not None else f"{s}: {next(hidden)} ?")
    if view.legal:
        lines.append("legal: " + ", ".join(str(a) for a in view.legal))
    if view.is_over:
        how = "thrown in" if view.thrown_in else f"points {view.points[0]}-{view.points[1]}"
        lines.append(f"over: {how}")
    return "\n".join(lines)
