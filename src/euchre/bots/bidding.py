"""Going alone or not, judged on the bidder's own cards: sampled deals, solved both ways.

The bidding tables of :mod:`euchre.bots.policy` value a call from a few hand features,
fitted over many open-handed play-outs. For the choice between calling a suit alone and
with partner, the same open-handed worth is measured for the exact hand: deals of the
unseen cards that fit the bidding so far (weighted as card play weights them) are solved
from the opening lead with that suit as trump, alone and not, under the score-aware
payoff. The deal-by-deal difference (plus the tables' lone-hand calibration) is added to
the tables' worth of the plain call. Whether to call at all, and which suit, stays with
the tables and the conventions: measured by play-outs, sampled worths for those choices
gained nothing, and they broke a convention (a light order-up for partner).
"""

from __future__ import annotations

import random

from .. import actions as A
from ..cards import JOKER, card_suit
from ..view import HandView
from . import solver
from .payoffs import first_leader, out_mask, payoffs
from .policy import (
    ALONE_CALIBRATION,
    BidEstimate,
    bid_estimates,
    dealer_discard,
    hand_for,
    linear_utility,
)
from .sampling import bid_weight, informative_bids, knowledge, sample_hands

BID_SAMPLES = 300
"""Sampled deals per bidding decision with a loner to judge (each solved alone and not,
for every suit that may be called alone)."""

LONE_CALIBRATION = ALONE_CALIBRATION
"""Points added to alone's sampled gain over plain: lone hands score more at the table
than open-handed (the tables' own calibration)."""

BATCH = 40
"""Deals solved per call of the solver."""


def _round(view: HandView) -> int:
    return 1 if view.phase in ("order", "benny") else 2


def sampled_bid_estimates(
    view: HandView, rng: random.Random, samples: int = BID_SAMPLES, max_nodes: int = 4_000_000,
) -> list[BidEstimate]:
    """:func:`~euchre.bots.policy.bid_estimates` with each lone call judged on sampled deals.

    A lone call's worth becomes the tables' worth of the plain call in its suit plus the
    weighted average, over the deals, of alone's open-handed score-aware worth less the
    plain call's (and the tables' lone-hand calibration). Passing and plain calls keep the
    tables' worths; a loner the tables rule out (a plain march wins the game) stays ruled
    out. With the Benny turned up, or no loner to judge, the tables' estimates are returned.
    """

    table = bid_estimates(view)
    if view.upcard == JOKER or view.phase == "benny":
        return table
    calls = [e for e in table if e.action.kind in (A.ORDER, A.CALL) and e.utility > -50.0]
    me = view.seat
    side = me % 2
    round_ = _round(view)
    k = knowledge(view)
    bids = informative_bids(view)
    up = view.upcard
    dealer = view.dealer
    partner = (me + 2) % 4
    kinds: list[tuple[int, bool]] = []
    for e in calls:
        suit = card_suit(up) if e.action.kind == A.ORDER else e.action.suit
        if e.action.alone and (suit, True) not in kinds:
            kinds += [(suit, False), (suit, True)]
    if not kinds:
        return table
    base_out = out_mask(view)
    plans = []
    for suit, alone in kinds:
        out = base_out | (1 << partner if alone else 0)
        worth_pay = payoffs(view, me, alone, -1)[0]
        leader = first_leader(view, out, me, alone, -1)
        mine = hand_for(view, suit, round_)
        plans.append((suit, out, worth_pay, leader, mine))
    totals = [0.0] * len(kinds)
    wsum = 0.0
    nodes = 0
    n = 0
    while n < samples and nodes < max_nodes:
        positions: list[solver.Position] = []
        weights: list[float] = []
        for _ in range(min(BATCH, samples - n)):
            n += 1
            hands = sample_hands(k, rng)
            w = bid_weight(view, k, hands, bids)
            if w <= 0.0:
                continue
            weights.append(w)
            for suit, out, worth_pay, leader, mine in plans:
                h = list(hands)
                h[me] = mine
                if round_ == 1 and dealer != me and not (out >> dealer & 1):
                    six = h[dealer] | 1 << up
                    h[dealer] = six & ~(1 << dealer_discard(six, suit))
                positions.append((h, suit, leader, [], out, side, 0, worth_pay))
        results = solver.solve_many(positions)
        for i, w in enumerate(weights):
            wsum += w
            for j, (_suit, _out, _pay, leader, _mine) in enumerate(plans):
                values, used = results[i * len(plans) + j]
                nodes += used
                best = max(values.values()) if leader % 2 == side else min(values.values())
                totals[j] += w * best / 1000.0
    if wsum <= 0.0:
        return table
    worth = {kinds[j]: totals[j] / wsum for j in range(len(kinds))}
    game_to = view.rules.game_to
    calibration = linear_utility(view.score, side, game_to, LONE_CALIBRATION)
    plain = {(card_suit(up) if e.action.kind == A.ORDER else e.action.suit): e.utility
             for e in calls if not e.action.alone}
    out_est: list[BidEstimate] = []
    for e in table:
        suit = card_suit(up) if e.action.kind == A.ORDER else e.action.suit
        if e.action.alone and e.utility > -50.0 and suit in plain and (suit, False) in worth:
            # alone against plain by the deals (the same deals decide both, so their
            # common error cancels), added to the tables' worth of the plain call
            gain = worth[(suit, True)] - worth[(suit, False)] + calibration
            e = BidEstimate(e.action, e.expected_points, e.make_chance, plain[suit] + gain)
        out_est.append(e)
    out_est.sort(key=lambda e: -e.utility)
    return out_est


__all__ = ["BID_SAMPLES", "sampled_bid_estimates"]
