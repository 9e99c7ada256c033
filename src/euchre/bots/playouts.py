"""Close bids judged by play-outs with imperfect information: the conventions play every seat.

Open-hand solving overvalues calling (every sampled partner plays as if it saw every
card), which is why bids go by the tables. For a bid the tables find close, this plays it
out instead: deals of the unseen cards that fit the bidding so far (the sampler and its
bid weights) are dealt, the bidding is replayed on each, and each alternative is played
to the end of the hand by players who see only their own cards (the rest of the bidding
by ``bidder``, the card play and the discard by the conventions of
:mod:`euchre.bots.medium`, a few microseconds a card). Every alternative plays the same
deals, so their common spread cancels. The worth is the points through the score-aware
utility of :mod:`euchre.bots.policy`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import actions as A
from ..actions import Action
from ..cards import cards_of
from ..errors import IllegalActionError
from ..hand import Deal, HandState
from ..view import HandView
from . import medium
from .policy import utility
from .sampling import bid_weight, informative_bids, knowledge, sample_hands


@dataclass(frozen=True)
class PlayoutResult:
    """What the play-outs found: each alternative's weighted mean worth, and the deals."""

    worth: dict[Action, float]
    """Mean score-aware worth (points at 0-0) for the bidder's side, per alternative."""
    diff_se: float
    """Standard error of the first two alternatives' deal-by-deal difference."""
    deals: int
    """Deals played out (with a weight above 0)."""


def _finish(state: HandState, bidder: Callable[[HandView], Action]) -> HandState:
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        legal = view.legal
        if len(legal) == 1:
            action = legal[0]
        elif view.phase in ("order", "call", "benny"):
            action = bidder(view)
        elif view.phase == "play":
            action = A.PLAYS[medium.play_card(view)]
        elif view.phase == "discard":
            action = A.DISCARDS[medium.discard_for(list(view.hand), view.trump)]
        else:  # defending alone, a farmer's hand: the conventions decline
            action = A.PASS if A.PASS in legal else legal[0]
        state = state.apply(action, seat)
    return state


def replay(view: HandView, hands: Sequence[int], pool: int) -> HandState | None:
    """The hand as it stands in ``view``, dealt as ``hands`` say, the rest of ``pool`` (the
    unseen cards) in the kitty; None if the view's history cannot be replayed on it."""
    rules = view.rules
    me = view.seat
    dealt = []
    taken = 1 << view.upcard
    for seat in range(4):
        mask = hands[seat] if seat != me else sum(1 << c for c in view.hand)
        taken |= mask
        dealt.append(tuple(cards_of(mask)))
    kitty = tuple(cards_of(pool & ~taken))
    try:
        state = HandState(rules, view.dealer, Deal(tuple(dealt), (view.upcard, *kitty), "3-2"),
                          view.score)
        for seat, action in view.history:
            if action is None:
                return None
            state = state.apply(action, seat)
    except (IllegalActionError, ValueError):
        return None
    return state


def bid_playouts(
    view: HandView,
    alternatives: Sequence[Action],
    rng: random.Random,
    samples: int,
    bidder: Callable[[HandView], Action],
) -> PlayoutResult | None:
    """Each alternative's worth over ``samples`` sampled deals, played out by the conventions.

    None when no deal could be replayed (a history with hidden moves, such as a farmer's
    swap). Deterministic for a given ``rng`` state.
    """
    if any(action is None for _, action in view.history):
        return None
    k = knowledge(view)
    bids = informative_bids(view)
    me = view.seat
    side = me % 2
    game_to = view.rules.game_to
    totals = [0.0] * len(alternatives)
    wsum = dsum = dsq = 0.0
    n = 0
    for _ in range(samples):
        hands = sample_hands(k, rng)
        w = bid_weight(view, k, hands, bids)
        if w <= 0.0:
            continue
        state = replay(view, hands, k.pool)
        if state is None or state.to_act != me:
            continue
        values = []
        for action in alternatives:
            end = _finish(state.apply(action, me), bidder)
            values.append(utility(view.score, side, end.points[side], end.points[1 - side],
                                  game_to))
        n += 1
        wsum += w
        for j, v in enumerate(values):
            totals[j] += w * v
        if len(values) > 1:
            d = values[0] - values[1]
            dsum += w * d
            dsq += w * d * d
    if n == 0 or wsum <= 0.0:
        return None
    mean = dsum / wsum
    se = (max(dsq / wsum - mean * mean, 0.0) / n) ** 0.5
    return PlayoutResult({a: totals[j] / wsum for j, a in enumerate(alternatives)}, se, n)


__all__ = ["PlayoutResult", "bid_playouts", "replay"]
