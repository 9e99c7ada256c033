"""Dealing the unseen cards again, consistently with everything one seat knows.

:func:`knowledge` reads a :class:`~euchre.view.HandView` into the facts that bind the
unseen cards: which cards are unseen, how many each hand and the kitty hold, which cards
are known to sit in a hand (the upcard the dealer picked up), and which suits each seat
has shown it is out of (the left bower counts as trump). :func:`sample_hands` deals the
unseen cards at random within those facts, and :func:`bid_weight` says how well a deal
fits the bidding (a seat that passed rarely holds a strong hand in the upcard's suit),
using the bidding tables of :mod:`euchre.bots.policy` as the model of the other players.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from .. import actions as A
from ..cards import JOKER, Card, card_suit, cards_of
from ..lookup import FOLLOW_MASK, TRICK_RANK
from ..view import HandView
from . import knowledge as K
from .policy import call_probability, dealer_discard

Hands = tuple[int, int, int, int]



def _count(mask: int) -> int:
    return bin(mask).count("1")


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about where the unseen cards are."""

    seat: int
    """The seat whose knowledge this is."""
    fixed: Hands
    """Cards known to be in each hand now (this seat's own cards, the dealer's upcard)."""
    allowed: Hands
    """Per seat, the unseen cards that seat may hold (not in a suit it has shown out of)."""
    slots: tuple[int, int, int, int]
    """How many unseen cards each hand holds now."""
    pool: int
    """The unseen cards: in other hands or face down in the kitty."""
    kitty_slots: int
    """How many unseen cards are face down in the kitty."""
    played: Hands
    """Cards each seat has played this hand."""


def played_by_seat(view: HandView) -> list[int]:
    """The cards each seat has played so far, as four masks."""
    out = [0, 0, 0, 0]
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for leader, cards in tricks:
        seat = leader
        for card in cards:
            while seat in view.sitting_out:
                seat = (seat + 1) % 4
            out[seat] |= 1 << card
            seat = (seat + 1) % 4
    return out


def knowledge(view: HandView) -> Knowledge:
    """Read a view into the facts that bind the unseen cards."""
    me = view.seat
    mine = K.hand_mask(view)
    played = played_by_seat(view)
    all_played = played[0] | played[1] | played[2] | played[3]
    seen = mine | all_played | K.mask(view.farmer_gave) | (1 << view.upcard)
    if view.discard is not None:
        seen |= 1 << view.discard
    pool = K.deck_mask(view) & ~seen
    fixed = [0, 0, 0, 0]
    fixed[me] = mine
    voids = K.voids(view) if view.trump >= 0 else [0, 0, 0, 0]
    allowed = [pool, pool, pool, pool]
    if view.trump >= 0:
        for s in range(4):
            for suit in range(4):
                if voids[s] >> suit & 1:
                    allowed[s] &= ~FOLLOW_MASK[view.trump][suit]
    dealer = view.dealer
    up = view.upcard
    sizes = [5 - _count(played[s]) for s in range(4)]
    if view.phase == "discard":
        sizes[dealer] = 6
    sizes[me] = len(view.hand)
    if (
        view.upcard_taken
        and dealer != me
        and sizes[dealer] > 0
        and not all_played >> up & 1
        and (view.trump < 0 or not voids[dealer] >> _suit_of(up, view.trump) & 1)
    ):
        # the dealer picked it up; discarding it is possible but so rare we trust it is held
        fixed[dealer] |= 1 << up
    slots = [max(0, sizes[s] - _count(fixed[s])) for s in range(4)]
    slots[me] = 0
    kitty = _count(pool) - sum(slots)
    if kitty < 0:  # pragma: no cover - a view the engine cannot produce
        raise ValueError("the view holds fewer unseen cards than the hands need")
    return Knowledge(
        seat=me,
        fixed=_four(fixed),
        allowed=_four(allowed),
        slots=(slots[0], slots[1], slots[2], slots[3]),
        pool=pool,
        kitty_slots=kitty,
        played=_four(played),
    )


def _four(x: list[int]) -> Hands:
    return (x[0], x[1], x[2], x[3])


def _suit_of(card: Card, trump: int) -> int:
    if card == JOKER:
        return trump
    if card % 6 == 2 and card // 6 == 3 - trump:
        return trump
    return card // 6


@functools.lru_cache(maxsize=32)
def _plan(k: Knowledge) -> tuple[tuple[tuple[Card, tuple[int, ...]], ...], tuple[Card, ...]]:
    """The unseen cards that only some hands may hold (with those hands), and the rest."""
    holding = tuple(s for s in range(4) if k.slots[s])
    bound: list[tuple[Card, tuple[int, ...]]] = []
    free: list[Card] = []
    for c in cards_of(k.pool):
        seats = tuple(s for s in holding if k.allowed[s] >> c & 1)
        if seats == holding:
            free.append(c)
        else:
            bound.append((c, seats))
    return tuple(bound), tuple(free)


def sample_hands(k: Knowledge, rng: random.Random) -> Hands:
    """The four hands now, the unseen cards dealt at random within what is known.

    Cards that only some seats may hold are placed first, fewest holders first; each
    goes to a seat (or the kitty) with chance in proportion to the places left there.
    The other cards are then shuffled into the places left. A dead end, which voids
    make possible, starts the deal again; after a few, a matching finds a valid deal.
    """
    bound, free = _plan(k)
    for _ in range(12):
        order = list(bound)
        rng.shuffle(order)
        order.sort(key=lambda x: len(x[1]))
        rem = list(k.slots)
        kitty = k.kitty_slots
        hands = list(k.fixed)
        for c, seats in order:
            total = kitty
            for s in seats:
                total += rem[s]
            if total == 0:
                break
            r = rng.randrange(total)
            if r < kitty:
                kitty -= 1
                continue
            r -= kitty
            for s in seats:
                if r < rem[s]:
                    hands[s] |= 1 << c
                    rem[s] -= 1
                    break
                r -= rem[s]
        else:
            rest = list(free)
            rng.shuffle(rest)
            i = 0
            for s in range(4):
                for c in rest[i : i + rem[s]]:
                    hands[s] |= 1 << c
                i += rem[s]
            return _four(hands)
    return _matching(k, rng)


def _matching(k: Knowledge, rng: random.Random) -> Hands:
    """A valid deal by bipartite matching of hand places to cards (the slow, sure way)."""
    places = [s for s in range(4) for _ in range(k.slots[s])]
    cards = cards_of(k.pool)
    rng.shuffle(cards)
    owner: dict[Card, int] = {}

    def augment(p: int, seen: set[Card]) -> bool:
        for c in cards:
            if c in seen or not k.allowed[places[p]] >> c & 1:
                continue
            seen.add(c)
            if c not in owner or augment(owner[c], seen):
                owner[c] = p
                return True
        return False

    for p in range(len(places)):
        if not augment(p, set()):
            raise ValueError("no deal of the unseen cards fits what this seat has seen")
    hands = list(k.fixed)
    for c, p in owner.items():
        hands[places[p]] |= 1 << c
    return _four(hands)


def is_consistent(k: Knowledge, hands: Hands) -> bool:
    """Whether four hands fit the knowledge (used by tests and checks)."""
    placed = 0
    for s in range(4):
        extra = hands[s] & ~k.fixed[s]
        if hands[s] & k.fixed[s] != k.fixed[s]:
            return False
        if extra & ~k.allowed[s] or placed & hands[s]:
            return False
        if s != k.seat and _count(extra) != k.slots[s]:
            return False
        if s == k.seat and extra:
            return False
        placed |= hands[s]
    return _count(k.pool & ~placed) == k.kitty_slots


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
