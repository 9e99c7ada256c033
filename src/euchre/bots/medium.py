"""The ``medium`` computer player: the conventions good players follow, without search.

Bidding counts trumps, bowers, off-suit aces and voids (:func:`hand_value`), with a bar
that depends on the seat: stricter left of the dealer (an opponent gains the upcard),
lighter as the dealer's partner and for the dealer (who gains it), "next" lighter in
round two, never with a single trump, and careful when a euchre would lose the game.
Play: lead trump when our side made it and never on defence, second hand low, third
hand high, don't trump partner's winner, lead back partner's first throw-off, and the
dealer discards to make a void.
"""

from __future__ import annotations

import random

from .. import actions as A
from ..actions import Action
from ..cards import (
    ACE,
    JOKER,
    KING,
    Card,
    card_rank,
    card_suit,
    same_colour,
    trump_rank,
)
from ..lookup import EFFECTIVE_SUIT, TRICK_RANK
from ..view import HandView
from . import knowledge as K
from .base import Bot
from .clear_cut import clear_bids

TRUMP_WEIGHT = (1.2, 1.3, 1.5, 1.7, 2.1, 2.6, 3.0, 3.5)
"""Value of a trump by trump rank (9, 10, Q, K, A, left, right, joker)."""

BAR = 5.5
"""The hand value at which a seat with no special position makes trump."""

SEAT_BAR = {0: -0.1, 1: 0.3, 2: 0.0, 3: 0.2}
"""Bar adjustment by seat relative to the dealer (0 dealer, 1 left of dealer, ...)."""

UPCARD_SHARE = 0.9
"""The share of the upcard's value that goes to the side whose dealer picks it up."""

LONE_LOSERS = 1.2
"""Go alone when :func:`lone_losers` is at most this."""

NEXT_BONUS = {1: 0.8, 2: 0.2, 3: 0.4, 0: 0.0}
"""Round two: extra value of naming "next" (the turned suit's colour-mate), by seat."""


_TRUMP_RANK = tuple(tuple(trump_rank(c, t if t < 4 else -1) for c in range(JOKER + 1))
                    for t in range(5))
"""``_TRUMP_RANK[trump][card]``: :func:`trump_rank` worked out once (index -1: no trump
yet, as in :data:`~euchre.lookup.EFFECTIVE_SUIT`)."""

_RANK = tuple(card_rank(c) for c in range(JOKER + 1))
"""``_RANK[card]``: :func:`card_rank` worked out once."""


def hand_value(hand: list[Card], trump: int) -> float:
    """How strong a hand is with ``trump`` as trump: about 5.5 makes a bid with a fair partner."""
    value = 0.0
    trumps = 0
    by_suit: dict[int, list[int]] = {0: [], 1: [], 2: [], 3: []}
    trump_ranks, suits = _TRUMP_RANK[trump], EFFECTIVE_SUIT[trump]
    for c in hand:
        t = trump_ranks[c]
        if t >= 0:
            value += TRUMP_WEIGHT[t]
            trumps += 1
        else:
            by_suit[suits[c]].append(_RANK[c])
    for suit, ranks in by_suit.items():
        if suit == trump:
            continue
        if ACE in ranks:
            value += 1.0 if len(ranks) <= 2 else 0.8
            if KING in ranks:
                value += 0.5
        elif KING in ranks and len(ranks) >= 2:
            value += 0.3
        if not ranks and trumps >= 2:
            value += 0.5
    if trumps >= 4:
        value += 0.5 * (trumps - 3)
    return value


def lone_losers(hand: list[Card], trump: int, benny: bool = False) -> float:
    """About how many tricks a hand would lose playing alone (0 means a sure march)."""
    of = _TRUMP_RANK[trump]
    ranks = sorted((of[c] for c in hand if of[c] >= 0), reverse=True)
    if not ranks:
        return 5.0
    top = 7 if benny else 6
    run = 0
    while run < len(ranks) and ranks[run] == top - run:
        run += 1
    gaps = sum(1 for r in range(ranks[-1] + 1, top + 1) if r not in ranks)
    per_gap = 0.35 if len(ranks) >= 4 else 0.5
    losers = min(gaps * per_gap, (len(ranks) - run) * 0.6)
    off = [c for c in hand if of[c] < 0]
    suits_with_ace = {card_suit(c) for c in off if card_rank(c) == ACE}
    for c in off:
        if card_rank(c) == ACE:
            losers += 0.15
        elif card_rank(c) == KING and card_suit(c) in suits_with_ace:
            losers += 0.4
        else:
            losers += 0.85
    return losers


def wants_alone(view: HandView, hand: list[Card], trump: int) -> bool:
    """Go alone only with a real chance at all five, and never when a march wins the game."""
    ours, _ = K.points_needed(view)
    if ours <= 2:
        return False
    if K.trump_count(hand, trump) < 3:
        return False
    return lone_losers(hand, trump, view.rules.benny) <= LONE_LOSERS


def discard_for(hand: list[Card], trump: int) -> Card:
    """The dealer's discard: make a void (a singleton off-suit non-ace), else the lowest card."""
    off = [c for c in hand if EFFECTIVE_SUIT[trump][c] != trump]
    if not off:
        return K.lowest(hand, trump)
    counts: dict[int, int] = {}
    for c in off:
        counts[EFFECTIVE_SUIT[trump][c]] = counts.get(EFFECTIVE_SUIT[trump][c], 0) + 1
    singles = [c for c in off if counts[EFFECTIVE_SUIT[trump][c]] == 1 and card_rank(c) != ACE]
    if singles:
        return K.lowest(singles, trump)
    plain = [c for c in off if card_rank(c) != ACE]
    if plain:
        # keep a king guarded by its ace; throw the lowest of the rest
        return min(plain, key=lambda c: (card_rank(c), -counts[EFFECTIVE_SUIT[trump][c]]))
    trumps = [c for c in hand if EFFECTIVE_SUIT[trump][c] == trump]
    if len(trumps) >= 4:
        return K.lowest(trumps, trump)
    return min(off, key=lambda c: (counts[EFFECTIVE_SUIT[trump][c]], c))


def bar_for(view: HandView) -> float:
    """The bar for making trump from this seat at this score."""
    pos = (view.seat - view.dealer) % 4
    bar = BAR + SEAT_BAR[pos]
    _, theirs = K.points_needed(view)
    if theirs == 2:
        bar += 0.6  # a euchre loses the game
    elif theirs == 1:
        bar -= 0.3  # they win on any make: contest the hand
    return bar


class MediumBot(Bot):
    """Rule-based play following the standard conventions."""

    level = "medium"
    uses_rng = False

    def decide(self, view: HandView, rng: random.Random) -> Action:
        """Dispatch on the phase."""
        phase = view.phase
        if phase == "play":  # most decisions: asked first
            return A.PLAYS[play_card(view)]
        if phase == "order":
            return settled(view, self.order(view))
        if phase in ("call", "benny"):
            return settled(view, self.call(view))
        if phase == "discard":
            return A.DISCARDS[discard_for(list(view.hand), view.trump)]
        if phase == "defend":
            return A.PASS
        if phase == "farmer":
            legal = view.legal
            low = sorted(view.hand, key=lambda c: (card_rank(c), c))[:3]
            swap = A.farmer_swap(low)
            return swap if swap in legal else A.KEEP
        return A.PLAYS[play_card(view)]

    def order(self, view: HandView) -> Action:
        """Round one: order up (or pick up), perhaps alone, or pass."""
        legal = view.legal
        trump = card_suit(view.upcard)
        hand = list(view.hand)
        pos = (view.seat - view.dealer) % 4
        up = trump_rank(view.upcard, trump)
        up_value = TRUMP_WEIGHT[up] if up >= 0 else 0.0
        if pos == 0:
            six = [*hand, view.upcard]
            after = [c for c in six if c != discard_for(six, trump)]
            value = hand_value(after, trump)
            n = K.trump_count(after, trump)
            strength_hand = after
        else:
            value = hand_value(hand, trump)
            n = K.trump_count(hand, trump)
            value += UPCARD_SHARE * up_value if pos == 2 else -UPCARD_SHARE * up_value
            strength_hand = hand
        if n < 2 or value < bar_for(view):
            return A.PASS
        if pos == 2 and A.ORDER_UP not in legal:  # Canadian loner
            return A.ORDER_UP_ALONE if value >= bar_for(view) + 1.5 else A.PASS
        if wants_alone(view, strength_hand, trump):
            return A.ORDER_UP_ALONE
        return A.ORDER_UP

    def call(self, view: HandView) -> Action:
        """Round two (or the Benny): name the best suit if it is good enough."""
        legal = view.legal
        hand = list(view.hand)
        pos = (view.seat - view.dealer) % 4
        suits = sorted({a.suit for a in legal if a.kind == A.CALL})
        turned = card_suit(view.upcard)

        def held(suit: int) -> list[Card]:
            if view.phase != "benny":
                return hand
            six = [*hand, view.upcard]  # the dealer takes the Benny, then discards
            return [c for c in six if c != discard_for(six, suit)]

        def value(suit: int) -> float:
            v = hand_value(held(suit), suit)
            if view.phase == "call" and turned >= 0 and suit == same_colour(turned):
                v += NEXT_BONUS[pos]
            return v

        best = max(suits, key=lambda s: (value(s), -s))
        forced = A.PASS not in legal
        if not forced and (K.trump_count(held(best), best) < 2 or value(best) < bar_for(view)):
            return A.PASS
        if wants_alone(view, held(best), best):
            return A.CALLS_ALONE[best]
        return A.CALLS[best]


def settled(view: HandView, bid: Action) -> Action:
    """``bid``, unless the hand and the score settle the bid otherwise (a sure make, a
    sure lone march, a loner that alone can save the game: :mod:`euchre.bots.clear_cut`)."""
    allowed = clear_bids(view)
    if allowed is None or bid in allowed:
        return bid
    same_suit = [a for a in allowed if a.kind == bid.kind and a.suit == bid.suit]
    return (same_suit or allowed)[0]


def play_card(view: HandView) -> Card:
    """The card to play: lead or follow by the conventions."""
    return lead_card(view) if not view.trick else follow_card(view)


def is_top(card: Card, view: HandView) -> bool:
    """Whether no opponent can hold a higher card of its suit (partner's upcard is ours)."""
    higher = K.higher_unseen(card, view)
    if higher and view.dealer == K.partner(view.seat) and K.dealer_may_hold_upcard(view):
        higher &= ~(1 << view.upcard)
    return higher == 0


def _boss(cards: list[Card], view: HandView) -> list[Card]:
    return [c for c in cards if is_top(c, view)]


def lead_card(view: HandView) -> Card:
    """The opening card of a trick."""
    trump = view.trump
    cards = list(view.hand)
    suits = EFFECTIVE_SUIT[trump]
    my_trumps = [c for c in cards if suits[c] == trump]
    off = [c for c in cards if suits[c] != trump]
    makers = view.maker % 2 == view.seat % 2
    trumps_out = K.trumps_out(view)
    if not off:
        return K.highest(cards, trump) if _boss(cards, view) else K.lowest(cards, trump)
    if makers and my_trumps and trumps_out > 0:
        best = K.highest(my_trumps, trump)
        if view.maker == view.seat:
            if is_top(best, view) and len(my_trumps) >= 2:
                return best
            if len(my_trumps) >= 3:
                return K.lowest(my_trumps, trump)
        elif not view.tricks or is_top(best, view):
            # partner called: lead trump to partner, the boss if we hold it, else low
            return best if is_top(best, view) else K.lowest(my_trumps, trump)
    voids = _voids(view)
    opponents = [s for s in ((view.seat + 1) % 4, (view.seat + 3) % 4)
                 if s not in view.sitting_out]
    partner = K.partner(view.seat)
    # partner's first throw-off says where to lead
    signal = K.first_discards(view).get(partner)
    if signal is not None and partner not in view.sitting_out:
        suit = EFFECTIVE_SUIT[trump][signal]
        in_suit = [c for c in off if EFFECTIVE_SUIT[trump][c] == suit]
        if in_suit:
            boss = _boss(in_suit, view)
            return boss[0] if boss else K.lowest(in_suit, trump)
    # cash a boss in a suit no opponent has shown out of (or once their trumps are gone)
    bosses = [
        c for c in _boss(off, view)
        if trumps_out == 0 or not any(voids[s] >> EFFECTIVE_SUIT[trump][c] & 1 for s in opponents)
    ]
    if bosses:
        return K.highest(bosses, trump)
    if makers and my_trumps and trumps_out == 0:
        return K.highest(my_trumps, trump)
    # otherwise a low card, from the shortest suit (to make a void to trump later)
    counts: dict[int, int] = {}
    for c in off:
        counts[EFFECTIVE_SUIT[trump][c]] = counts.get(EFFECTIVE_SUIT[trump][c], 0) + 1
    return min(off, key=lambda c: (counts[EFFECTIVE_SUIT[trump][c]] if my_trumps else 0,
                                   card_rank(c), c))


def throw_off(cards: list[Card], view: HandView) -> Card:
    """A card to throw away: a low singleton (to make a void), never a trump if avoidable."""
    trump = view.trump
    off = [c for c in cards if EFFECTIVE_SUIT[trump][c] != trump]
    if not off:
        return K.lowest(cards, trump)
    hand = list(view.hand)
    counts: dict[int, int] = {}
    for c in hand:
        s = EFFECTIVE_SUIT[trump][c]
        counts[s] = counts.get(s, 0) + 1
    plain = [c for c in off if not is_top(c, view)] or off
    return min(plain, key=lambda c: (card_rank(c) >= KING, counts[EFFECTIVE_SUIT[trump][c]],
                                     card_rank(c), c))


def follow_card(view: HandView) -> Card:
    """The card to play to a trick already led."""
    trump = view.trump
    legal = [a.card for a in view.legal]
    # K.winning, K.seats_after, K.led_suit and K.beats, with the trick's seats and the led
    # suit's ranks worked out once
    trick = view.trick
    seats = K.trick_seats(view)
    led = EFFECTIVE_SUIT[trump][trick[0]]
    ranks = TRICK_RANK[trump][led]
    best = max(range(len(trick)), key=lambda i: ranks[trick[i]])
    win_seat, win_card = seats[best], trick[best]
    partner = K.partner(view.seat)
    after = seats[len(trick) + 1 :]
    opp_after = [s for s in after if s % 2 != view.seat % 2]
    following = EFFECTIVE_SUIT[trump][legal[0]] == led
    winners = [c for c in legal if ranks[c] > ranks[win_card]]

    if win_seat == partner and _partner_safe(view, win_card, opp_after, led):
        # don't trump (or overtake) a partner who is winning
        return K.lowest(legal, trump) if following else throw_off(legal, view)
    if not winners:
        return K.lowest(legal, trump) if following else throw_off(legal, view)
    if not opp_after:
        return K.lowest(winners, trump)  # last to play: win as cheaply as possible
    if partner in after:
        # second hand low: win only with a sure winner, or trump a high lead
        sure = [c for c in winners if is_top(c, view)
                and (EFFECTIVE_SUIT[trump][c] == trump or not _shown_void(view, opp_after, led))]
        if following:
            return K.lowest(sure, trump) if sure else K.lowest(legal, trump)
        if K.is_boss(win_card, view) or card_rank(win_card) >= KING or view.alone:
            return K.lowest(winners, trump)
        return throw_off(legal, view)
    # third hand high: the cheapest sure winner, else the highest card that wins for now
    sure = [c for c in winners if is_top(c, view)]
    if sure and (not following or led == trump or not _shown_void(view, opp_after, led)):
        return K.lowest(sure, trump)
    return K.highest(winners, trump) if following else K.lowest(winners, trump)


_last_voids: tuple[HandView | None, list[int]] = (None, [])
"""The latest view asked about and its :func:`~euchre.bots.knowledge.voids` (a follow
may ask two or three times; read only)."""


def _voids(view: HandView) -> list[int]:
    global _last_voids
    last = _last_voids  # one read: a bot thinking in a thread may replace it meanwhile
    if last[0] is view:  # views are frozen: the same view shows the same voids
        return last[1]
    voids = K.voids(view)
    _last_voids = (view, voids)
    return voids


def _shown_void(view: HandView, seats: list[int], suit: int) -> bool:
    voids = _voids(view)
    return any(voids[s] >> suit & 1 for s in seats)


def _partner_safe(view: HandView, card: Card, opp_after: list[int], led: int) -> bool:
    """Whether partner's winning card will hold: nobody left to beat it, or it is the boss."""
    if not opp_after:
        return True
    trump = view.trump
    if not is_top(card, view):
        return False
    if EFFECTIVE_SUIT[trump][card] == trump or K.trumps_out(view) == 0:
        return True
    return not _shown_void(view, opp_after, led)
