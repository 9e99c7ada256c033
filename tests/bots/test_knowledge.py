"""Reading a view: voids, throw-offs, the trick's winner, unseen cards, bosses; medium's counts."""

from __future__ import annotations

import euchre
from euchre import Rules
from euchre.bots import knowledge as K
from euchre.bots.medium import discard_for, hand_value, lone_losers
from euchre.cards import cards_of, parse_card, parse_cards

HANDS = [
    ["9H", "TH", "AC", "QC", "KS"],  # seat 0 (dealer)
    ["AH", "KD", "QD", "9S", "TS"],  # seat 1
    ["KC", "TC", "9D", "TD", "AD"],  # seat 2
    ["JH", "JD", "AS", "QS", "JS"],  # seat 3
]
KITTY = ["QH", "9C", "JC", "KH"]  # upcard QH


def played_position() -> euchre.HandState:
    """Hearts trump ordered by seat 3; seat 1 leads the AH, seat 2 shows out of hearts."""
    state = euchre.deal(Rules(), 0, HANDS, KITTY)
    state = state.apply("pass").apply("pass").apply("order").apply("discard AC")
    return state.apply("play AH").apply("play 9D")


def test_voids_and_first_throw_off() -> None:
    view = played_position().view(3)
    assert K.voids(view)[2] == 1 << 2  # seat 2 is out of hearts (trump)
    assert K.voids(view)[1] == 0
    assert K.first_discards(view) == {2: parse_card("9D")}


def test_who_is_winning_and_what_beats_it() -> None:
    view = played_position().view(3)
    assert K.winning(view) == (1, parse_card("AH"))
    assert K.beats(parse_card("JH"), parse_card("AH"), view)
    assert not K.beats(parse_card("AS"), parse_card("AH"), view)
    assert K.trick_seats(view) == [1, 2, 3, 0]
    assert K.seats_after(view) == [0]
    assert K.led_suit(view) == 2


def test_unseen_cards_and_bosses() -> None:
    view = played_position().view(3)
    unseen = K.unseen_mask(view)
    assert not unseen & K.hand_mask(view)
    assert not unseen >> parse_card("AH") & 1  # played
    assert unseen >> parse_card("QH") & 1  # the upcard went to the dealer: unseen to seat 3
    assert K.dealer_may_hold_upcard(view)
    assert K.is_boss(parse_card("JH"), view)  # the right bower
    assert K.is_boss(parse_card("JD"), view)  # the left: the right is in our own hand
    assert K.is_boss(parse_card("AS"), view)  # the highest spade left
    assert K.trumps_out(view) == 4  # 9H TH QH KH
    dealer = played_position().view(0)
    assert not K.unseen_mask(dealer) >> parse_card("AC") & 1  # the dealer saw the discard


def test_counts_and_ranks() -> None:
    hand = parse_cards("JH JD AH 9C AS")
    assert K.trump_count(hand, 2) == 3
    assert K.has_bower(hand, 2) and not K.has_bower(parse_cards("AH KH"), 2)
    assert K.highest(hand, 2) == parse_card("JH")
    assert K.lowest(hand, 2) == parse_card("9C")
    assert K.count(K.trumps(K.mask(hand), 2)) == 3
    assert cards_of(K.suit_cards(K.mask(hand), 1, 2)) == []


def test_points_needed_is_from_the_seats_side() -> None:
    state = euchre.deal(Rules(), 0, HANDS, KITTY, score=(8, 3))
    assert K.points_needed(state.view(0)) == (2, 7)
    assert K.points_needed(state.view(1)) == (7, 2)


def test_hand_value_grows_with_trumps_and_aces() -> None:
    weak = hand_value(parse_cards("9H TC QC KS 9D"), 2)
    fair = hand_value(parse_cards("JH AH 9H AC 9D"), 2)
    strong = hand_value(parse_cards("JH JD AH KH AC"), 2)
    assert weak < fair < strong


def test_lone_losers_zero_for_the_top_five_trumps() -> None:
    assert lone_losers(parse_cards("JH JD AH KH QH"), 2) == 0
    assert lone_losers(parse_cards("JH JD AH AC AS"), 2) < 0.5
    assert lone_losers(parse_cards("9H TH QC KC 9S"), 2) > 2


def test_discard_keeps_aces_and_makes_voids() -> None:
    assert discard_for(parse_cards("JS KS TD AC 9C AS"), 3) == parse_card("TD")
    assert discard_for(parse_cards("JS KS QS AC AD AS"), 3) == parse_card("QS")
    assert discard_for(parse_cards("JS KS QS TS 9S AS"), 3) == parse_card("9S")
