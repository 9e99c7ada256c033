"""The learned model of play: a distribution over the legal actions, read from the view alone.

Also: the deal a sample implies replays the real history, the model's weight of a deal
does not depend on where the hidden cards really are, and the decision recorder repeats
exactly from its seed. Nothing here needs numpy or the ``train`` extra.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

from euchre.actions import Action
from euchre.bots import make
from euchre.bots.action_model import ModelReader, implied_deal, load_model
from euchre.bots.knowledge import mask
from euchre.hand import Deal, HandState
from euchre.rules import Rules
from euchre.shuffle import deal_from_deck, shuffled_deck
from euchre.view import HandView

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "research"
sys.path.insert(0, str(SCRIPTS))

import record_decisions as rec  # noqa: E402

RULES = Rules.preset("classic")
Step = tuple[HandState, HandView, Action]


def _hand(i: int) -> tuple[Deal, int, list[Step]]:
    """Deal ``i`` played by medium players: each state, its mover's view, the action taken."""
    rng = random.Random(f"action-model:{i}")
    dealer = i % 4
    deal = deal_from_deck(shuffled_deck(False, rng), dealer, "3-2")
    state = HandState(RULES, dealer, deal)
    bots = [make("medium", seed=1), make("medium", seed=2)]
    out = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = bots[seat % 2].choose(view)
        out.append((state, view, action))
        state = state.apply(action, seat)
    return deal, dealer, out


def _hands_now(state: HandState) -> tuple[int, int, int, int]:
    h = [mask(state.view(s).hand) for s in range(4)]
    return (h[0], h[1], h[2], h[3])


def test_probabilities_cover_exactly_the_legal_actions() -> None:
    model = load_model()
    assert model.weights and model.made_by.startswith("scripts/research/train_action_model.py")
    kinds = set()
    for i in range(24):
        for _, view, _ in _hand(i)[2]:
            probs = model.probabilities(view)
            assert list(probs) == list(view.legal)
            assert all(0.0 < p <= 1.0 for p in probs.values())
            assert math.isclose(sum(probs.values()), 1.0, rel_tol=1e-9)
            kinds |= {a.kind for a in view.legal}
    assert {"pass", "order", "call", "discard", "play"} <= kinds


def _rehide(deal: Deal, dealer: int, steps: list[Step], upto: int, viewer: int,
            rng: random.Random) -> HandState | None:
    """The first ``upto`` actions again on a deal whose cards hidden from ``viewer`` differ.

    Two seats other than the viewer swap a card they have not played, and sometimes one
    of them swaps with a face-down kitty card; None when that breaks an action taken.
    """
    hands = [list(h) for h in deal.hands]
    kitty = list(deal.kitty)
    a, b = rng.sample([s for s in range(4) if s != viewer], 2)
    ia, ib = rng.randrange(5), rng.randrange(5)
    hands[a][ia], hands[b][ib] = hands[b][ib], hands[a][ia]
    if rng.random() < 0.5:
        j = rng.randrange(1, len(kitty))
        hands[a][ia], kitty[j] = kitty[j], hands[a][ia]
    state = HandState(RULES, dealer, Deal(tuple(map(tuple, hands)), tuple(kitty), "3-2"))
    try:
        for _s, v, action in steps[:upto]:
            state = state.apply(action, v.seat)
    except Exception:
        return None
    return state


def test_the_model_never_reads_a_hidden_card() -> None:
    model = load_model()
    rng = random.Random(5)
    compared = 0
    for i in range(16):
        deal, dealer, steps = _hand(i)
        for n, (state, view, _) in enumerate(steps):
            other = _rehide(deal, dealer, steps, n, view.seat, rng)
            if other is None or _hands_now(other) == _hands_now(state):
                continue
            view2 = other.view(view.seat)
            assert model.probabilities(view2) == model.probabilities(view)
            # a sampled deal weighs the same whatever the true hidden cards are
            sample = _hands_now(state)
            w1 = ModelReader(view, model).weight(sample, random.Random(1))
            w2 = ModelReader(view2, model).weight(sample, random.Random(1))
            assert w1 == w2
            compared += 1
    assert compared > 40


def test_the_true_deal_replays_and_gets_the_models_probabilities() -> None:
    model = load_model()
    for i in range(8):
        deal, dealer, steps = _hand(i)
        for n, (state, view, _) in enumerate(steps):
            if view.phase != "play" or len(view.tricks) != 2:
                continue
            truth = _hands_now(state)
            implied, discard = implied_deal(view, truth, random.Random(0))
            up = deal.kitty[0]
            for s in range(4):
                if s == dealer and view.upcard_taken and view.seat != dealer:
                    # the dealer's discard is hidden: drawn from the sample's kitty
                    assert discard is not None and len(implied.hands[s]) == 5
                    assert set(implied.hands[s]) - {discard} <= set(deal.hands[s]) | {up}
                else:
                    assert set(implied.hands[s]) == set(deal.hands[s])
            # temper 1, floor 0: the weight is the product of the model's probabilities
            expected = 1.0
            for _st, v, action in steps[:n]:
                if v.seat != view.seat and len(v.legal) > 1 and action.kind != "discard":
                    expected *= model.probabilities(v)[action]
            if view.seat == dealer or not view.upcard_taken:
                got = ModelReader(view, model, temper=1.0, floor=0.0).weight(
                    truth, random.Random(0))
                assert math.isclose(got, expected, rel_tol=1e-9)
            break


def test_the_recorder_repeats_from_its_seed() -> None:
    def players() -> list:  # type: ignore[type-arg]
        return [make("medium", seed=7), make("medium", seed=8)]

    first = [rec.play_game(i, 3, players()) for i in range(4)]
    again = [rec.play_game(i, 3, players()) for i in range(4)]
    assert first == again
    other = [rec.play_game(i, 4, players()) for i in range(4)]
    assert [g["deal"] for g in other] != [g["deal"] for g in first]
    for g in first:
        views = list(rec.replay(g))
        assert len(views) == len(g["decisions"])
        for (view, taken, _), d in zip(views, g["decisions"], strict=True):
            assert view.seat == d["seat"] and str(view.legal[taken]) == d["taken"]


def test_the_model_reading_is_off_by_default_and_plays_when_on() -> None:
    import dataclasses

    from euchre.bots.expert import EXPERT_BUDGET
    from euchre.bots.hard import Budget, HardBot, evaluate_plays

    assert not Budget().model_reading and not EXPERT_BUDGET.model_reading
    assert not HardBot(seed=1).budget.model_reading
    budget = dataclasses.replace(EXPERT_BUDGET, model_reading=True, samples=60, paired=False)
    played = 0
    for i in range(6):
        for _, view, _ in _hand(i)[2]:
            if view.phase == "play" and len(view.tricks) == 2 and len(view.legal) > 1:
                plays = evaluate_plays(view, random.Random(2), budget)
                assert {e.card for e in plays} == {a.card for a in view.legal}
                assert plays == evaluate_plays(view, random.Random(2), budget)
                played += 1
    assert played >= 3


def _replayed_weight(view: HandView, hands: tuple[int, int, int, int], temper: float,
                     floor: float, plays_only: bool) -> float:
    """A deal's weight the slow way: the hand replayed from the deal, a view per action."""
    model = load_model()
    deal, _ = implied_deal(view, hands, random.Random(0))  # no hidden discard here
    state = HandState(view.rules, view.dealer, deal, view.score)
    w = 1.0
    for seat, action in view.history:
        assert action is not None
        sv = state.view(seat)
        if seat != view.seat and len(sv.legal) > 1 and (not plays_only or action.kind == "play"):
            w *= max(model.probabilities(sv)[action], floor) ** temper
        state = state.apply(action, seat)
    return w


def test_the_remembered_moments_weigh_as_a_full_replay_would() -> None:
    from euchre.bots.sampling import knowledge, sample_hands

    compared = 0
    for i in range(10):
        _deal, dealer, steps = _hand(i)
        for _state, view, _ in steps:
            if view.phase != "play" or not view.history or (
                    view.upcard_taken and view.seat != dealer):
                continue
            k = knowledge(view)
            rng = random.Random(i)
            for plays_only in (False, True):
                reader = ModelReader(view, temper=0.5, floor=0.1, plays_only=plays_only)
                for _ in range(6):
                    hands = sample_hands(k, rng)
                    got = reader.weight(hands, random.Random(0))
                    want = _replayed_weight(view, hands, 0.5, 0.1, plays_only)
                    assert math.isclose(got, want, rel_tol=1e-9)
                    compared += 1
    assert compared > 200


def test_bid_counts_by_masks_agree_with_the_cards() -> None:
    from euchre.bots.action_model import _bid_stats, _bid_stats_mask
    from euchre.cards import JOKER

    rng = random.Random(3)
    deck = list(range(JOKER + 1))
    for _ in range(3000):
        hand = rng.sample(deck, rng.choice((5, 6)))
        held = sum(1 << c for c in hand)
        for suit in range(4):
            assert _bid_stats(hand, suit) == _bid_stats_mask(held, suit)


def test_a_farmers_swap_does_not_rule_out_every_deal() -> None:
    # With a farmer's swap in the history the reader cannot replay the sampled hand (the
    # swap's cards are hidden from the other seats): it must leave a sample's weight alone,
    # not give every sample 0 (then the bot reading the table would keep no deal at all).
    from euchre.bots.sampling import knowledge, sample_hands

    rules = Rules.preset("kitchen-table")
    bots = [make("medium", seed=1), make("medium", seed=2)]
    checked = 0
    for i in range(4000):
        rng = random.Random(f"farmer:{i}")
        dealer = i % 4
        state = HandState(rules, dealer, deal_from_deck(shuffled_deck(False, rng), dealer,
                                                        "3-2"))
        swapped = False
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if swapped and view.phase == "play" and len(view.legal) > 1:
                k = knowledge(view)
                weights = [ModelReader(view).weight(sample_hands(k, rng), random.Random(0))
                           for _ in range(10)]
                assert all(w > 0 for w in weights), (i, weights)
                checked += 1
                break
            action = bots[seat % 2].choose(view)
            swapped = swapped or str(action).startswith("farmer swap")
            state = state.apply(action, seat)
        if checked >= 2:
            break
    assert checked >= 1
