"""euchre.interop.openspiel: OpenSpiel histories to our records and back, and our players as
pyspiel bots playing whole games inside OpenSpiel (open_spiel is in the dev extra)."""

from __future__ import annotations

import random
from typing import Any

import pyspiel
import pytest

import euchre
from euchre import actions as A
from euchre.actions import Action
from euchre.bots import Bot, make
from euchre.interop import openspiel as O
from euchre.record import GameRecord, HandRecord
from euchre.view import HandView

SETTINGS: list[dict[str, Any]] = [
    {},
    {"stick_the_dealer": False},
    {"allow_lone_defender": True},
    {"stick_the_dealer": False, "allow_lone_defender": True},
]


def random_history(game: Any, rng: random.Random, passing: float = 0.0) -> list[int]:
    """One OpenSpiel hand of random chance and random legal decisions (passing a bid with
    probability ``passing`` when a pass is legal, so some hands are passed out)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            if O.PASS in legal and rng.random() < passing:
                state.apply_action(O.PASS)
            else:
                state.apply_action(legal[rng.randrange(len(legal))])
    return list(state.history())


def their_returns(params: dict[str, Any], history: list[int]) -> list[float]:
    """OpenSpiel's returns after replaying ``history``, each action checked legal."""
    state = pyspiel.load_game("euchre", params).new_initial_state()
    for action in history:
        state.apply_action_with_legality_check(action)
    assert state.is_terminal()
    return list(state.returns())


def as_points(returns: list[float]) -> tuple[int, int]:
    """OpenSpiel's zero-sum returns as our points (the scoring side's positive return)."""
    return (max(int(returns[0]), 0), max(int(returns[1]), 0))


def test_800_openspiel_histories_round_trip_through_records() -> None:
    """History -> record -> history is the identity; the record replays to their score, and
    survives our text format."""
    rng = random.Random("interop-round-trip")
    seen = {"alone": 0, "lone_defender": 0, "call": 0, "passed_out": 0}
    for n in range(800):
        params = SETTINGS[n % len(SETTINGS)]
        game = pyspiel.load_game("euchre", params)
        history = random_history(game, rng, 0.9 if n % 10 == 1 else 0.0)
        record = O.history_to_record(history, params)
        assert O.record_to_history(record) == history
        assert record.rules == O.rules_from_params(params)
        game_state = record.replay()
        hand = game_state.all_hands()[0]
        assert hand.is_over and record.hands[0].result == hand.points
        assert hand.points == as_points(their_returns(params, history))
        again = GameRecord.from_text(record.to_text())
        assert O.record_to_history(again) == history
        seen["alone"] += hand.alone
        seen["lone_defender"] += hand.lone_defender >= 0
        seen["call"] += any(a.kind == A.CALL for _, a in hand.history())
        seen["passed_out"] += hand.thrown_in
    assert all(seen.values()), seen


def test_our_hands_become_histories_openspiel_accepts() -> None:
    """Random hands of ours (OpenSpiel's rules, no upcard discards) replay in OpenSpiel with
    every action legal there and the same score."""
    rng = random.Random("interop-ours")
    for n in range(200):
        params = SETTINGS[n % len(SETTINGS)]
        rules = O.rules_from_params(params)
        deck = list(range(24))
        rng.shuffle(deck)
        dealer = rng.randrange(4)
        state = euchre.deal(rules, dealer, [deck[5 * s:5 * s + 5] for s in range(4)], deck[20:])
        while not state.is_over:
            legal = [a for a in state.legal_actions()
                     if not (a.kind == A.DISCARD and a.card == state.upcard)]
            state = state.apply(legal[rng.randrange(len(legal))])
        history = O.record_to_history(GameRecord.from_hand(state))
        assert as_points(their_returns(params, history)) == state.points
        back = O.history_to_record(history, params).hands[0]
        assert back.actions == state.history()
        assert back.deal.hands == state.deal.hands and back.deal.kitty[0] == state.upcard


def test_conversions_refuse_what_openspiel_cannot_play() -> None:
    """Rules, actions and histories with no counterpart raise ConversionError with a reason."""
    with pytest.raises(O.ConversionError, match="Benny"):
        O.params_from_rules(euchre.Rules(benny=True))
    with pytest.raises(O.ConversionError, match="farmer"):
        O.params_from_rules(euchre.Rules.preset("kitchen-table"))
    with pytest.raises(O.ConversionError, match="unknown OpenSpiel euchre parameter"):
        O.rules_from_params({"stick_to_the_dealer": True})
    rules = euchre.Rules(stick_the_dealer=True)
    state = euchre.deal(rules, 3, [["AD", "9C", "TC", "9S", "TS"], ["JD", "QD", "9H", "AC", "KC"],
                                   ["KD", "TD", "AH", "QC", "JC"], ["9D", "AS", "KS", "QS", "JS"]],
                        ["KH", "JH", "QH", "TH"])
    state = state.apply("order").apply("discard KH")
    with pytest.raises(O.ConversionError, match="may not discard the upcard"):
        O.record_to_history(GameRecord.from_hand(state))
    renege = GameRecord(rules, [HandRecord(3, state.deal, [(0, A.renege(1, 0))])])
    with pytest.raises(O.ConversionError, match="no renege"):
        O.record_to_history(renege)
    history = random_history(pyspiel.load_game("euchre"), random.Random(3))
    with pytest.raises(O.ConversionError, match="22 chance actions"):
        O.history_to_record(history[:10])
    with pytest.raises(O.ConversionError, match="action 22"):
        O.history_to_record([*history[:22], 5])  # a card before any bid
    with pytest.raises(O.ConversionError, match="already over"):
        O.history_to_record([*history, 24])


def test_a_history_cut_off_before_the_alone_answer_counts_the_bid_as_not_alone() -> None:
    """OpenSpiel asks the maker "alone?" after the discard; until then the bid is not alone."""
    rng = random.Random(11)
    game = pyspiel.load_game("euchre")
    while True:
        history = random_history(game, rng)
        record = O.history_to_record(history)
        if record.replay().all_hands()[0].alone:
            break
    answer = history.index(O.ALONE)
    partial = O.history_to_record(history[:answer])
    assert partial.hands[0].result is None
    bid = next(a for _, a in partial.hands[0].actions if a.kind in (A.ORDER, A.CALL))
    assert not bid.alone
    full_bid = next(a for _, a in record.hands[0].actions if a.kind in (A.ORDER, A.CALL))
    assert full_bid.alone


class UpcardDiscarder(Bot):
    """Plays randomly, but as dealer always wants to discard the upcard."""

    level = "test"

    def decide(self, view: HandView, rng: random.Random) -> Action:
        """The upcard discard when it is legal, else any legal action."""
        if view.phase == "discard":
            return A.DISCARDS[view.upcard]
        return view.legal[rng.randrange(len(view.legal))]


@pytest.mark.parametrize("params", SETTINGS[:3], ids=["stick", "classic", "lone-defender"])
def test_our_players_play_whole_openspiel_games(params: dict[str, Any]) -> None:
    """pyspiel.evaluate_bots with our levels beside OpenSpiel's random bot: every game ends,
    the returns match our engine's score of the same history, and each of our decisions is
    what that player chooses on our engine's view (alone folded into its bid; a discard made
    before a lone maker's answer is not compared, as that view still shows no loner)."""
    game = pyspiel.load_game("euchre", params)
    levels = ["medium", "easy", "random"]
    for n in range(24):
        ours = {seat: make(levels[(n + seat) % 3], seed=n) for seat in (0, 2, 3)}
        if n % 4 == 0:
            ours[3] = UpcardDiscarder(seed=n)
        bots = [O.make_bot(ours[s], s, params) if s in ours
                else pyspiel.make_uniform_random_bot(s, n) for s in range(4)]
        state = game.new_initial_state()
        returns = pyspiel.evaluate_bots(state, bots, n)  # plays on ``state`` itself
        assert state.is_terminal() and sum(returns) == 0
        history = list(state.history())
        record = O.history_to_record(history, params)
        hand = record.replay().all_hands()[0]
        assert hand.points == as_points(returns)
        for number, (seat, action) in enumerate(record.hands[0].actions):
            if seat not in ours:
                continue
            before = _state_before(record, number)
            if len(before.legal_actions()) == 1:
                continue
            if action.kind == A.DISCARD and before.alone:
                continue  # OpenSpiel's dealer discards before the maker says "alone"
            chosen = ours[seat].choose(before.view(seat))
            if chosen.kind == A.DISCARD and chosen.card == before.upcard:
                assert action.kind == A.DISCARD and action.card != before.upcard
                continue
            assert chosen == action, (n, number, seat, chosen, action)


def _state_before(record: GameRecord, number: int) -> euchre.HandState:
    hand = record.hands[0]
    state = euchre.HandState(record.rules, hand.dealer, hand.deal)
    for seat, action in hand.actions[:number]:
        state = state.apply(action, seat=seat)
    return state


def test_openspiel_ismcts_against_our_hard_player() -> None:
    """OpenSpiel's own ISMCTS sits with our hard player and the whole game is played."""
    game = pyspiel.load_game("euchre")
    evaluator = pyspiel.RandomRolloutEvaluator(1, 5)
    ismcts = pyspiel.ISMCTSBot(5, evaluator, 2.0, 30, -1,
                               pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    for n in range(2):
        bots = [O.make_bot("hard", 0, seed=n), ismcts, O.make_bot("hard", 2, seed=n), ismcts]
        state = game.new_initial_state()
        returns = pyspiel.evaluate_bots(state, bots, n)
        assert state.is_terminal() and sum(returns) == 0
        hand = O.history_to_record(state.history()).replay().all_hands()[0]
        assert hand.points == as_points(returns)


def test_make_bot_refuses_acting_for_another_player() -> None:
    """A wrapped player asked to move for a seat it does not hold says so."""
    game = pyspiel.load_game("euchre")
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    other = (state.current_player() + 1) % 4
    with pytest.raises(O.ConversionError, match="not this bot's player"):
        O.make_bot("random", other, seed=1).step(state)
