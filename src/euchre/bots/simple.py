"""The two simplest computer players: ``random`` (any legal action) and ``easy`` (plain rules).

``easy`` orders or names a suit holding three trumps with a bower, the dealer counting the
upcard; never goes alone; leads its highest card; follows with its lowest card when its
partner is winning, else with the cheapest card that wins, else its lowest.
"""

from __future__ import annotations

import random

from .. import actions as A
from ..actions import Action
from ..cards import ACE, Card, card_rank, card_suit, effective_suit
from ..view import HandView
from . import knowledge as K
from .base import Bot


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    level = "random"

    def decide(self, view: HandView, rng: random.Random) -> Action:
        """Any legal action, uniformly."""
        legal = view.legal
        return legal[rng.randrange(len(legal))]


def makes_hand(hand: list[Card], trump: int) -> bool:
    """The easy rule for making trump: three trumps or more, one of them a bower."""
    return K.trump_count(hand, trump) >= 3 and K.has_bower(hand, trump)


def best_suit(hand: list[Card], suits: list[int]) -> int:
    """The suit among ``suits`` in which ``hand`` holds most trumps (ties: the higher ones)."""
    return max(
        suits,
        key=lambda s: (
            K.trump_count(hand, s),
            sum(K.power(c, s) for c in hand if effective_suit(c, s) == s),
            -s,
        ),
    )


class EasyBot(Bot):
    """Simple sensible rules, no counting of cards beyond the trick on the table."""

    level = "easy"
    uses_rng = False

    def decide(self, view: HandView, rng: random.Random) -> Action:
        """Pick by the phase's plain rule."""
        legal = view.legal
        hand = list(view.hand)
        phase = view.phase
        if phase == "order":
            with_up = [*hand, view.upcard] if view.seat == view.dealer else hand
            want = makes_hand(with_up, card_suit(view.upcard))
            if want and A.ORDER_UP in legal:
                return A.ORDER_UP
            if want and A.ORDER_UP_ALONE in legal and view.seat % 2 == view.dealer % 2:
                return A.ORDER_UP_ALONE  # Canadian loner: the dealer's partner goes alone
            return A.PASS
        if phase in ("call", "benny"):
            suits = sorted({a.suit for a in legal if a.kind == A.CALL})
            suit = best_suit(hand, suits)
            if makes_hand(hand, suit) or A.PASS not in legal:
                return A.CALLS[suit]
            return A.PASS
        if phase == "discard":
            return A.DISCARDS[discard_choice(hand, view.trump)]
        if phase == "defend":
            return A.PASS
        if phase == "farmer":
            return A.KEEP
        return A.PLAYS[easy_play(view)]


def discard_choice(hand: list[Card], trump: int) -> Card:
    """The dealer's plain discard: the lowest card that is neither trump nor an ace."""
    plain = [c for c in hand if effective_suit(c, trump) != trump]
    low = [c for c in plain if card_rank(c) != ACE] or plain or hand
    return K.lowest(low, trump)


def easy_play(view: HandView) -> Card:
    """The easy rule for a card: lead high; follow low when partner wins, else win cheaply."""
    trump = view.trump
    cards = [a.card for a in view.legal]
    if not view.trick:
        return K.highest(cards, trump)
    win = K.winning(view)
    assert win is not None
    seat, best = win
    if seat == K.partner(view.seat):
        return K.lowest(cards, trump)
    winners = [c for c in cards if K.beats(c, best, view)]
    if winners:
        return K.lowest(winners, trump)
    return K.lowest(cards, trump)
