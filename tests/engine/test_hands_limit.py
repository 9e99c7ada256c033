"""Rules.hands_limit: a tournament round of N hands ends the game beside game_to."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import actions as A
from euchre.errors import IllegalActionError
from euchre.game import GameState
from euchre.rules import Rules, RulesError


def play_out(game: GameState, rng: random.Random, passes: bool = False) -> GameState:
    """Deal and play one hand with random legal actions (everyone passes when ``passes``)."""
    game = game.deal_random(rng)
    while game.current is not None and not game.current.is_over:
        legal = game.legal_actions()
        pass_ = [a for a in legal if a == A.PASS]
        game = game.apply(pass_[0] if passes and pass_ else rng.choice(legal))
    return game


@settings(max_examples=40, deadline=None)
@given(limit=st.integers(1, 12), seed=st.integers(0, 2**32))
def test_the_game_ends_after_the_round_of_hands_whatever_the_score(limit: int, seed: int) -> None:
    rng = random.Random(seed)
    game = GameState(Rules(hands_limit=limit, stick_the_dealer=True))
    for played in range(1, limit + 1):
        assert not game.is_over
        game = play_out(game, rng)
        assert game.is_over == (played == limit)
    assert len(game.all_hands()) == limit
    ahead = None if game.score[0] == game.score[1] else int(game.score[1] > game.score[0])
    assert game.winner == ahead
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.deal_random(rng)


def test_points_past_game_to_do_not_end_a_round_of_hands() -> None:
    rng = random.Random(7)
    game = GameState(Rules(hands_limit=40, stick_the_dealer=True, game_to=5))
    while max(game.score) < 5:
        game = play_out(game, rng)
    assert not game.is_over and game.winner is None
    assert game.needs_deal


def test_a_thrown_in_hand_does_not_count() -> None:
    rng = random.Random(3)
    game = GameState(Rules(hands_limit=1))
    game = play_out(game, rng, passes=True)
    assert game.current is not None and game.current.thrown_in
    assert not game.is_over
    game = play_out(game, rng)
    assert game.is_over


def test_a_level_round_is_over_with_no_winner() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        game = GameState(Rules(hands_limit=2, stick_the_dealer=True))
        game = play_out(play_out(game, rng), rng)
        if game.score[0] == game.score[1]:
            assert game.is_over and game.winner is None
            return
    raise AssertionError("no level round in 200 seeds")


def test_without_a_limit_game_to_still_decides() -> None:
    rng = random.Random(1)
    game = GameState(Rules(stick_the_dealer=True, game_to=5))
    while not game.is_over:
        game = play_out(game, rng)
    assert game.winner is not None and max(game.score) >= 5


@pytest.mark.parametrize("bad", [-1, 65, True, "8", 2.0])
def test_a_bad_limit_is_refused(bad: object) -> None:
    with pytest.raises(RulesError, match="hands_limit must be 0"):
        Rules(hands_limit=bad)  # type: ignore[arg-type]


def test_the_limit_reads_and_writes_as_text_and_is_described() -> None:
    rules = Rules.preset("stick-the-dealer", hands_limit=8)
    assert Rules.from_text(rules.to_text()) == rules
    assert "hands_limit=8" in rules.to_text()
    assert rules.describe()[0].startswith("A round of 8 hands")
    assert Rules.from_dict(rules.to_dict()) == rules


def test_a_round_of_hands_is_recorded_and_replays_to_the_same_end() -> None:
    from euchre.record import GameRecord

    rng = random.Random(11)
    game = GameState(Rules(hands_limit=3, stick_the_dealer=True))
    while not game.is_over:
        game = play_out(game, rng)
    record = GameRecord.from_text(GameRecord.from_game(game).to_text())
    assert record.rules.hands_limit == 3
    again = record.replay()
    assert again.is_over and again.score == game.score and again.winner == game.winner
