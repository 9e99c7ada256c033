"""What a seat can work out from its view: trumps held, voids shown, who is winning, cards out.

Plain functions over a :class:`~euchre.view.HandView` and card masks; every bot may use
them. Nothing here looks at a hidden card: "unseen" cards are those the seat has not
seen, wherever they really are.
"""

from __future__ import annotations

from ..cards import JOKER, Card, card_rank, trump_rank
from ..lookup import EFFECTIVE_SUIT, FOLLOW_MASK, TRICK_RANK
from ..sampling import deck_mask as deck_mask  # re-exported: bots read views through K
from ..sampling import voids as voids
from ..view import HandView

FULL_DECK = (1 << 24) - 1
"""The mask of the 24 regular cards."""


def partner(seat: int) -> int:
    """The partner of a seat."""
    return (seat + 2) % 4


def side(seat: int) -> int:
    """A seat's side: 0 for seats 0 & 2, 1 for seats 1 & 3."""
    return seat % 2


def mask(cards: tuple[Card, ...] | list[Card]) -> int:
    """The bit mask of some cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def hand_mask(view: HandView) -> int:
    """The seat's own cards as a mask."""
    return mask(view.hand)


def played_mask(view: HandView) -> int:
    """Every card played so far this hand (completed tricks and the trick in progress)."""
    m = 0
    for _, cards, _ in view.tricks:
        m |= mask(cards)
    return m | mask(view.trick)


_last_unseen: tuple[HandView | None, int] = (None, 0)
"""The latest view asked about and its unseen cards (a bot asks once per card it holds)."""


def unseen_mask(view: HandView) -> int:
    """Cards this seat has not seen: in another hand or face down in the kitty.

    The upcard counts as seen once turned down (it stays in the kitty); when the dealer
    took it, it is unseen to the others (it may have been discarded) but see
    :func:`dealer_may_hold_upcard`.
    """
    global _last_unseen
    last = _last_unseen  # one read: a bot thinking in a thread may replace it meanwhile
    if last[0] is view:  # views are frozen: the same view has the same unseen cards
        return last[1]
    unseen = _unseen_mask(view)
    _last_unseen = (view, unseen)
    return unseen


def _unseen_mask(view: HandView) -> int:
    seen = hand_mask(view) | played_mask(view) | mask(view.farmer_gave)
    if view.discard is not None:
        seen |= 1 << view.discard
    if not view.upcard_taken or view.seat == view.dealer:
        seen |= 1 << view.upcard
    return deck_mask(view) & ~seen


def dealer_may_hold_upcard(view: HandView) -> bool:
    """Whether the dealer took the upcard and has not played it yet."""
    return view.upcard_taken and not played_mask(view) >> view.upcard & 1


def suit_cards(cards: int, suit: int, trump: int) -> int:
    """The cards of ``cards`` whose effective suit is ``suit`` under ``trump``."""
    return cards & FOLLOW_MASK[trump][suit]


def trumps(cards: int, trump: int) -> int:
    """The trumps among ``cards``."""
    return cards & FOLLOW_MASK[trump][trump]


def count(cards: int) -> int:
    """How many cards a mask holds."""
    return bin(cards).count("1")


def trump_count(hand: tuple[Card, ...] | list[Card], trump: int) -> int:
    """How many trumps a hand holds when ``trump`` is trump."""
    return sum(1 for c in hand if EFFECTIVE_SUIT[trump][c] == trump)


def has_bower(hand: tuple[Card, ...] | list[Card], trump: int) -> bool:
    """Whether a hand holds the right or left bower (or the joker) of ``trump``."""
    return any(trump_rank(c, trump) >= 5 for c in hand)


def _power(card: Card, trump: int) -> int:
    t = trump_rank(card, trump)
    return 20 + t if t >= 0 else card_rank(card)


_POWER = {trump: tuple(_power(c, trump) for c in range(JOKER + 1)) for trump in range(-1, 4)}
""":func:`power` of every card under each trump (-1: none yet), worked out once."""


def power(card: Card, trump: int) -> int:
    """A card's strength for ranking within its suit: trumps 20+, others by face value."""
    row = _POWER.get(trump)
    return row[card] if row is not None else _power(card, trump)


def trick_seats(view: HandView) -> list[int]:
    """The seats playing to the trick in progress, in order from its leader."""
    seats = []
    seat = view.leader
    for _ in range(4):
        if seat not in view.sitting_out:
            seats.append(seat)
        seat = (seat + 1) % 4
    return seats


def led_suit(view: HandView) -> int:
    """The effective suit led to the trick in progress (-1 if nothing is led yet)."""
    return EFFECTIVE_SUIT[view.trump][view.trick[0]] if view.trick else -1


def winning(view: HandView) -> tuple[int, Card] | None:
    """The seat and card winning the trick in progress so far, or None before the lead."""
    if not view.trick:
        return None
    ranks = TRICK_RANK[view.trump][led_suit(view)]
    seats = trick_seats(view)
    best = max(range(len(view.trick)), key=lambda i: ranks[view.trick[i]])
    return seats[best], view.trick[best]


def beats(card: Card, other: Card, view: HandView) -> bool:
    """Whether ``card`` played now would beat ``other`` in the trick in progress."""
    ranks = TRICK_RANK[view.trump][led_suit(view)]
    return ranks[card] > ranks[other]


def seats_after(view: HandView) -> list[int]:
    """The seats still to play to the trick in progress after this seat."""
    seats = trick_seats(view)
    return seats[len(view.trick) + 1 :]


def first_discards(view: HandView) -> dict[int, Card]:
    """Each seat's first throw-off: a card played that neither followed suit nor trumped.

    By convention a player's first throw-off says where partner should lead next.
    """
    out: dict[int, Card] = {}
    trump = view.trump
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for leader, cards in tricks:
        seat = leader
        order = []
        for _ in range(4):
            if seat not in view.sitting_out:
                order.append(seat)
            seat = (seat + 1) % 4
        led = EFFECTIVE_SUIT[trump][cards[0]]
        for s, card in zip(order, cards, strict=False):
            suit = EFFECTIVE_SUIT[trump][card]
            if suit != led and suit != trump and s not in out:
                out[s] = card
    return out


def _higher(card: Card, trump: int) -> int:
    suit = EFFECTIVE_SUIT[trump][card]
    mine = power(card, trump)
    pool = FOLLOW_MASK[trump][suit]
    return sum(1 << c for c in range(JOKER + 1) if pool >> c & 1 and power(c, trump) > mine)


_HIGHER = tuple(tuple(_higher(c, trump) for c in range(JOKER + 1)) for trump in range(4))
"""``_HIGHER[trump][card]``: the cards of ``card``'s effective suit that outrank it, as a
mask, worked out once (a computer asks once or more for each card it holds)."""


def higher_unseen(card: Card, view: HandView) -> int:
    """Unseen cards of the same effective suit that outrank ``card``."""
    trump = view.trump
    if 0 <= trump < 4:
        return unseen_mask(view) & _HIGHER[trump][card]
    suit = EFFECTIVE_SUIT[trump][card]
    mine = power(card, trump)
    out = 0
    pool = suit_cards(unseen_mask(view), suit, trump)
    while pool:
        low = pool & -pool
        c = low.bit_length() - 1
        if power(c, trump) > mine:
            out |= low
        pool ^= low
    return out


def is_boss(card: Card, view: HandView) -> bool:
    """Whether no unseen card of the card's own effective suit outranks it."""
    return higher_unseen(card, view) == 0


def trumps_out(view: HandView) -> int:
    """How many trumps this seat has not seen (in other hands or the kitty)."""
    if view.trump < 0:
        return 0
    return count(trumps(unseen_mask(view), view.trump))


def can_hold(view: HandView, seat: int, suit: int) -> bool:
    """Whether ``seat`` may still hold a card of effective ``suit`` (it has not shown out)."""
    return not voids(view)[seat] >> suit & 1


def lowest(cards: list[Card], trump: int) -> Card:
    """The weakest of some cards: non-trumps by face value before any trump."""
    row = _POWER.get(trump)
    if row is None:
        return min(cards, key=lambda c: (power(c, trump), c))
    return min(cards, key=lambda c: (row[c], c))


def highest(cards: list[Card], trump: int) -> Card:
    """The strongest of some cards: trumps by trump rank above others by face value."""
    row = _POWER.get(trump)
    if row is None:
        return max(cards, key=lambda c: (power(c, trump), c))
    return max(cards, key=lambda c: (row[c], c))


def my_side(view: HandView) -> int:
    """This seat's side."""
    return view.seat % 2


def points_needed(view: HandView) -> tuple[int, int]:
    """Points each side still needs to win the game: (ours, theirs)."""
    ours = view.score[my_side(view)]
    theirs = view.score[1 - my_side(view)]
    return view.rules.game_to - ours, view.rules.game_to - theirs
