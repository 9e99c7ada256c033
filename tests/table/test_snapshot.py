"""A seat's snapshot is built as its type: the view in it is exactly what the engine's own
renderings give (``HandView.to_table_json`` for a seat, ``to_public_json`` for a spectator),
so table law 11 and the hidden cards hold in every position of many random games."""

from __future__ import annotations

import random

import msgspec
import pytest

from euchre.game import GameState
from euchre.rules import PRESETS, Rules
from euchre.shuffle import deck_from_seed
from euchre.table.snapshot import view_json
from euchre.table.wire import HandViewJson

RULES = [*PRESETS.values(), Rules.preset("classic", farmers_hand="nines-and-tens")]


def positions(rng: random.Random, rules: Rules) -> list[GameState]:
    """Every position of a random game with a hand in play."""
    game = GameState(rules, rng.randrange(4))
    out = []
    while not game.is_over:
        if game.needs_deal:
            game = game.deal(deck_from_seed(f"{rng.getrandbits(64):016x}", rules.benny))
        else:
            game = game.apply(rng.choice(game.legal_actions()))
        if game.current is not None:
            out.append(game)
    return out


@pytest.mark.parametrize("index", range(len(RULES)))
def test_the_typed_view_is_the_engines_table_and_public_view(index: int) -> None:
    rules = RULES[index]
    checked = 0
    for game in positions(random.Random(index), rules):
        hand = game.current
        assert hand is not None
        for seat in range(4):
            view = hand.view(seat)
            assert msgspec.to_builtins(view_json(view)) == view.to_table_json()
        dealer = hand.view(hand.dealer)
        assert msgspec.to_builtins(view_json(dealer, public=True)) == dealer.to_public_json()
        checked += 1
    assert checked > 20


def test_the_typed_view_round_trips_through_its_own_type() -> None:
    game = positions(random.Random(3), PRESETS["classic"])[30]
    assert game.current is not None
    view = view_json(game.current.view(1))
    text = msgspec.json.encode(view)
    assert msgspec.json.decode(text, type=HandViewJson) == view
