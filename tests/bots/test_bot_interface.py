"""The bot interface: make(), legal answers in every phase, seeding, forced moves."""

from __future__ import annotations

import random

import pytest

import euchre
from euchre import GameState, Rules
from euchre.bots import LEVELS, Bot, make

CHEAP_LEVELS = ["random", "easy", "medium"]


def play_game(rules: Rules, bots: list[Bot], seed: int) -> GameState:
    """Play one whole game with bots in every seat, checking each answer is legal."""
    rng = random.Random(seed)
    game = GameState(rules, first_dealer=seed % 4)
    steps = 0
    while not game.is_over:
        if game.needs_deal:
            game = game.deal_random(rng)
            continue
        hand = game.current
        assert hand is not None and hand.to_act is not None
        seat = hand.to_act
        view = hand.view(seat)
        action = bots[seat].choose(view)
        assert action in hand.legal_actions()
        game = game.apply(action, seat)
        steps += 1
        assert steps < 5000
    return game


@pytest.mark.parametrize("level", CHEAP_LEVELS)
@pytest.mark.parametrize("preset", sorted(euchre.PRESETS))
def test_every_level_plays_legal_games_under_every_preset(level: str, preset: str) -> None:
    rules = Rules.preset(preset, defend_alone=True, farmers_hand="nines-and-tens")
    bots = [make(level, seed=s) for s in range(4)]
    game = play_game(rules, bots, seed=len(preset))
    assert game.winner in (0, 1)


def test_make_knows_the_levels() -> None:
    assert LEVELS == ("random", "easy", "medium", "hard", "expert")
    for level in CHEAP_LEVELS:
        bot = make(level, seed=3)
        assert bot.level == level
        assert level in bot.name


def test_make_refuses_an_unknown_level() -> None:
    with pytest.raises(ValueError, match="unknown level"):
        make("grandmaster")


def test_same_view_and_seed_give_the_same_decision_in_any_order() -> None:
    rng = random.Random(7)
    views = []
    for i in range(30):
        game = GameState(Rules(), first_dealer=i % 4).deal_random(rng)
        hand = game.current
        assert hand is not None
        while not hand.is_over and rng.random() < 0.9:
            hand = hand.apply(rng.choice(hand.legal_actions()))
        if not hand.is_over:
            assert hand.to_act is not None
            views.append(hand.view(hand.to_act))
    for level in CHEAP_LEVELS:
        first = [make(level, seed=11).choose(v) for v in views]
        bot = make(level, seed=11)
        backwards = [bot.choose(v) for v in reversed(views)]
        assert first == list(reversed(backwards))


def test_random_bot_depends_on_its_seed() -> None:
    state = euchre.deal(
        Rules(), 0, [h.split() for h in ("9C TC JC QC KC", "9D TD JD QD KD", "9H TH JH QH KH",
                                         "9S TS JS QS KS")],
        ["AC", "AD", "AH", "AS"],
    )
    view = state.view(1)
    answers = {make("random", seed=s).choose(view) for s in range(40)}
    assert answers == set(view.legal_actions())


def test_forced_move_is_answered_without_deciding() -> None:
    class Refuses(Bot):
        level = "refuses"

        def decide(self, view: euchre.HandView, rng: random.Random) -> euchre.Action:
            raise AssertionError("should not be asked")

    state = euchre.deal(
        Rules(), 0, [h.split() for h in ("9C TC JC QC KC", "9D TD JD QD KD", "9H TH JH QH KH",
                                         "9S TS JS QS KS")],
        ["AC", "AD", "AH", "AS"],
    )
    state = state.apply("order")
    while len(state.legal_actions()) > 1:
        state = state.apply(state.legal_actions()[0])
    assert state.to_act is not None
    assert Refuses(seed=1).choose(state.view(state.to_act)) == state.legal_actions()[0]
