"""Corrections to the bidding tables, measured by the hard player's own play-outs.

The tables (:mod:`euchre.bots.policy`) are fitted on open-handed play-outs. Where a call
and a pass are close, ``scripts/label_bids.py`` plays both lines out with four hard
players on real deals, and ``scripts/fit_bid_corrections.py`` fits, per bidding group
(round and seat), the tables' error as a linear function of their own call-minus-pass
difference and the call's hand features. The shipped file holds only the groups whose
correction gained on deals it was not fitted on (``data/bid_corrections.json``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from importlib import resources

from .. import actions as A
from ..cards import card_suit
from ..view import HandView
from .policy import BidEstimate, bid_features, hand_for, position

DATA_FILE = "bid_corrections.json"
"""The shipped corrections, in ``euchre/bots/data``."""


@functools.cache
def load() -> dict[str, list[float]]:
    """Weights per group (``"round-seat"``): the tables' difference first, then the
    features of :func:`~euchre.bots.policy.bid_features`; empty when none is shipped."""
    try:
        text = resources.files("euchre.bots").joinpath("data", DATA_FILE).read_text()
    except (FileNotFoundError, OSError):
        return {}
    groups: dict[str, list[float]] = json.loads(text).get("groups", {})
    return groups


def corrected(view: HandView, est: list[BidEstimate]) -> list[BidEstimate]:
    """``est`` with each call's utility corrected against passing, best first again.

    Unchanged when the group has no correction or passing is not allowed. A call the
    tables rule out (utility below -50) stays ruled out.
    """
    if view.phase not in ("order", "call"):
        return est
    round_ = 1 if view.phase == "order" else 2
    weights = load().get(f"{round_}-{position(view)}")
    passing = next((e for e in est if e.action == A.PASS), None)
    if weights is None or passing is None:
        return est
    out = []
    for e in est:
        if e.action == A.PASS or e.utility < -50.0:
            out.append(e)
            continue
        suit = card_suit(view.upcard) if e.action.kind == A.ORDER else e.action.suit
        features = bid_features(hand_for(view, suit, round_), suit, position(view), round_,
                                view.upcard)
        diff = e.utility - passing.utility
        shift = sum(w * x for w, x in zip(weights, [diff, *features], strict=True))
        out.append(dataclasses.replace(e, utility=e.utility + shift))
    out.sort(key=lambda e: -e.utility)
    return out
