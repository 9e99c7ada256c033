"""Golden tests for seeds/000 ("How to play Euchre", rules 1-8).

Rule 9 (the move clock) belongs to the table, not the rules engine.
"""

from __future__ import annotations

import random

from engine_helpers import act, deal, first_ending, legal, play_random, play_random_game

import euchre
from euchre.cards import DECK, card_rank
from euchre.shuffle import deal_from_deck, shuffled_deck

CLASSIC = euchre.Rules()

# Dealer East (3); with hearts trump West (1) holds the left bower and one other diamond.
LEFT_BOWER = "AD 9C TC 9S TS | JD QD 9H AC KC | KD TD AH QC JC | 9D AS KS QS JS"
LEFT_BOWER_KITTY = "KH JH QH TH"
# Dealer South (0); West (1) holds the five best hearts.
TOP_HEARTS = "AC KC QC JC TC | JH JD AH KH QH | AD KD QD TD 9D | AS KS QS JS TS"
TOP_HEARTS_KITTY = "9H 9C TH 9S"


def test_rule_000_1_twenty_four_cards_five_each_one_turned_up() -> None:
    """Rule 1: 24 cards, nine through ace; five cards each and one card turned face up."""
    assert len(DECK) == 24
    assert sorted(card_rank(c) for c in DECK) == sorted(list(range(6)) * 4)
    d = deal_from_deck(shuffled_deck(False, random.Random(1)), dealer=2)
    assert [len(h) for h in d.hands] == [5, 5, 5, 5]
    state = euchre.HandState(CLASSIC, 2, d)
    assert state.upcard == d.kitty[0]
    assert state.view(0).upcard == d.kitty[0]


def test_rule_000_2_right_bower_highest_left_bower_second_and_trump() -> None:
    """Rule 2: the jack of trump is highest, the other jack of its colour second, and a trump."""
    hearts = euchre.parse_suit("H")
    jh, jd, ah = (euchre.parse_card(c) for c in ("JH", "JD", "AH"))
    led = euchre.parse_suit("D")
    assert euchre.trick_rank(jh, hearts, led) > euchre.trick_rank(jd, hearts, led)
    assert euchre.trick_rank(jd, hearts, led) > euchre.trick_rank(ah, hearts, led)
    assert euchre.effective_suit(jd, hearts) == hearts


def test_rule_000_3_order_or_pass_then_name_another_suit_then_redeal() -> None:
    """Rule 3: order up or pass; then name any other suit or pass; all pass again: redeal."""
    state = deal(CLASSIC, 0, TOP_HEARTS, TOP_HEARTS_KITTY)
    assert state.to_act == 1
    assert legal(state) == ["pass", "order", "order alone"]
    state = act(state, "pass", "pass", "pass", "pass")
    assert state.phase_name == "call" and state.to_act == 1
    assert "call H" not in legal(state) and {"pass", "call C", "call D", "call S"} <= set(
        legal(state)
    )
    state = act(state, "pass", "pass", "pass")
    assert "pass" in legal(state), "the dealer is never forced to call"
    state = state.apply("pass")
    assert state.is_over and state.thrown_in and state.points == (0, 0)


def test_rule_000_4_dealer_picks_up_the_ordered_upcard_and_discards() -> None:
    """Rule 4: when the upcard is ordered up, the dealer picks it up and discards one card."""
    state = act(deal(CLASSIC, 0, TOP_HEARTS, TOP_HEARTS_KITTY), "order")
    assert state.phase_name == "discard" and state.to_act == 0
    assert euchre.parse_card("9H") in state.hand(0) and len(state.hand(0)) == 6
    state = state.apply("discard TC")
    assert len(state.hand(0)) == 5 and state.discard == euchre.parse_card("TC")
    assert state.phase_name == "play"


def test_rule_000_5_maker_may_go_alone_partner_sits_out_three_card_tricks() -> None:
    """Rule 5: whoever names trump may go alone; the partner sits out, tricks have three cards."""
    state = act(deal(CLASSIC, 0, TOP_HEARTS, TOP_HEARTS_KITTY), "order alone", "discard TC")
    assert state.alone and state.sits_out(3) and not state.sits_out(0)
    state = act(state, "play JH", "play AD")
    assert state.to_act == 0 and len(state.tricks) == 0, "East sits out: South plays next"
    state = state.apply("play 9H")
    assert len(state.tricks) == 1 and len(state.tricks[0][1]) == 3


def test_rule_000_6_left_of_dealer_leads_follow_suit_highest_trump_wins() -> None:
    """Rule 6: left of the dealer leads; follow suit (bowers are trump); highest trump wins."""
    state = act(deal(CLASSIC, 0, TOP_HEARTS, TOP_HEARTS_KITTY), "order", "discard TC")
    assert state.to_act == 1
    state = state.apply("play QH")
    assert len(legal(state)) == 5, "North has no trump: any card"
    state = act(state, "play AD", "play AS")
    assert legal(state) == ["play 9H"], "South must follow trump with the picked-up nine"
    state = state.apply("play 9H")
    assert state.tricks[0][2] == 1, "the queen of trump beats the off-suit aces"
    state = act(state, "play KH", "play KD", "play KS", "play AC")
    assert state.tricks[1][2] == 1


def test_rule_000_6_highest_card_of_led_suit_wins_without_trump() -> None:
    """Rule 6: with no trump in the trick, the highest card of the suit led wins."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order", "discard 9D")
    state = act(state, "play AD", "play QD", "play KD", "play AS")
    assert state.tricks[0][2] == 0, "the ace led beats the king of diamonds and an off-suit ace"


def test_rule_000_7_scoring_one_two_four_and_euchre_two() -> None:
    """Rule 7: makers 3-4 tricks score 1, all 5 score 2 (4 alone); fewer than 3: others 2."""
    alone = act(deal(CLASSIC, 0, TOP_HEARTS, TOP_HEARTS_KITTY), "order alone", "discard TC")
    assert first_ending(alone, lambda s: True).points == (0, 4)
    seen: dict[tuple[int, bool], tuple[int, int]] = {}
    rng = random.Random(7)
    for i in range(3000):
        d = deal_from_deck(shuffled_deck(False, rng), i % 4)
        end = play_random(euchre.HandState(CLASSIC, i % 4, d), rng)
        if end.thrown_in:
            continue
        side = end.maker % 2
        taken = end.tricks_won[side]
        table = {0: 2, 1: 2, 2: 2, 3: 1, 4: 1, 5: 4 if end.alone else 2}
        want = table[taken]
        scorer = side if taken >= 3 else 1 - side
        assert end.points[scorer] == want and end.points[1 - scorer] == 0
        seen[(taken, end.alone)] = end.points
    assert {(3, False), (4, False), (5, False), (5, True), (0, False), (2, True)} <= set(seen)


def test_rule_000_8_first_team_to_ten_wins() -> None:
    """Rule 8: the first side to reach 10 points wins the game."""
    rng = random.Random(8)
    game = play_random_game(CLASSIC, 0, rng)
    assert game.winner is not None
    assert game.score[game.winner] >= 10 > game.score[1 - game.winner]
    before = game.all_hands()[-1].score
    assert max(before) < 10, "the game ends as soon as a side reaches 10"
