"""The engine's fast paths (issue 22): shared state stays unchanged, lists handed out are
fresh, and the shortcut checks refuse exactly what the full checks refuse."""

from __future__ import annotations

import random

import pytest

import euchre
from euchre import actions as A
from euchre.actions import Action

HANDS = [["AD", "9C", "TC", "9S", "TS"], ["JD", "QD", "9H", "AC", "KC"],
         ["KD", "TD", "AH", "QC", "JC"], ["9D", "AS", "KS", "QS", "JS"]]
KITTY = ["KH", "JH", "QH", "TH"]


def test_branching_from_one_state_leaves_it_and_its_siblings_unchanged() -> None:
    """States share what the bidding settled; a branch that changes it copies it first."""
    rules = euchre.Rules(stick_the_dealer=True, defend_alone=True)
    start = euchre.deal(rules, 3, HANDS, KITTY)
    alone = start.apply("order alone")
    partner = start.apply("order")
    passed = start.apply("pass")
    assert (start.maker, start.alone, start.trump, start.out) == (-1, False, -1, 0)
    assert (alone.maker, alone.alone, alone.out) == (0, True, 0b0100)
    assert (partner.maker, partner.alone, partner.out) == (0, False, 0)
    assert passed.maker == -1 and passed.to_act == 1
    a = partner.apply("discard 9D")
    b = partner.apply("discard JS")
    assert a.discard == euchre.parse_card("9D") and b.discard == euchre.parse_card("JS")
    assert partner.discard == -1 and partner.kitty_down == start.kitty_down
    defended = a.apply("defend alone")
    assert defended.lone_defender == 1 and a.lone_defender == -1 and a.out == 0
    # play a random hand to the end from one state twice: the results do not leak
    rng = random.Random(4)
    ends = []
    for _ in range(2):
        state = a
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[rng.randrange(len(legal))])
        ends.append(state)
    assert a.points == (0, 0) and not a.is_over and a.tricks == []
    assert all(e.is_over and sum(e.points) > 0 for e in ends)


def test_legal_lists_are_fresh() -> None:
    """Changing a returned legal list changes nothing the engine holds."""
    state = euchre.deal(euchre.Rules(), 3, HANDS, KITTY).apply("order")
    first = state.legal_actions()
    first.clear()
    assert len(state.legal_actions()) == 6
    play = state.apply("discard 9D")
    legal = play.legal_actions()
    legal.append(A.PASS)
    assert A.PASS not in play.legal_actions()


@pytest.mark.parametrize("action", [
    Action(A.PLAY, card=99), Action(A.PLAY, card=-1), Action(A.PLAY, card=24),
    A.PLAYS[euchre.parse_card("JD")],
])
def test_play_shortcut_refuses_what_is_not_held(action: Action) -> None:
    """A card not held, or not a card at all, is refused with a reason and changes nothing."""
    state = euchre.deal(euchre.Rules(), 3, HANDS, KITTY).apply("order").apply("discard 9D")
    before = state.legal_actions()
    with pytest.raises(euchre.IllegalActionError):
        state.apply(action)
    assert state.legal_actions() == before and state.to_act == 0


def test_discard_and_order_shortcuts_refuse_like_the_full_check() -> None:
    """The order and discard phases check without the legal list and say the same."""
    rules = euchre.Rules()
    state = euchre.deal(rules, 3, HANDS, KITTY)
    with pytest.raises(euchre.IllegalActionError, match="order up the upcard or pass"):
        state.apply("call S")
    dealer = state.apply("order")
    with pytest.raises(euchre.IllegalActionError, match="you do not hold the Ace of Diamonds"):
        dealer.apply("discard AD")
    with pytest.raises(euchre.IllegalActionError, match="discard a card"):
        dealer.apply("play 9D")
    canadian = euchre.deal(euchre.Rules(canadian_loner=True), 2, HANDS, KITTY)
    canadian = canadian.apply("pass")  # seat 3; seat 0, the dealer's partner, is next
    assert canadian.to_act == 0
    with pytest.raises(euchre.IllegalActionError, match="Canadian loner"):
        canadian.apply("order")


def test_a_view_given_the_legal_actions_is_the_view_worked_out_alone() -> None:
    """A computer's turn hands ``make_view`` the legal actions it asked for already: every
    seat's view is the same as one that works them out itself, at every step of hands."""
    from euchre.hand import make_view

    rng = random.Random(7)
    for rules in (euchre.Rules(), euchre.Rules(farmers_hand="nines-and-tens", defend_alone=True)):
        for dealer in range(4):
            state = euchre.deal(rules, dealer, HANDS, KITTY)
            while not state.is_over:
                legal = state.legal_actions()
                for seat in range(4):
                    assert make_view(state, seat, legal) == make_view(state, seat)
                state = state.apply(rng.choice(legal))
