"""Hints: one per legal action, the hard player's choice first, in plain words."""

from __future__ import annotations

import random

import pytest

from euchre import Rules, deal
from euchre import actions as A
from euchre.bots.expert import ExpertBot
from euchre.bots.hints import analyse, describe_action, explain
from euchre.hand import HandState
from euchre.shuffle import deal_from_deck, shuffled_deck
from euchre.view import HandView

PRESETS = ["classic", "stick-the-dealer", "canadian", "kitchen-table", "benny", "short",
           "redeal"]


def decision_views(preset: str, seed: int) -> list[HandView]:
    """The views of every decision with a real choice in one randomly played hand."""
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    dealer = rng.randrange(4)
    state = HandState(rules, dealer, deal_from_deck(shuffled_deck(rules.benny, rng), dealer))
    views = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) > 1:
            views.append(state.view(seat))
        state = state.apply(legal[rng.randrange(len(legal))])
    return views


@pytest.mark.parametrize("preset", PRESETS)
def test_hints_cover_every_legal_action(preset: str) -> None:
    for seed in range(3):
        for view in decision_views(preset, seed):
            hints = analyse(view, seed=1, budget=60.0, samples=12)
            assert sorted(map(str, (h.action for h in hints))) == sorted(map(str, view.legal))
            for h in hints:
                assert h.text.startswith(describe_action(view, h.action))
                if h.make_chance is not None:
                    assert 0.0 <= h.make_chance <= 1.0


def test_the_first_hint_is_what_the_player_does() -> None:
    for seed in range(4):
        for view in decision_views("classic", seed):
            hints = analyse(view, seed=5, budget=60.0, samples=30)
            bot = ExpertBot(seed=5, samples=30, time_cap=60.0)
            assert hints[0].action == bot.choose(view)


def card_play_view() -> HandView:
    state = deal(
        Rules(), 3,
        [["9C", "TC", "AS", "KD", "AC"], ["JC", "9D", "TD", "QD", "KH"],
         ["AH", "KC", "QH", "TH", "9H"], ["JH", "JD", "AD", "9S", "TS"]],
        ["QS", "KS", "QC", "JS"],
    )
    state = state.apply("pass").apply("pass").apply("pass").apply("pass").apply("call H")
    return state.view(0)


def test_card_hints_speak_of_points_and_chances() -> None:
    hints = analyse(card_play_view(), seed=2, budget=60.0, samples=40)
    text = hints[0].text
    assert text.startswith("Play the ")
    assert "point" in text or "even" in text
    assert "%" in text  # seat 0 named trump: "your side makes it N% of the time"
    assert "your side makes it" in text


def test_bid_hints_come_from_the_tables() -> None:
    state = deal(
        Rules(), 0,
        [["9C", "TC", "QC", "KC", "AC"], ["JH", "JD", "AH", "KH", "AS"],
         ["9D", "TD", "QD", "KD", "AD"], ["9S", "TS", "QS", "KS", "JS"]],
        ["QH", "JC", "9H", "TH"],
    )
    hints = analyse(state.view(1))
    assert {h.action for h in hints} == {A.PASS, A.ORDER_UP, A.ORDER_UP_ALONE}
    assert hints[0].action.kind == A.ORDER
    order = next(h for h in hints if h.action == A.ORDER_UP)
    assert order.make_chance is not None and order.make_chance > 0.8
    assert order.text.startswith("Order up the Queen of Hearts")


def test_explain_puts_the_best_first() -> None:
    lines = explain(card_play_view(), seed=1, budget=60.0)
    assert lines[0].startswith("Best: Play the ")
    assert len(lines) == len(card_play_view().legal)


def test_nothing_to_explain_when_it_is_not_your_turn() -> None:
    view = card_play_view()
    other = deal(
        Rules(), 3,
        [["9C", "TC", "AS", "KD", "AC"], ["JC", "9D", "TD", "QD", "KH"],
         ["AH", "KC", "QH", "TH", "9H"], ["JH", "JD", "AD", "9S", "TS"]],
        ["QS", "KS", "QC", "JS"],
    ).view(2)
    assert view.legal
    assert analyse(other) == []
    assert explain(other) == ["Nothing to decide now."]
