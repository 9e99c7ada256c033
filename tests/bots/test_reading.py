"""Reading the play by the conventions, and bids valued on sampled deals."""

from __future__ import annotations

import dataclasses
import random

import euchre
from euchre.bots import make
from euchre.bots.bidding import sampled_bid_estimates
from euchre.bots.expert import EXPERT_BUDGET, ExpertBot
from euchre.bots.hard import HardBot
from euchre.bots.policy import bid_estimates
from euchre.bots.reading import MISS, PlayReader, past_plays
from euchre.bots.sampling import knowledge, sample_hands
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.view import HandView


def medium_hands(seed: int, count: int) -> list[HandState]:
    """Hands dealt from ``seed`` and played to the end by four medium players, kept whole."""
    rng = random.Random(seed)
    rules = Rules()
    bot = make("medium", seed=seed)
    out = []
    for i in range(count):
        deck = list(range(24))
        rng.shuffle(deck)
        hands = [deck[j * 5 : j * 5 + 5] for j in range(4)]
        state = euchre.deal(rules, i % 4, hands, deck[20:])
        states = [state]
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            state = state.apply(bot.choose(state.view(seat)), seat)
            states.append(state)
        out.extend(states)
    return out


def late_views(seed: int) -> list[tuple[HandState, HandView]]:
    """Card-play views at the fourth trick or later, with the state they come from."""
    out = []
    for state in medium_hands(seed, 30):
        if state.is_over or state.to_act is None:
            continue
        view = state.view(state.to_act)
        if view.phase == "play" and len(view.tricks) >= 3:
            out.append((state, view))
    return out


def true_hands(state: HandState) -> tuple[int, int, int, int]:
    """The four hands as they are now, as masks."""
    return (state.hand_mask(0), state.hand_mask(1), state.hand_mask(2), state.hand_mask(3))


def test_past_plays_are_the_other_seats_cards_with_what_they_kept() -> None:
    _state, view = late_views(3)[0]
    plays = past_plays(view)
    played = [c for _, cards, _ in view.tricks for c in cards] + list(view.trick)
    mine = {p.card for p in plays}
    assert mine < set(played)
    assert len(plays) == len(played) - sum(1 for _ in _own_plays(view))
    for p in plays:
        assert p.seat != view.seat
        assert p.later >> p.card & 1


def _own_plays(view: HandView) -> list[int]:
    from euchre.bots.sampling import played_by_seat

    mask = played_by_seat(view)[view.seat]
    return [c for c in range(25) if mask >> c & 1]


def test_the_real_deal_of_medium_players_fits_their_play_perfectly() -> None:
    # every other seat is the conventions player, so its real cards explain every play
    views = late_views(5)
    assert len(views) >= 10
    for state, view in views:
        assert PlayReader(view).weight(true_hands(state)) == 1.0


def test_deals_the_play_does_not_explain_weigh_less() -> None:
    lighter = 0
    for _state, view in late_views(7)[:15]:
        reader = PlayReader(view)
        k = knowledge(view)
        rng = random.Random(1)
        for _ in range(30):
            w = reader.weight(sample_hands(k, rng))
            # a product of MISS factors, one per play the conventions would not make
            assert w in {MISS**i for i in range(16)}
            lighter += w < 1.0
    assert lighter > 0


def bid_views(seed: int) -> list[HandView]:
    """Bidding views with a choice from hands of medium players."""
    return [
        s.view(s.to_act)
        for s in medium_hands(seed, 12)
        if not s.is_over and s.to_act is not None
        and s.view(s.to_act).phase in ("order", "call") and len(s.view(s.to_act).legal) > 1
    ]


def test_sampled_bids_judge_only_the_loners() -> None:
    for view in bid_views(11)[:12]:
        table = {e.action: e.utility for e in bid_estimates(view)}
        sampled = sampled_bid_estimates(view, random.Random(2), samples=40)
        assert {e.action for e in sampled} == set(table)
        assert [e.utility for e in sampled] == sorted((e.utility for e in sampled),
                                                       reverse=True)
        for e in sampled:
            if not e.action.alone or table[e.action] < -50.0:
                assert e.utility == table[e.action]


def test_sampled_bids_repeat_with_the_same_generator() -> None:
    view = bid_views(13)[0]
    a = sampled_bid_estimates(view, random.Random(5), samples=40)
    b = sampled_bid_estimates(view, random.Random(5), samples=40)
    assert a == b


def test_expert_keeps_its_whole_budget() -> None:
    # the paired stopping, the reading of the play and the loner sampling survive a
    # changed number of deals (HardBot once rebuilt the budget from three fields)
    bot = ExpertBot(seed=1, samples=100)
    assert bot.budget == dataclasses.replace(EXPERT_BUDGET, samples=100)
    assert bot.budget.paired and bot.budget.read_play and bot.budget.bid_samples > 0
    assert HardBot(seed=1).budget == HardBot.default_budget
