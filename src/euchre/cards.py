"""Cards, suits and ranks, and how they compare once trump is known.

A card is a plain int: ``suit * 6 + rank`` for the 24 regular cards and
:data:`JOKER` (24) for the Benny. Sets of cards are bit masks (bit ``card``).
The left bower lives in exactly one function, :func:`effective_suit`; following
suit and ranking both call it (or tables built from it).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Card = int
Suit = int

CLUBS: Suit = 0
DIAMONDS: Suit = 1
HEARTS: Suit = 2
SPADES: Suit = 3
SUITS: tuple[Suit, ...] = (CLUBS, DIAMONDS, HEARTS, SPADES)
"""The four suits, clubs first."""

NINE, TEN, JACK, QUEEN, KING, ACE = range(6)
RANKS: tuple[int, ...] = (NINE, TEN, JACK, QUEEN, KING, ACE)
"""The six ranks of the euchre deck, low to high by face value."""

JOKER: Card = 24
"""The Benny: a joker that, when in use, is the highest trump of all."""

DECK: tuple[Card, ...] = tuple(range(24))
"""The 24-card deck, without the joker."""

SUIT_LETTERS = "CDHS"
RANK_LETTERS = "9TJQKA"
JOKER_TEXT = "JK"
"""Notation for the joker ("JK"); parse also accepts "Joker"."""

SUIT_NAMES = ("Clubs", "Diamonds", "Hearts", "Spades")
RANK_NAMES = ("Nine", "Ten", "Jack", "Queen", "King", "Ace")


class CardError(ValueError):
    """Raised when a text is not a card, a suit, or a valid set of cards."""


def make_card(rank: int, suit: Suit) -> Card:
    """The card of ``rank`` in ``suit``."""
    return suit * 6 + rank


def card_suit(card: Card) -> Suit:
    """The printed suit of a card (the joker has none: -1)."""
    return -1 if card == JOKER else card // 6


def card_rank(card: Card) -> int:
    """The printed rank of a card (the joker: -1)."""
    return -1 if card == JOKER else card % 6


def parse_card(text: str) -> Card:
    """Parse ``"9C"``, ``"TD"``, ``"JH"``, ``"10s"`` or ``"JK"`` into a card."""
    t = text.strip().upper()
    if t in (JOKER_TEXT, "JOKER", "BENNY"):
        return JOKER
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_LETTERS or t[1] not in SUIT_LETTERS:
        raise CardError(f"not a card: {text!r} (write rank then suit, like 9C, TD, JH or JK)")
    return make_card(RANK_LETTERS.index(t[0]), SUIT_LETTERS.index(t[1]))


def card_text(card: Card) -> str:
    """The two-letter notation of a card: ``"JH"``; the joker is ``"JK"``."""
    if card == JOKER:
        return JOKER_TEXT
    return RANK_LETTERS[card % 6] + SUIT_LETTERS[card // 6]


def card_name(card: Card) -> str:
    """The full English name of a card: ``"Jack of Hearts"``, ``"Joker"``."""
    if card == JOKER:
        return "Joker"
    return f"{RANK_NAMES[card % 6]} of {SUIT_NAMES[card // 6]}"


def parse_suit(text: str) -> Suit:
    """Parse a suit letter or name (``"H"``, ``"hearts"``) into a suit."""
    t = text.strip().upper()
    for suit, name in enumerate(SUIT_NAMES):
        if t in (SUIT_LETTERS[suit], name.upper(), name.upper().rstrip("S")):
            return suit
    raise CardError(f"not a suit: {text!r} (use C, D, H or S)")


def suit_text(suit: Suit) -> str:
    """The one-letter notation of a suit."""
    return SUIT_LETTERS[suit]


def suit_name(suit: Suit) -> str:
    """The English name of a suit: ``"Hearts"``."""
    return SUIT_NAMES[suit]


def same_colour(suit: Suit) -> Suit:
    """The other suit of the same colour (clubs and spades, diamonds and hearts)."""
    return 3 - suit


def right_bower(trump: Suit) -> Card:
    """The jack of the trump suit."""
    return make_card(JACK, trump)


def left_bower(trump: Suit) -> Card:
    """The jack of the other suit of trump's colour."""
    return make_card(JACK, same_colour(trump))


def effective_suit(card: Card, trump: Suit) -> Suit:
    """The suit a card belongs to when ``trump`` is trump (-1: no trump yet).

    The left bower and the joker belong to the trump suit for every purpose.
    """
    if card == JOKER:
        return trump
    if trump >= 0 and card == make_card(JACK, 3 - trump):
        return trump
    return card // 6


def trump_rank(card: Card, trump: Suit) -> int:
    """Rank among trumps, higher is better (joker 7, right 6, left 5, A 4 … 9 0); -1 if not."""
    if card == JOKER:
        return 7
    if trump < 0:
        return -1
    if card == make_card(JACK, trump):
        return 6
    if card == make_card(JACK, 3 - trump):
        return 5
    if card // 6 != trump:
        return -1
    return (0, 1, -1, 2, 3, 4)[card % 6]


def trick_rank(card: Card, trump: Suit, led: Suit) -> int:
    """How strongly a card plays in a trick led in ``led``: trumps above the led suit, others 0.

    The highest value among the cards of a trick wins it.
    """
    t = trump_rank(card, trump)
    if t >= 0:
        return 20 + t
    if effective_suit(card, trump) == led:
        return 1 + card % 6
    return 0


def mask_of(cards: Iterable[Card]) -> int:
    """The bit mask of a collection of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[Card]:
    """The cards of a bit mask, lowest card number first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[Card]:
    """Iterate over the cards of a bit mask."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def suit_mask(suit: Suit, trump: Suit) -> int:
    """The mask of every card whose effective suit under ``trump`` is ``suit``."""
    return mask_of(c for c in range(25) if effective_suit(c, trump) == suit)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"9C TD JH"`` (or a list of card texts) into cards."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(p) for p in parts]


def cards_text(cards: Iterable[Card]) -> str:
    """Format cards as space-separated notation."""
    return " ".join(card_text(c) for c in cards)


def sort_for_display(cards: Iterable[Card], trump: Suit = -1) -> list[Card]:
    """Sort a hand as a player holds it: by effective suit, trumps last, high cards first."""

    def key(c: Card) -> tuple[int, int]:
        s = effective_suit(c, trump)
        rank = trump_rank(c, trump) + 100 if s == trump and trump >= 0 else card_rank(c)
        return (10 if s == trump and trump >= 0 else (s if s >= 0 else 9), -rank)

    return sorted(cards, key=key)
