"""Hints: what the expert player thinks of each legal action, in words a player understands.

:func:`analyse` gives one :class:`ActionWorth` per legal action, the recommended one first (the
action the expert player would take with the same seed, unless the time cap cuts it
short). Card play and the discard come from sampled deals solved open-handed; bids come
from the hand-value tables. :func:`explain` turns the hints into lines for the terminal.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from .. import actions as A
from ..actions import Action
from ..cards import card_name, card_suit, suit_name
from ..view import HandView
from .base import decision_rng
from .expert import EXPERT_BUDGET
from .hard import Budget, bid_choices, evaluate_defend_alone, ranked_discards, ranked_plays
from .policy import bid_features, estimate, load_tables, position, variant

DEFAULT_BUDGET = 1.0
"""Seconds an analysis may take by default (a cap: it counts its work in deals)."""


@dataclass(frozen=True)
class ActionWorth:
    """One legal action and what it is worth to the player's side."""

    action: Action
    """The action."""
    expected_points: float | None
    """Expected points for the player's side this hand (None: no estimate)."""
    make_chance: float | None
    """Chance the makers make it, where meaningful (None otherwise)."""
    text: str
    """The advice in words, such as ``"Play the Ace of Spades: wins about 1.2 points …"``."""

    def to_json(self) -> dict[str, Any]:
        """The hint as a JSON-ready dict."""
        return {
            "action": str(self.action),
            "expected_points": self.expected_points,
            "make_chance": self.make_chance,
            "text": self.text,
        }


def describe_action(view: HandView, action: Action) -> str:
    """An action in words: ``"Play the Ace of Spades"``, ``"Order up the Jack of Hearts"``."""
    kind = action.kind
    alone = " and go alone" if action.alone and kind in (A.ORDER, A.CALL) else ""
    if kind == A.PLAY:
        return f"Play the {card_name(action.card)}"
    if kind == A.DISCARD:
        return f"Discard the {card_name(action.card)}"
    if kind == A.ORDER:
        verb = "Pick up" if view.seat == view.dealer else "Order up"
        return f"{verb} the {card_name(view.upcard)}{alone}"
    if kind == A.CALL:
        return f"Call {suit_name(action.suit)}{alone}"  # the words of the web client's button
    if kind == A.DEFEND:
        return "Defend alone"
    if kind == A.PASS_KIND:
        return "Defend with your partner" if view.phase == "defend" else "Pass"
    if kind == A.FARMER_KEEP:
        return "Keep your farmer's hand"
    if kind == A.FARMER_THROW:
        return "Throw the hand in"
    if kind == A.FARMER_SWAP:
        names = ", ".join(card_name(c) for c in action.cards)
        return f"Swap the {names} for the kitty"
    return str(action)


def _points_words(x: float) -> str:
    size = abs(x)
    unit = "point" if f"{size:.1f}" == "1.0" else "points"
    if x >= 0.05:
        return f"wins about {size:.1f} {unit} on average"
    if x <= -0.05:
        return f"loses about {size:.1f} {unit} on average"
    return "breaks about even on average"


def _chance_words(make: float, ours: bool) -> str:
    if ours:
        return f"your side makes it {100 * make:.0f}% of the time"
    return f"you euchre them {100 * (1 - make):.0f}% of the time"


def _hint(view: HandView, action: Action, points: float | None, make: float | None,
          ours: bool = True, note: str = "") -> ActionWorth:
    parts = []
    if points is not None:
        parts.append(_points_words(points))
    if make is not None:
        parts.append(_chance_words(make, ours))
    if note:
        parts.append(note)
    text = describe_action(view, action) + (": " + "; ".join(parts) if parts else "")
    return ActionWorth(action, points, make, text)


def analyse(
    view: HandView, seed: int | None = None, budget: float = DEFAULT_BUDGET,
    samples: int | None = None,
) -> list[ActionWorth]:
    """One hint per legal action, the recommended action first.

    The work is the expert player's (``samples`` deals, by default its own); ``budget``
    is only a cap in seconds, logged when it cuts an analysis short.
    """
    legal = view.legal
    if not legal:
        return []
    rng = decision_rng(0 if seed is None else seed, view)
    work = dataclasses.replace(
        EXPERT_BUDGET,
        samples=EXPERT_BUDGET.samples if samples is None else samples,
        time_cap=budget,
    )
    phase = view.phase
    if phase == "play":
        return _play_hints(view, rng, work)
    if phase in ("order", "call", "benny"):
        hints = []
        for e in bid_choices(view, rng, work):
            note = "" if e.action.kind != A.PASS_KIND else "leaves trump to the others"
            hints.append(_hint(view, e.action, e.expected_points, e.make_chance, True, note))
        return hints
    if phase == "discard":
        return _discard_hints(view, rng, work)
    if phase == "defend":
        lone, pair = evaluate_defend_alone(view, rng, work)
        from .hard import DEFEND_ALONE_MARGIN

        first, second = (A.DEFEND_ALONE, A.PASS) if lone > pair + DEFEND_ALONE_MARGIN else (
            A.PASS, A.DEFEND_ALONE)
        value = {A.DEFEND_ALONE: lone, A.PASS: pair}
        return [_hint(view, a, value[a], None, False) for a in (first, second) if a in legal]
    return _farmer_hints(view)


def _play_hints(view: HandView, rng: random.Random, work: Budget) -> list[ActionWorth]:
    ours = view.maker % 2 == view.seat % 2
    ranked = ranked_plays(view, rng, work, detailed=True)
    return [
        _hint(view, A.PLAYS[e.card], e.expected_points, e.make_chance, ours) for e in ranked
    ]


def _discard_hints(view: HandView, rng: random.Random, work: Budget) -> list[ActionWorth]:
    if view.seat in view.sitting_out:
        return [_hint(view, a, None, None, note="you sit out this hand") for a in view.legal]
    ours = view.maker % 2 == view.seat % 2
    ranked = ranked_discards(view, rng, work, detailed=True)
    return [_hint(view, A.DISCARDS[c], pts, make, ours) for c, _, pts, make in ranked]


def _farmer_hints(view: HandView) -> list[ActionWorth]:
    """Throwing in scores nothing; keeping or swapping, the tables' value of passing."""
    suit = card_suit(view.upcard) if view.upcard < 24 else 0
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    pos = position(view)
    tables = load_tables().get(variant(view.rules))
    keep = estimate(tables.get(f"1-{pos}") if tables else None,
                    bid_features(hand, suit, pos, 1, view.upcard)).pass_points
    out = []
    for a in view.legal:
        if a.kind == A.FARMER_THROW:
            out.append(_hint(view, a, 0.0, None, note="a new deal, nobody scores"))
        elif a.kind == A.FARMER_KEEP:
            out.append(_hint(view, a, keep, None, note="nines and tens rarely take a trick"))
        else:
            out.append(_hint(view, a, None, None, note="three unseen cards for three of yours"))
    out.sort(key=lambda h: 0 if h.action.kind == A.FARMER_THROW else 1)
    return out


def explain(view: HandView, seed: int | None = None, budget: float = DEFAULT_BUDGET) -> list[str]:
    """Lines for the terminal: the recommended action first, then the others."""
    hints = analyse(view, seed=seed, budget=budget)
    if not hints:
        return ["Nothing to decide now."]
    lines = [f"Best: {hints[0].text}"]
    lines.extend(f"  or: {h.text}" for h in hints[1:])
    return lines


__all__ = ["DEFAULT_BUDGET", "ActionWorth", "analyse", "describe_action", "explain"]
