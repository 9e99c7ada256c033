"""Bids that are right whatever the unseen cards: sure makes, sure lone marches, the score.

Estimates (the bidding tables, sampling) can be wrong at the edges; a few bids need no
estimate at all. With the top trumps in an unbroken run from the highest, each of them
takes a trick whenever it is played, so three of them make the hand for certain. On lead,
with the run as long as the trumps left in the other hands and nothing but aces beside
it, every trick is ours alone; not on lead, only with five trumps whose run outlasts the
others' trumps by one (a defender out of a suit may trump our ace when the other defender
leads it). From such hands the score decides the bid outright (:func:`clear_bids`):

- a sure make is never passed;
- never alone when a plain call's march already reaches the game;
- a sure lone march goes alone otherwise (four points beat two);
- a sure make goes alone when only a loner can save the game: the opponents need one
  point and a plain call's two cannot win it, while a lone march's four can.
"""

from __future__ import annotations

from .. import actions as A
from ..actions import Action
from ..cards import (
    ACE,
    JACK,
    JOKER,
    KING,
    NINE,
    QUEEN,
    TEN,
    card_suit,
    make_card,
)
from ..lookup import FOLLOW_MASK
from ..view import HandView
from .policy import hand_for

SURE_MAKE = 3
"""Top trumps in an unbroken run that take three tricks, whatever the others hold."""


def trump_order(trump: int, benny: bool) -> list[int]:
    """The trumps from the highest down (the joker first when it is in the deck)."""
    return list(_order(trump, benny))


def _make_order(trump: int, benny: bool) -> tuple[int, ...]:
    top = (JOKER,) if benny else ()
    return (*top, make_card(JACK, trump), make_card(JACK, 3 - trump),
            *(make_card(r, trump) for r in (ACE, KING, QUEEN, TEN, NINE)))


_ORDERS = {(trump, benny): _make_order(trump, benny)
           for trump in range(4) for benny in (False, True)}
""":func:`trump_order` of each suit, with and without the joker, worked out once (a bid
asks for it about ten times)."""


def _order(trump: int, benny: bool) -> tuple[int, ...]:
    order = _ORDERS.get((trump, benny))
    return order if order is not None else _make_order(trump, benny)


def top_run(hand: int, trump: int, benny: bool) -> int:
    """How many of the highest trumps the hand holds in an unbroken run from the top."""
    n = 0
    for c in _order(trump, benny):
        if not hand >> c & 1:
            break
        n += 1
    return n


def is_sure_make(hand: int, trump: int, benny: bool) -> bool:
    """Whether the hand takes three tricks with this trump whatever the others hold."""
    return top_run(hand, trump, benny) >= SURE_MAKE or is_sure_march(hand, trump, benny, False)


def is_sure_march(hand: int, trump: int, benny: bool, leads: bool) -> bool:
    """Whether the hand takes all five tricks alone whatever the others hold.

    On lead (``leads``): every card not a trump is an ace, and the run of top trumps is as
    long as the trumps left in the other hands (lead them, then the aces). Not on lead:
    every card is a trump and the run outlasts the trumps outside by one (a trick led in
    a suit we are out of costs one of the run; an ace of ours could be trumped).
    """
    order = _order(trump, benny)
    run = 0
    outside = 0
    for c in order:
        if not hand >> c & 1:
            outside += 1
        elif not outside:  # the run from the top is unbroken so far
            run += 1
    off = hand & ~FOLLOW_MASK[trump][trump]  # the cards held that are not trumps
    if leads:
        return not off & ~_ACES and run >= outside
    return not off and run - 1 >= outside


_ACES = sum(1 << make_card(ACE, suit) for suit in range(4))
"""The four aces as a mask."""


def leads_alone(view: HandView) -> bool:
    """Whether this seat would lead the first trick if it went alone."""
    rule = view.rules.lead_when_sitting_out
    return rule == "dealer-left" and view.seat == (view.dealer + 1) % 4


def _bid_suit(view: HandView, action: Action) -> tuple[int, int] | None:
    """The suit a bid names and its round (1 or 2); None for a pass."""
    if action.kind == A.ORDER:
        return card_suit(view.upcard), 1
    if action.kind == A.CALL:
        return action.suit, (1 if view.phase == "benny" else 2)
    return None


def clear_bids(view: HandView) -> list[Action] | None:
    """The bids to choose among when the hand and the score settle it; None when they don't.

    The result is a non-empty subset of ``view.legal``, in the order of ``view.legal``.
    """
    if view.phase not in ("order", "call", "benny"):
        return None
    benny = view.rules.benny
    side = view.seat % 2
    ours, theirs = view.score[side], view.score[1 - side]
    game = view.rules.game_to
    march_wins = ours + 2 >= game
    save_alone = theirs + 1 >= game and ours + 2 < game <= ours + 4
    leads = leads_alone(view)
    sure_makes: list[Action] = []
    sure_marches: list[Action] = []
    known: dict[tuple[int, int], tuple[bool, bool]] = {}  # a suit's bid alone and not
    for action in view.legal:
        bid = _bid_suit(view, action)
        if bid is None or bid[0] > 3:
            continue
        sure = known.get(bid)
        if sure is None:
            suit = bid[0]
            hand = hand_for(view, suit, bid[1])
            march = is_sure_march(hand, suit, benny, leads)
            make = (top_run(hand, suit, benny) >= SURE_MAKE
                    or (march if not leads else is_sure_march(hand, suit, benny, False)))
            sure = known[bid] = (march, make)
        if sure[0]:
            sure_marches.append(action)
        if sure[1]:
            sure_makes.append(action)
    if not sure_makes:
        return None
    plain = [a for a in sure_makes if not a.alone]
    alone = [a for a in sure_makes if a.alone]
    if march_wins:
        return plain or sure_makes
    lone_marches = [a for a in sure_marches if a.alone]
    if lone_marches:
        return lone_marches
    if save_alone and alone:
        return alone
    return sure_makes
