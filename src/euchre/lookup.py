"""Lookup tables built once from :mod:`euchre.cards`, for the engine's hot paths.

Everything here is derived from :func:`~euchre.cards.effective_suit` and
:func:`~euchre.cards.trick_rank`, so the left bower is still defined in one place.
"""

from __future__ import annotations

from .cards import effective_suit, trick_rank

NO_TRUMP = 4
"""Index used in the tables for "trump not yet named"."""

EFFECTIVE_SUIT: tuple[tuple[int, ...], ...] = tuple(
    tuple(effective_suit(c, t if t < 4 else -1) for c in range(25)) for t in range(5)
)
"""``EFFECTIVE_SUIT[trump][card]``."""

FOLLOW_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << c for c in range(25) if EFFECTIVE_SUIT[t][c] == s) for s in range(4)
    )
    for t in range(4)
)
"""``FOLLOW_MASK[trump][suit]``: cards that follow ``suit`` under ``trump``."""

TRICK_RANK: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(trick_rank(c, t, s) for c in range(25)) for s in range(4)) for t in range(4)
)
"""``TRICK_RANK[trump][led][card]``: the highest value in a trick wins it."""

POPCOUNT: tuple[int, ...] = tuple(bin(i).count("1") for i in range(1 << 8))
"""Bits set in a byte."""
