"""Weighing deals of the unseen cards by what the other seats' bids and plays say.

The deals themselves come from the engine's :mod:`euchre.sampling` (:func:`knowledge` reads
a view into the facts that bind the unseen cards, :func:`sample_hands` deals them at random
within those facts; both are imported here for the computer players). :func:`bid_weight`
says how well a deal fits the bidding (a seat that passed rarely holds a strong hand in the
upcard's suit), using the bidding tables of :mod:`euchre.bots.policy` as the model of the
other players, and :func:`clue_weight` how well it fits the play.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .. import actions as A
from ..cards import JOKER, Card, card_suit, cards_of
from ..lookup import EFFECTIVE_SUIT, FOLLOW_MASK, TRICK_RANK
from ..sampling import (
    Hands,
    Knowledge,
    is_consistent,
    knowledge,
    played_by_seat,
    sample_hands,
)
from ..view import HandView
from .policy import call_probability, dealer_discard

__all__ = [
    "NO_RUFF_FACTOR",
    "THIRD_HAND_FACTOR",
    "Bid",
    "Clue",
    "Hands",
    "Knowledge",
    "bid_weight",
    "bidder_hand",
    "clue_weight",
    "informative_bids",
    "is_consistent",
    "knowledge",
    "play_clues",
    "played_by_seat",
    "sample_deals",
    "sample_hands",
]


def _count(mask: int) -> int:
    return mask.bit_count()


def _suit_of(card: Card, trump: int) -> int:
    return EFFECTIVE_SUIT[trump][card]

# -- reading the bidding -----------------------------------------------------------------


@dataclass(frozen=True)
class Bid:
    """One informative bid: who, in which round, and the suit called (-1: a pass)."""

    seat: int
    """The bidder."""
    round: int
    """1 (the upcard's suit) or 2 (naming a suit)."""
    suit: int
    """The suit ordered or named; -1 for a pass."""


def informative_bids(view: HandView) -> list[Bid]:
    """The bids by other seats that say something about their cards.

    Forced bids (the Benny, a stuck dealer) and bids by seats sitting out are left out.
    """
    out: list[Bid] = []
    passes = 0
    made = False
    for seat, action in view.history:
        if action is None or made:
            continue
        kind = action.kind
        if kind not in (A.PASS_KIND, A.ORDER, A.CALL):
            continue
        round_ = 1 if passes < 4 else 2
        if kind == A.PASS_KIND:
            passes += 1
            suit = -1
        else:
            made = True
            suit = card_suit(view.upcard) if kind == A.ORDER else action.suit
            if view.upcard == JOKER or (
                round_ == 2 and view.rules.stick_the_dealer and seat == view.dealer
            ):
                continue
        if seat == view.seat or seat in view.sitting_out:
            continue
        out.append(Bid(seat, round_, suit))
    return out


def bidder_hand(view: HandView, seat: int, now: int, played: int, round_: int) -> int:
    """The five cards ``seat`` bid with, as well as a deal tells (dealer: after the exchange)."""
    hand = now | played
    if seat == view.dealer and round_ == 1 and not hand >> view.upcard & 1:
        hand |= 1 << view.upcard
        if _count(hand) > 5:
            hand &= ~(1 << dealer_discard(hand, card_suit(view.upcard)))
    return hand


def bid_weight(view: HandView, k: Knowledge, hands: Hands, bids: list[Bid]) -> float:
    """How well a deal fits the bidding: the product of each bid's likelihood under it."""
    if not bids or view.upcard == JOKER:
        return 1.0
    rules = view.rules
    up = view.upcard
    up_suit = card_suit(up)
    weight = 1.0
    for bid in bids:
        s = bid.seat
        pos = (s - view.dealer) % 4
        hand = bidder_hand(view, s, hands[s], k.played[s], bid.round)
        if bid.round == 1:
            p = call_probability(rules, hand, up_suit, pos, 1, up)
            weight *= p if bid.suit >= 0 else 1.0 - p
        elif bid.suit >= 0:
            weight *= call_probability(rules, hand, bid.suit, pos, 2, up)
        else:
            best = max(
                call_probability(rules, hand, t, pos, 2, up) for t in range(4) if t != up_suit
            )
            weight *= 1.0 - best
    return weight


# -- reading the play ----------------------------------------------------------------------

THIRD_HAND_FACTOR = 0.3
"""Weight of a deal in which a seat third or later to a trick the other side was winning
held a card of the led suit that would have won it, yet played one that did not."""
NO_RUFF_FACTOR = 0.4
"""Weight of a deal in which a seat out of the led suit held a trump that would have won a
trick the other side was winning, yet threw off another card."""


@dataclass(frozen=True)
class Clue:
    """A play that makes some holdings unlikely: ``seat`` seldom held ``winners`` then."""

    seat: int
    """The seat that played."""
    winners: int
    """Cards that would have won the trick for that seat's side."""
    later: int
    """Cards the seat played after that trick (it held them then too)."""
    factor: float
    """The weight of a deal in which the seat held one of ``winners``."""


def play_clues(view: HandView) -> list[Clue]:
    """What the other seats' plays say: winners they did not play when the other side led.

    Third and fourth hands win a trick they can when the other side is winning it; a
    seat out of the suit trumps an opponent's winner when it can. (Second hand often
    plays low on purpose, so its plays say nothing here.)
    """
    trump = view.trump
    if trump < 0:
        return []
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    trump_cards = FOLLOW_MASK[trump][trump]
    per_trick: list[list[tuple[int, Card]]] = []
    for leader, cards in tricks:
        seat = leader
        plays = []
        for card in cards:
            while seat in view.sitting_out:
                seat = (seat + 1) % 4
            plays.append((seat, card))
            seat = (seat + 1) % 4
        per_trick.append(plays)
    clues: list[Clue] = []
    for i, plays in enumerate(per_trick):
        led = _suit_of(plays[0][1], trump)
        led_cards = FOLLOW_MASK[trump][led]
        best_seat, best = plays[0]
        for p in range(1, len(plays)):
            seat, card = plays[p]
            best_rank = _rank(best, trump, led)
            if seat != view.seat and (best_seat - seat) % 2 == 1:
                mine = _rank(card, trump, led)
                if mine <= best_rank:
                    later = 0
                    for later_plays in per_trick[i + 1 :]:
                        for s2, c2 in later_plays:
                            if s2 == seat:
                                later |= 1 << c2
                    if _suit_of(card, trump) == led and p >= 2:
                        winners = sum(1 << c for c in cards_of(led_cards)
                                      if _rank(c, trump, led) > best_rank)
                        clues.append(Clue(seat, winners, later, THIRD_HAND_FACTOR))
                    elif _suit_of(card, trump) != led and _suit_of(card, trump) != trump:
                        winners = sum(1 << c for c in cards_of(trump_cards)
                                      if _rank(c, trump, led) > best_rank)
                        clues.append(Clue(seat, winners, later, NO_RUFF_FACTOR))
            if _rank(card, trump, led) > _rank(best, trump, led):
                best_seat, best = seat, card
    return clues


def _rank(card: Card, trump: int, led: int) -> int:
    return TRICK_RANK[trump][led][card]


def clue_weight(hands: Hands, clues: list[Clue]) -> float:
    """How well a deal fits the play so far: the product of the factors of the clues it breaks."""
    w = 1.0
    for c in clues:
        if (hands[c.seat] | c.later) & c.winners:
            w *= c.factor
    return w


def sample_deals(
    view: HandView, n: int, rng: random.Random, weighted: bool = True
) -> list[tuple[Hands, float]]:
    """``n`` deals of the unseen cards, each with its weight from the bidding and the play."""
    k = knowledge(view)
    bids = informative_bids(view) if weighted else []
    clues = play_clues(view) if weighted else []
    out = []
    for _ in range(n):
        hands = sample_hands(k, rng)
        out.append((hands, bid_weight(view, k, hands, bids) * clue_weight(hands, clues)))
    return out
