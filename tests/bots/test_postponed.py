"""Postponed solving: the other seats' next cards are the model's choices from what they see.

Checked on hands played by medium players (classic rules, a few with a lone maker): each
postponed card is the one the learned model finds most likely from that seat's own view
of the real game at that moment; a seat's choice depends on its own cards in the sampled
deal only, never on where the other hidden cards are; the position handed to the solver
is the one the real game reaches after those cards; and the option is off by default.
"""

from __future__ import annotations

import dataclasses
import random

from euchre import actions as A
from euchre.bots import make
from euchre.bots.action_model import _play_features_all, load_model
from euchre.bots.expert import EXPERT_BUDGET
from euchre.bots.hard import Budget, HardBot, evaluate_plays
from euchre.bots.knowledge import mask
from euchre.bots.postponed import Postponer
from euchre.bots.sampling import knowledge, sample_hands
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.shuffle import deal_from_deck, shuffled_deck
from euchre.view import HandView

RULES = Rules.preset("classic")


def _states(i: int) -> list[HandState]:
    """Every card-play state of deal ``i`` played by medium players."""
    rng = random.Random(f"postponed:{i}")
    dealer = i % 4
    state = HandState(RULES, dealer, deal_from_deck(shuffled_deck(False, rng), dealer, "3-2"))
    bots = [make("medium", seed=1), make("medium", seed=2)]
    out = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        if view.phase == "play":
            out.append(state)
        state = state.apply(bots[seat % 2].choose(view), seat)
    return out


def _true_hands(state: HandState) -> tuple[int, int, int, int]:
    h = [mask(state.view(s).hand) for s in range(4)]
    return (h[0], h[1], h[2], h[3])


def _models_card(view: HandView) -> int:
    """The model's most likely card in ``view`` (the first in legal order among equals).

    The seat's own discard is left out, as the postponed seat's is: in a sampled deal it
    is one of the face-down cards, not known to the deciding seat.
    """
    probs = load_model().probabilities(dataclasses.replace(view, discard=None, farmer_gave=()))
    best = max(probs.values())
    return next(a.card for a, p in probs.items() if p == best)


def test_postponed_cards_are_the_models_choices_from_each_seats_view() -> None:
    checked = 0
    for i in range(30):
        for state in _states(i):
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            post = Postponer(view, 3)
            if not post.active:
                assert len(view.trick) == len(post.order) - 1
                continue
            for action in view.legal:
                line = post.line(_true_hands(state), action.card)
                real = state.apply(action, seat)
                assert [s for s, _ in line.played] == post.after
                for s, card in line.played:
                    assert real.to_act == s
                    sv = real.view(s)
                    if len(sv.legal) > 1:
                        assert card == _models_card(sv)
                        checked += 1
                    real = real.apply(A.PLAYS[card], s)
                # the solver starts where the real game now stands
                assert line.hands == _true_hands(real)
                if line.actor < 0:
                    assert real.is_over
                    assert line.maker_tricks == real.view(0).tricks_won[view.maker % 2]
                    continue
                rv = real.view(line.actor)
                assert real.to_act == line.actor
                assert (rv.leader, rv.trick) == (line.leader, line.trick)
                assert rv.tricks_won[view.maker % 2] == line.maker_tricks
    assert checked > 300


def test_a_seats_choice_reads_only_its_own_cards_of_the_sampled_deal() -> None:
    compared = 0
    for i in range(12):
        for state in _states(i):
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            post = Postponer(view, 3)
            if not post.active:
                continue
            first = post.after[0]
            k = knowledge(view)
            rng = random.Random(i)
            seen: dict[tuple[int, int], int] = {}
            for _ in range(40):
                hands = sample_hands(k, rng)
                for action in view.legal:
                    card = post.line(hands, action.card).played[0][1]
                    key = (action.card, hands[first])
                    # deals that differ only in cards hidden from that seat: the same card
                    if key in seen:
                        assert seen[key] == card
                        compared += 1
                    seen[key] = card
                    # and a fresh reader, for a view of another deal, agrees
                    assert Postponer(view, 1).choose(first, (*view.trick, action.card),
                                                     hands[first]) == card
    assert compared > 200


def test_fewer_plies_postpone_fewer_cards_and_the_last_seat_has_none() -> None:
    for i in range(4):
        for state in _states(i):
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            after = len(Postponer(view, 3).after)
            assert after == len(Postponer(view, 3).order) - len(view.trick) - 1
            for plies in (1, 2):
                post = Postponer(view, plies)
                assert len(post.after) == min(plies, after)
                line = post.line(_true_hands(state), view.legal[0].card)
                assert len(line.played) == min(plies, after)
                if 0 < plies < after:
                    assert line.trick[-plies:] == tuple(c for _, c in line.played)


def test_postponed_solving_is_off_by_default_and_plays_when_on() -> None:
    assert Budget().postpone == 0 and EXPERT_BUDGET.postpone == 0
    assert HardBot(seed=1).budget.postpone == 0 and make("expert", seed=1).budget.postpone == 0
    budget = dataclasses.replace(EXPERT_BUDGET, postpone=3, samples=60, paired=False)
    off = dataclasses.replace(budget, postpone=0)
    played = changed = 0
    for i in range(8):
        for state in _states(i):
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            if len(view.legal) < 2:
                continue
            plays = evaluate_plays(view, random.Random(2), budget)
            assert {e.card for e in plays} == {a.card for a in view.legal}
            assert plays == evaluate_plays(view, random.Random(2), budget)
            plain = evaluate_plays(view, random.Random(2), off)
            if not Postponer(view, 3).active:
                assert plays == plain  # last to play: nothing to postpone
            else:
                changed += plays != plain
            played += 1
    assert played >= 40 and changed > 0


def test_remembered_scores_choose_as_the_full_features_would() -> None:
    model = load_model()
    compared = 0
    for i in range(10):
        for state in _states(i):
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            post = Postponer(view, 3)
            if not post.active:
                continue
            rng = random.Random(i)
            k = knowledge(view)
            for _ in range(30):
                hands = sample_hands(k, rng)
                for action in view.legal:
                    line = post.line(hands, action.card)
                    held = list(hands)
                    held[seat] &= ~(1 << action.card)
                    trick = (*view.trick, action.card)
                    for s, card in line.played:
                        pub = post.public(s, trick)
                        legal = [a for a in range(25) if held[s] >> a & 1]
                        follow = [c for c in legal if _follows(view, trick, c)]
                        cards = follow or legal
                        feats = _play_features_all(pub, held[s], cards)
                        scores = [sum(model.weights.get(f, 0.0) for f in fs) for fs in feats]
                        best = max(range(len(cards)), key=lambda j: (scores[j], -j))
                        assert card == cards[best]
                        compared += len(cards) > 1
                        held[s] &= ~(1 << card)
                        trick = (*trick, card)
    assert compared > 2000


def _follows(view: HandView, trick: tuple[int, ...], card: int) -> bool:
    from euchre.lookup import EFFECTIVE_SUIT

    table = EFFECTIVE_SUIT[view.trump]
    return table[card] == table[trick[0]]
