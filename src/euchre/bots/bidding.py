"""Bids valued on the bidder's own cards: sampled deals, solved from the opening lead.

The bidding tables of :mod:`euchre.bots.policy` value a call from a few hand features,
fitted over many open-handed play-outs. Here the same open-handed worth is measured for
the exact hand: deals of the unseen cards that fit the bidding so far (weighted as card
play weights them) are solved from the opening lead with the candidate suit as trump,
plainly and alone, under the score-aware payoff. The worth of passing still comes from
the tables (it depends on how the later seats bid), so a call is compared with passing on
the tables' own scale: both are open-handed estimates of the same thing.
"""

from __future__ import annotations

import random

from .. import actions as A
from ..cards import JOKER, card_suit
from ..view import HandView
from . import solver
from .policy import (
    ALONE_CALIBRATION,
    BidEstimate,
    bid_estimates,
    dealer_discard,
    hand_for,
    linear_utility,
)
from .sampling import bid_weight, informative_bids, knowledge, sample_hands

BID_SAMPLES = 160
"""Sampled deals per bidding decision (each solved once per suit and way of calling)."""

CALL_OFFSET = {1: 0.0, 2: 0.0}
"""Points taken off a sampled call's worth, by round: the sampled deals read the earlier
passes more loosely than the real bidders pass, so they flatter calls a little against the
tables' worth of passing."""

BATCH = 40
"""Deals solved per call of the solver."""


def _round(view: HandView) -> int:
    return 1 if view.phase in ("order", "benny") else 2


def sampled_bid_estimates(
    view: HandView, rng: random.Random, samples: int = BID_SAMPLES, max_nodes: int = 4_000_000,
) -> list[BidEstimate]:
    """:func:`~euchre.bots.policy.bid_estimates` with each call's worth from sampled deals.

    Passing keeps the tables' worth; a call's worth is the weighted average over the deals
    of its open-handed score-aware worth (alone: plus the tables' lone-hand calibration);
    a loner the tables rule out (a plain march wins the game) stays ruled out. Without a
    suit to sample (the Benny turned up), the tables' estimates are returned.
    """
    from .hard import first_leader, out_mask, payoffs  # hard imports this module's users

    table = bid_estimates(view)
    if view.upcard == JOKER or view.phase == "benny":
        return table
    calls = [e for e in table if e.action.kind in (A.ORDER, A.CALL) and e.utility > -50.0]
    if not calls:
        return table
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
        if (suit, e.action.alone) not in kinds:
            kinds.append((suit, e.action.alone))
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
    calibration = linear_utility(view.score, side, game_to, ALONE_CALIBRATION)
    out_est: list[BidEstimate] = []
    for e in table:
        if e.action.kind in (A.ORDER, A.CALL) and e.utility > -50.0:
            suit = card_suit(up) if e.action.kind == A.ORDER else e.action.suit
            u = worth[(suit, e.action.alone)] + (calibration if e.action.alone else 0.0)
            u -= CALL_OFFSET[round_]
            e = BidEstimate(e.action, e.expected_points, e.make_chance, u)
        out_est.append(e)
    out_est.sort(key=lambda e: -e.utility)
    return out_est


__all__ = ["BID_SAMPLES", "sampled_bid_estimates"]
