"""Shared helpers for the environment tests: random legal play and deals with a farmer."""

from __future__ import annotations

import random

from euchre.cards import DECK, JOKER
from euchre.env.actions import FARMER_CARDS
from euchre.hand import Deal

RULE_SETS: tuple[tuple[str, dict[str, object]], ...] = (
    ("classic", {}),
    ("stick-the-dealer", {}),
    ("redeal", {}),
    ("canadian", {}),
    ("kitchen-table", {}),
    ("benny", {}),
    ("short", {}),
    ("classic", {"defend_alone": True, "lead_when_sitting_out": "loner-left"}),
    ("classic", {"dealer_exchanges_when_partner_alone": False, "canadian_loner": True}),
    ("benny", {"farmers_hand": "three-nines-two-tens", "defend_alone": True,
               "stick_the_dealer": True, "game_to": 7}),
    ("kitchen-table", {"benny": True, "renege_penalty": "flat", "game_to": 11}),
)
"""Every preset, and mixes that switch on every other rule option."""


def farmer_deal(rng: random.Random, seat: int, benny: bool = False) -> Deal:
    """A random deal in which ``seat`` holds three nines and two tens: a farmer's hand
    under either farmer rule."""
    nines = [c for c in FARMER_CARDS if c % 6 == 0]
    tens = [c for c in FARMER_CARDS if c % 6 == 1]
    mine = rng.sample(nines, 3) + rng.sample(tens, 2)
    rest = [c for c in (*DECK, *([JOKER] if benny else [])) if c not in mine]
    rng.shuffle(rest)
    hands: list[tuple[int, ...]] = []
    for s in range(4):
        if s == seat:
            hands.append(tuple(mine))
        else:
            hands.append(tuple(rest[:5]))
            rest = rest[5:]
    return Deal(tuple(hands), tuple(rest), "3-2")
