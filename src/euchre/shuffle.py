"""Shuffling and dealing: seeded for replays and tests, secure by default, and verifiable.

The verifiable shuffle: a table publishes ``commitment(seed)`` before the deal and reveals
``seed`` after the hand; anyone can then recompute the deck with :func:`deck_from_seed`
and check it against the record. It uses only SHA-256, so it is easy to re-implement.
"""

from __future__ import annotations

import functools
import hashlib
import os
import random
import re
from collections.abc import Mapping

from .cards import CLUBS, DECK, JACK, JOKER, SPADES, Card, card_rank, card_suit
from .hand import Deal

_BLACK_JACKS = {CLUBS * 6 + JACK, SPADES * 6 + JACK}


def new_deck(benny: bool = False) -> list[Card]:
    """A fresh deck in card order (24 cards, or 25 with the joker)."""
    return [*DECK, JOKER] if benny else list(DECK)


def shuffled_deck(benny: bool = False, rng: random.Random | None = None) -> list[Card]:
    """A shuffled deck; with no ``rng``, the operating system's secure generator."""
    deck = new_deck(benny)
    (rng or random.SystemRandom()).shuffle(deck)
    return deck


_SEEDS_AT_ONCE = 64
"""How many seeds one call to the operating system's secure generator draws."""

_drawn: list[str] = []  # seeds drawn from the OS and not yet handed out (each once)
os.register_at_fork(after_in_child=_drawn.clear)  # a forked process draws its own


def new_seed() -> str:
    """A fresh secret seed for :func:`deck_from_seed` (64 hex digits: 32 bytes from the
    operating system's secure generator, :func:`os.urandom`). The bytes of many seeds are
    drawn at once (a system call costs more than the bytes), and each seed is handed out
    once; a forked child drops its parent's."""
    try:
        return _drawn.pop()
    except IndexError:
        pass
    text = os.urandom(32 * _SEEDS_AT_ONCE).hex()
    _drawn.extend(text[i:i + 64] for i in range(64, len(text), 64))
    return text[:64]


@functools.lru_cache(maxsize=4096)
def commitment(seed: str) -> str:
    """The SHA-256 hex digest of a seed, published before the deal. Remembered for the
    latest few thousand seeds: a live table shows its hand's and its next hand's
    commitment with every move."""
    return hashlib.sha256(seed.encode()).hexdigest()


_CLIENT_SEED = re.compile(r"[0-9a-f]{16,128}")


def is_client_seed(text: object) -> bool:
    """Whether ``text`` is a player's shuffle seed: 16 to 128 lower-case hex digits."""
    return isinstance(text, str) and _CLIENT_SEED.fullmatch(text) is not None


def mixed_seed(server_seed: str, client_seeds: Mapping[int, str] | None = None) -> str:
    """The seed a hand is dealt from: the table's committed seed mixed with each player's.

    With no player seeds it is the table's seed itself. Otherwise it is the SHA-256 hex of the
    lines ``server_seed``, then ``"seat:client_seed"`` for each player in seat order, joined by
    newlines. A player's seed is sent after the table's commitment, so neither side can
    choose the deal: the table cannot change its seed, and no player knows it.
    """
    if not client_seeds:
        return server_seed
    lines = [server_seed, *(f"{seat}:{client_seeds[seat]}" for seat in sorted(client_seeds))]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def deck_from_seed(seed: str, benny: bool = False) -> list[Card]:
    """The deck shuffled by Fisher-Yates driven by SHA-256(seed, counter).

    Step ``i`` (from the last position down) draws ``j`` uniformly in ``0..i`` by
    rejection sampling on successive 8-byte blocks, so there is no modulo bias.
    """
    deck = new_deck(benny)
    counter = 0
    prefix = hashlib.sha256(f"{seed}:".encode())  # each block's hash goes on from this copy
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            block = prefix.copy()
            block.update(b"%d" % counter)
            counter += 1
            x = int.from_bytes(block.digest()[:8], "big")
            if x < limit:
                break
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _rounds(pattern: str) -> tuple[int, int]:
    """Cards per player in the first and second round of a dealing pattern."""
    return (3, 2) if pattern == "3-2" else (2, 3)


def deal_from_deck(deck: list[Card], dealer: int, pattern: str = "3-2") -> Deal:
    """Deal a deck clockwise from the dealer's left in two rounds, one pattern for everyone
    (doc 002 deal rule 3): ``"3-2"`` gives each player three cards, then each two; ``"2-3"``
    two, then three."""
    hands: list[list[Card]] = [[], [], [], []]
    pos = 0
    for count in _rounds(pattern):
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            hands[seat].extend(deck[pos : pos + count])
            pos += count
    return Deal(tuple(tuple(h) for h in hands), tuple(deck[pos:]), pattern)


def deck_of_deal(deal: Deal, dealer: int) -> list[Card]:
    """The deck order a deal came from (inverse of :func:`deal_from_deck`)."""
    taken = [0, 0, 0, 0]
    deck: list[Card] = []
    for count in _rounds(deal.pattern):
        for i in range(4):
            seat = (dealer + 1 + i) % 4
            deck.extend(deal.hands[seat][taken[seat] : taken[seat] + count])
            taken[seat] += count
    return deck + list(deal.kitty)


def draw_first_dealer(deck: list[Card], start: int = 0) -> tuple[int, list[tuple[int, Card]]]:
    """Deal face up one card at a time from ``start``; the first black jack deals.

    Returns the dealer and the cards shown as (seat, card).
    """
    shown = []
    for i, card in enumerate(deck):
        seat = (start + i) % 4
        shown.append((seat, card))
        if card in _BLACK_JACKS:
            return seat, shown
    raise ValueError("no black jack in the deck")


def high_card_dealer(deck: list[Card]) -> tuple[int, list[tuple[int, Card]]]:
    """Cut for the deal: each seat turns one card; the highest (ace high, suits C<D<H<S) deals."""
    shown = [(seat, deck[seat]) for seat in range(4)]

    def strength(item: tuple[int, Card]) -> tuple[int, int]:
        card = item[1]
        return (9, 0) if card == JOKER else (card_rank(card), card_suit(card))

    return max(shown, key=strength)[0], shown
