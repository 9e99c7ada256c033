"""Sure makes and sure lone marches: checked against the open-hand solver on random deals."""

from __future__ import annotations

import random

from euchre.bots import solver
from euchre.bots.clear_cut import is_sure_make, is_sure_march, top_run, trump_order
from euchre.cards import JOKER, mask_of, parse_cards

HEARTS = 2


def hand(text: str) -> int:
    """A hand as a card mask."""
    return mask_of(parse_cards(text))


def test_the_trumps_from_the_top() -> None:
    assert trump_order(HEARTS, benny=False) == parse_cards("JH JD AH KH QH TH 9H")
    assert trump_order(HEARTS, benny=True)[0] == JOKER


def test_the_run_of_top_trumps() -> None:
    assert top_run(hand("JH JD AH 9S TC"), HEARTS, False) == 3
    assert top_run(hand("JD AH KH QH TH"), HEARTS, False) == 0  # no right bower
    assert top_run(hand("JH JD AH 9S TC"), HEARTS, True) == 0  # the joker is above


def test_which_hands_are_sure() -> None:
    assert is_sure_make(hand("JH JD AH 9S TC"), HEARTS, False)
    assert not is_sure_march(hand("JH JD AH 9S TC"), HEARTS, False, True)
    assert is_sure_march(hand("JH JD AH KH AS"), HEARTS, False, True)
    assert not is_sure_march(hand("JH JD AH KH AS"), HEARTS, False, False)  # AS can be trumped
    assert is_sure_march(hand("JH JD AH KH QH"), HEARTS, False, False)
    assert not is_sure_march(hand("JH JD AH KH KS"), HEARTS, False, True)  # a king may lose
    assert not is_sure_march(hand("JH JD AH AC AS"), HEARTS, False, True)  # four trumps out
    assert not is_sure_make(hand("JH AH KH QH TH"), HEARTS, False)  # the left may take one


SURE = [
    # (hand, tricks it is sure of, who may lead: 0 is the hand's seat)
    ("JH JD AH 9S TC", 3, (0, 1, 3)),
    ("JH JD AH AC 9D", 3, (0, 1, 3)),
    ("JH JD AH KH AS", 5, (0,)),
    ("JH JD AH KH QH", 5, (0, 1, 3)),
]


def test_sure_hands_are_sure_against_every_sampled_deal() -> None:
    # the claim: however the others' cards lie, open-handed best play by the defenders
    # still loses 3 tricks to a sure make and 5 to a sure lone march
    rng = random.Random(3)
    checked = 0
    for text, need, leaders in SURE:
        mine = hand(text)
        rest = [c for c in range(24) if not mine >> c & 1]
        for _ in range(40):
            rng.shuffle(rest)
            hands = [mine, mask_of(rest[0:5]), mask_of(rest[5:10]), mask_of(rest[10:15])]
            out = 0b0100 if need == 5 else 0  # alone: the partner (seat 2) sits out
            pay = [1 if t >= need else 0 for t in range(6)]
            for leader in leaders:
                value = solver.solve_value(hands, HEARTS, leader, [], out, 0, 0, pay)
                assert value == 1, (text, leader, hands)
                checked += 1
    assert checked == 40 * 10


def test_an_ace_beside_the_run_can_be_trumped_when_a_defender_leads() -> None:
    # why a lay-down with an off ace is a sure lone march only on lead
    hands = [hand("JH JD AH KH AS"), hand("AC AD 9H JS QS"), hand("9C JC QC KC TH"),
             hand("TC TD QD KD QH")]
    assert solver.solve_value(hands, HEARTS, 1, [], 0b0100, 0, 0, [0, 0, 0, 0, 0, 1]) == 0
    assert solver.solve_value(hands, HEARTS, 0, [], 0b0100, 0, 0, [0, 0, 0, 0, 0, 1]) == 1
