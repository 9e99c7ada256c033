"""The environment's fixed integer action space: every action of the game has one number.

===========  ========================================================================
index        action
===========  ========================================================================
0-24         ``play`` card *i* (cards are numbered as in :mod:`euchre.cards`; 24 is
             the joker, legal only when the Benny is in use)
25-49        ``discard`` card *i - 25* (the dealer's discard after taking the upcard)
50           ``pass`` (a bid, or declining to defend alone)
51           ``order`` (round one: order up the upcard)
52           ``order alone``
53-56        ``call`` clubs, diamonds, hearts, spades (round two, or the Benny upcard)
57-60        ``call`` … ``alone``
61           ``defend alone``
62           ``farmer keep``
63           ``farmer throw``
64-119       ``farmer swap`` of three cards: a farmer's hand holds only nines and tens,
             so every swap is three of the eight nines and tens; the 56 choices are
             numbered in the order :func:`itertools.combinations` lists them from
             9C TC 9D TD 9H TH 9S TS
===========  ========================================================================
"""

from __future__ import annotations

from itertools import combinations

from .. import actions as A
from ..actions import Action
from ..cards import NINE, SUITS, TEN, make_card

PLAY_BASE = 0
"""Index of ``play`` card 0; ``PLAY_BASE + card`` plays that card."""
DISCARD_BASE = 25
"""Index of ``discard`` card 0; ``DISCARD_BASE + card`` discards that card."""
PASS = 50
"""Index of ``pass``."""
ORDER = 51
"""Index of ``order``."""
ORDER_ALONE = 52
"""Index of ``order alone``."""
CALL_BASE = 53
"""Index of ``call`` clubs; ``CALL_BASE + suit`` names that suit."""
CALL_ALONE_BASE = 57
"""Index of ``call`` clubs ``alone``; ``CALL_ALONE_BASE + suit`` names that suit alone."""
DEFEND_ALONE = 61
"""Index of ``defend alone``."""
FARMER_KEEP = 62
"""Index of ``farmer keep``."""
FARMER_THROW = 63
"""Index of ``farmer throw``."""
FARMER_SWAP_BASE = 64
"""Index of the first ``farmer swap``; the 56 swaps follow."""

FARMER_CARDS: tuple[int, ...] = tuple(
    make_card(rank, suit) for suit in SUITS for rank in (NINE, TEN)
)
"""The eight cards a farmer's hand is made of (nines and tens), in card order."""

SWAPS: tuple[tuple[int, ...], ...] = tuple(combinations(FARMER_CARDS, 3))
"""Every farmer's swap, as three cards in card order; ``SWAPS[i]`` is index
``FARMER_SWAP_BASE + i``."""

NUM_ACTIONS = FARMER_SWAP_BASE + len(SWAPS)
"""The size of the action space (120)."""

ACTIONS: tuple[Action, ...] = (
    *A.PLAYS,
    *A.DISCARDS,
    A.PASS,
    A.ORDER_UP,
    A.ORDER_UP_ALONE,
    *A.CALLS,
    *A.CALLS_ALONE,
    A.DEFEND_ALONE,
    A.KEEP,
    A.THROW,
    *(A.farmer_swap(cards) for cards in SWAPS),
)
"""``ACTIONS[i]``: the engine's action for index ``i``."""

INDEX: dict[Action, int] = {action: i for i, action in enumerate(ACTIONS)}
"""The index of each engine action (every action the environment can take)."""

assert len(ACTIONS) == NUM_ACTIONS == 120 and len(INDEX) == NUM_ACTIONS


def action_index(action: Action | str) -> int:
    """The index of an engine action (or its notation, such as ``"play JH"``)."""
    if isinstance(action, str):
        action = A.parse_action(action)
    try:
        return INDEX[action]
    except KeyError:
        raise ValueError(f"{action} has no index in the environment's action space") from None


def index_action(index: int) -> Action:
    """The engine action with this index."""
    if not 0 <= index < NUM_ACTIONS:
        raise ValueError(f"action {index} is outside the action space 0-{NUM_ACTIONS - 1}")
    return ACTIONS[index]
