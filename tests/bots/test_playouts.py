"""Close bids judged by play-outs with imperfect information (``bots/playouts.py``)."""

from __future__ import annotations

import dataclasses
import random

import euchre
from euchre import actions as A
from euchre.bots import make
from euchre.bots.base import decision_rng
from euchre.bots.hard import Budget, HardBot, judge_close_bids, ranked_bids
from euchre.bots.playouts import bid_playouts, replay
from euchre.bots.sampling import knowledge
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.view import HandView


def bidding_states(seed: int, count: int) -> list[HandState]:
    """States with a bid to make (a real choice), from hands bid by four medium players."""
    rng = random.Random(seed)
    bot = make("medium", seed=seed)
    out = []
    for i in range(count):
        deck = list(range(24))
        rng.shuffle(deck)
        state = euchre.deal(Rules(), i % 4, [deck[j * 5 : j * 5 + 5] for j in range(4)],
                            deck[20:])
        while not state.is_over and state.phase_name in ("order", "call"):
            seat = state.to_act
            assert seat is not None
            if len(state.legal_actions()) > 1:
                out.append(state)
            state = state.apply(bot.choose(state.view(seat)), seat)
    return out


def _table_bid(view: HandView) -> A.Action:
    return ranked_bids(view)[0].action


def test_replaying_the_real_deal_gives_the_real_position() -> None:
    for state in bidding_states(3, 8):
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        hands = tuple(state.hand_mask(s) for s in range(4))
        again = replay(view, hands, knowledge(view).pool)
        assert again is not None
        assert again.to_act == seat
        assert again.history() == state.history()
        assert again.view(seat) == view
        assert [again.hand_mask(s) for s in range(4)] == list(hands)


def test_a_history_with_hidden_moves_is_not_played_out() -> None:
    state = bidding_states(4, 1)[0]
    view = state.view(state.to_act)  # type: ignore[arg-type]
    hidden = dataclasses.replace(view, history=((view.dealer, None), *view.history))
    assert bid_playouts(hidden, [A.PASS, view.legal[0]], random.Random(1), 10,
                        _table_bid) is None


def test_play_outs_repeat_with_the_same_generator_and_value_each_alternative() -> None:
    state = bidding_states(5, 2)[0]
    view = state.view(state.to_act)  # type: ignore[arg-type]
    calls = [a for a in view.legal if a != A.PASS][:1]
    alternatives = [A.PASS, *calls]
    a = bid_playouts(view, alternatives, random.Random(9), 30, _table_bid)
    b = bid_playouts(view, alternatives, random.Random(9), 30, _table_bid)
    assert a is not None and a == b
    assert set(a.worth) == set(alternatives)
    assert 0 < a.deals <= 30
    assert all(-10.0 < w < 10.0 for w in a.worth.values())


def test_a_lay_down_is_worth_more_played_out_than_a_pass() -> None:
    # first to bid with both bowers, the ace and king of the upcard's suit and an off ace
    hands = [["KC", "AD", "9S", "TS", "QS"], ["JH", "JD", "AH", "KH", "AS"],
             ["9C", "TC", "QC", "KS", "9D"], ["TD", "QD", "KD", "AC", "JS"]]
    state = euchre.deal(Rules(), 0, hands, ["QH", "9H", "TH", "JC"])
    view = state.view(1)
    found = bid_playouts(view, [A.PASS, A.ORDER_UP], random.Random(2), 40, _table_bid)
    assert found is not None
    assert found.worth[A.ORDER_UP] > max(1.5, found.worth[A.PASS])


def test_only_a_close_rival_is_played_out_and_the_ranking_keeps_every_bid() -> None:
    wide = Budget(bid_playouts=40, playout_margin=10.0)
    none = Budget(bid_playouts=40, playout_margin=-1.0)
    moved = 0
    for state in bidding_states(6, 10)[:16]:
        view = state.view(state.to_act)  # type: ignore[arg-type]
        ranked = ranked_bids(view)
        assert judge_close_bids(view, ranked, random.Random(1), none) == ranked
        judged = judge_close_bids(view, ranked, random.Random(1), wide)
        assert sorted(map(str, (e.action for e in judged))) == sorted(
            map(str, (e.action for e in ranked)))
        if judged != ranked:
            moved += 1
            assert judged[1:] == [e for e in ranked if e is not judged[0]]
            assert judged[0].action.kind != ranked[0].action.kind or (
                judged[0].action.suit != ranked[0].action.suit)
    assert moved > 0


def test_the_same_view_and_seed_give_the_same_bid() -> None:
    budget = Budget(bid_playouts=40, playout_margin=10.0)
    for state in bidding_states(7, 6)[:8]:
        view = state.view(state.to_act)  # type: ignore[arg-type]
        picks = set()
        for _ in range(2):
            bot = HardBot(seed=3)
            bot.budget = budget
            picks.add(bot.choose(view))
        assert len(picks) == 1
        assert judge_close_bids(view, ranked_bids(view), decision_rng(3, view), budget) == \
            judge_close_bids(view, ranked_bids(view), decision_rng(3, view), budget)


def test_the_tables_stand_unless_the_play_outs_clear_the_standard_errors() -> None:
    sure = Budget(bid_playouts=40, playout_margin=10.0, playout_z=1e9)
    for state in bidding_states(6, 10)[:16]:
        view = state.view(state.to_act)  # type: ignore[arg-type]
        ranked = ranked_bids(view)
        assert judge_close_bids(view, ranked, random.Random(1), sure) == ranked
