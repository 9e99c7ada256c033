"""The hard computer player: complete hands under every preset, seeded, score-aware bids."""

from __future__ import annotations

import random

import pytest

from euchre import GameState, Rules, deal
from euchre import actions as A
from euchre.bots import make
from euchre.bots.hard import Budget, HardBot, evaluate_plays, payoffs
from euchre.bots.policy import (
    FEATURES,
    TARGETS,
    bid_estimates,
    bucket_key,
    estimate,
    load_buckets,
    load_tables,
    utility,
    win_chance,
)
from euchre.hand import HandState
from euchre.view import HandView

PRESETS = ["classic", "stick-the-dealer", "canadian", "kitchen-table", "benny", "short",
           "redeal"]


def fast_bot(seed: int) -> HardBot:
    """A hard bot with few samples (and a time cap no test run reaches)."""
    return HardBot(seed=seed, samples=24, time_cap=60.0)


@pytest.mark.parametrize("preset", PRESETS)
def test_hard_plays_whole_hands_under_every_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    bots = [fast_bot(1), make("easy", 2), fast_bot(3), make("easy", 4)]
    game = GameState(rules)
    for _ in range(4):
        game = game.deal_random(rng)
        assert game.current is not None
        while not game.current.is_over:
            seat = game.current.to_act
            assert seat is not None
            view = game.current.view(seat)
            action = bots[seat].choose(view)
            assert action in view.legal
            game = game.apply(action)
        if game.is_over:
            break
    assert len(game.all_hands()) >= 1


def test_hard_against_itself_finishes_a_game() -> None:
    rng = random.Random(5)
    bots = [fast_bot(s) for s in range(4)]
    game = GameState(Rules.preset("short"))
    while not game.is_over:
        game = game.deal_random(rng)
        assert game.current is not None
        while not game.current.is_over:
            seat = game.current.to_act
            assert seat is not None
            game = game.apply(bots[seat].choose(game.current.view(seat)))
    assert game.winner in (0, 1)


def opening_state() -> HandState:
    state = deal(
        Rules(), 3,
        [["9C", "TC", "AS", "KD", "AC"], ["JC", "9D", "TD", "QD", "KH"],
         ["AH", "KC", "QH", "TH", "9H"], ["JH", "JD", "AD", "9S", "TS"]],
        ["QS", "KS", "QC", "JS"],
    )
    return state.apply("pass").apply("pass").apply("pass").apply("pass").apply("call H")


def test_the_same_view_and_seed_give_the_same_card() -> None:
    view = opening_state().view(0)
    picks = {HardBot(seed=9, samples=60, time_cap=60.0).choose(view) for _ in range(3)}
    assert len(picks) == 1


def test_make_hard_gives_a_hard_bot() -> None:
    bot = make("hard", seed=3)
    assert isinstance(bot, HardBot)
    assert bot.level == "hard"


def test_a_forced_move_is_answered_without_thinking() -> None:
    state = opening_state()
    # play until someone holds a single legal card
    rng = random.Random(1)
    while len(state.legal_actions()) > 1:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
    seat = state.to_act
    assert seat is not None
    view = state.view(seat)
    assert HardBot(seed=1, samples=0).choose(view) == view.legal[0]


def test_every_legal_card_gets_an_estimate() -> None:
    view = opening_state().view(0)
    est = evaluate_plays(view, random.Random(1), Budget(samples=30, time_cap=60.0), detailed=True)
    assert {e.card for e in est} == {a.card for a in view.legal}
    for e in est:
        assert e.make_chance is not None and 0.0 <= e.make_chance <= 1.0
        assert e.expected_points is not None and -4.0 <= e.expected_points <= 4.0


def test_hard_outscores_random_players() -> None:
    rng = random.Random(11)
    bots = [fast_bot(1), make("random", 2), fast_bot(3), make("random", 4)]
    totals = [0, 0]
    for i in range(16):
        game = GameState(Rules(), first_dealer=i % 4).deal_random(rng)
        state = game.current
        assert state is not None
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state = state.apply(bots[seat].choose(state.view(seat)))
        totals[0] += state.points[0]
        totals[1] += state.points[1]
    assert totals[0] > totals[1] + 8


def test_payoffs_rise_with_the_makers_tricks() -> None:
    view = opening_state().view(0)
    for alone in (False, True):
        worth, points, made = payoffs(view, 3, alone, -1)
        assert worth == sorted(worth)
        assert points[:3] == [-2.0] * 3 and points[3] == 1.0
        assert made == [0, 0, 0, 1, 1, 1]


def test_a_euchre_at_nine_costs_more_than_at_nothing() -> None:
    assert utility((9, 9), 0, 0, 2, 10) < utility((0, 0), 0, 0, 2, 10)
    assert win_chance(9, 0, 10) > win_chance(0, 9, 10)
    assert abs(utility((0, 0), 0, 1, 0, 10) - 1.0) < 0.2


def bidding_view(score: tuple[int, int]) -> HandView:
    # Seat 1 (left of the dealer) holds both bowers, the ace and king of the upcard's suit.
    state = deal(
        Rules(), 0,
        [["9C", "TC", "QC", "KC", "AC"], ["JH", "JD", "AH", "KH", "AS"],
         ["9D", "TD", "QD", "KD", "AD"], ["9S", "TS", "QS", "KS", "JS"]],
        ["QH", "JC", "9H", "TH"],
        score=score,
    )
    return state.view(1)


def test_a_monster_hand_orders_up() -> None:
    choice = HardBot(seed=1).choose(bidding_view((0, 0)))
    assert choice.kind == A.ORDER


def test_no_lone_hand_when_a_plain_march_wins_the_game() -> None:
    view = bidding_view((0, 8))  # seat 1 is on side 1, which has 8
    assert HardBot(seed=1).choose(view) != A.ORDER_UP_ALONE
    assert HardBot(seed=1).choose(bidding_view((0, 0))) == A.ORDER_UP_ALONE
    alone = [e for e in bid_estimates(view) if e.action == A.ORDER_UP_ALONE]
    assert alone and alone[0].utility < 0


def test_shipped_tables_match_the_features() -> None:
    tables = load_tables()
    assert set(tables) == {"classic", "stick"}
    for groups in tables.values():
        assert len(groups) == 8
        for weights in groups.values():
            assert set(weights) == set(TARGETS)
            assert all(len(w) == len(FEATURES) for w in weights.values())
    buckets = load_buckets()
    assert set(buckets) == {"classic", "stick"}
    for groups in buckets.values():
        for cells in groups.values():
            for key, cell in cells.items():
                assert len(key.split(",")) == 6
                assert len(cell) == 1 + len(TARGETS)


def test_bucket_averages_pull_the_estimate_their_way() -> None:
    features = [1.0] + [0.0] * (len(FEATURES) - 1)
    group = {t: [0.0] * len(FEATURES) for t in TARGETS}
    cell: list[float | None] = [1000.0, 1.5, 0.5, 0.9, 0.3, 2.0, 0.8, 0.2]
    v = estimate(group, features, {bucket_key(features): cell})
    assert 1.4 < v.points < 1.5
    assert 0.85 < v.make <= 0.9
    assert estimate(group, features, {}).points == 0.0
