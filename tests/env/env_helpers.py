"""Shared helpers for the environment tests: random legal play, deals with a farmer, and
twin hands that differ only in cards a seat cannot see."""

from __future__ import annotations

import random

from euchre.actions import Action, farmer_swap
from euchre.cards import DECK, JOKER
from euchre.env.actions import FARMER_CARDS
from euchre.errors import IllegalActionError
from euchre.hand import Deal, HandState

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


def _relabel(action: Action, perm: dict[int, int]) -> Action:
    if action.kind in ("play", "discard"):
        return action._replace(card=perm.get(action.card, action.card))
    if action.kind == "farmer swap":
        return farmer_swap([perm.get(c, c) for c in action.cards])
    return action


def hidden_twin(
    state: HandState, seat: int, rng: random.Random
) -> tuple[Deal, list[Action]] | None:
    """The same hand dealt with the cards ``seat`` cannot see now (the other seats' cards,
    the face-down kitty) shuffled among themselves, and the same actions relabelled to
    match; None when no shuffle keeps every earlier play legal."""
    seen = {state.upcard, *state.hand(seat), *state.view(seat).farmer_gave}
    if seat == state.dealer and state.discard >= 0:
        seen.add(state.discard)
    pool = [c for s in range(4) if s != seat for c in state.hand(s) if c not in seen]
    pool += [c for c in state.kitty_down if c not in seen]
    history = state.history()
    deal = state.deal
    for _ in range(50):
        shuffled = pool[:]
        rng.shuffle(shuffled)
        perm = dict(zip(pool, shuffled, strict=True))
        twin = Deal(
            tuple(tuple(perm.get(c, c) for c in h) for h in deal.hands),
            tuple(perm.get(c, c) for c in deal.kitty),
            deal.pattern,
        )
        actions = [_relabel(a, perm) for _, a in history]
        replay = HandState(state.rules, state.dealer, twin, state.score)
        try:
            for (actor, _), a in zip(history, actions, strict=True):
                replay = replay.apply(a, seat=actor)
        except IllegalActionError:
            continue
        if (replay.phase, replay.to_act) != (state.phase, state.to_act):
            continue  # a farmer's hand dealt or not is public: everyone sees the decision
        return twin, actions
    return None
