"""Golden tests for seeds/002 ("Official Euchre Rules", sections 2-8).

Section 9 (table laws) is in test_table_laws.py, section 10 (house rules) in
test_house_rules.py.
"""

from __future__ import annotations

import random

import pytest
from engine_helpers import act, deal, legal, play_random_game

import euchre
from euchre.cards import (
    DECK,
    card_rank,
    card_suit,
    effective_suit,
    left_bower,
    parse_card,
    parse_cards,
    parse_suit,
    right_bower,
    trick_rank,
)
from euchre.game import GameState
from euchre.shuffle import (
    commitment,
    deal_from_deck,
    deck_from_seed,
    deck_of_deal,
    draw_first_dealer,
    high_card_dealer,
    new_seed,
    shuffled_deck,
)

CLASSIC = euchre.Rules()
STICK = euchre.Rules.preset("stick-the-dealer")

# Dealer East (3); hearts upcard. West (1) holds the left bower (JD) and the queen of diamonds.
LEFT_BOWER = "AD 9C TC 9S TS | JD QD 9H AC KC | KD TD AH QC JC | 9D AS KS QS JS"
LEFT_BOWER_KITTY = "KH JH QH TH"
# Same dealer; South leads the ace of hearts and West's only trump is the left bower.
ONLY_LEFT = "AH 9C TC 9S TS | JD QD AD AC KC | KD TD 9H QC JC | 9D AS KS QS JS"


def ranked(trump: str, cards: str, led: str) -> list[str]:
    """Cards sorted strongest first in a trick led in ``led``."""
    t, s = parse_suit(trump), parse_suit(led)
    return [euchre.card_text(c) for c in
            sorted(parse_cards(cards), key=lambda c: -trick_rank(c, t, s))]


def test_rule_002_2_four_players_partners_opposite_24_cards() -> None:
    """Section 2: four players, partners opposite (0 & 2, 1 & 3); A K Q J 10 9 of each suit."""
    assert sorted((card_suit(c), card_rank(c)) for c in DECK) == [
        (s, r) for s in range(4) for r in range(6)
    ]
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "pass", "order", "discard 9D")
    assert state.maker == 1 and state.maker_side == 1 == 3 % 2
    end = act(state, "play AD", "play QD", "play KD", "play AS")
    assert end.tricks_won == (1, 0), "South's trick counts for South and North"


def test_rule_002_3_rank_of_cards_trump_suit_seven_cards() -> None:
    """Section 3: trump runs right bower, left bower, A, K, Q, 10, 9."""
    assert ranked("H", "9H TH QH KH AH JD JH", "H") == ["JH", "JD", "AH", "KH", "QH", "TH", "9H"]
    trumps = [c for c in DECK if effective_suit(c, parse_suit("H")) == parse_suit("H")]
    assert len(trumps) == 7


def test_rule_002_3_rank_of_cards_same_colour_suit_five_cards() -> None:
    """Section 3: the suit of trump's colour has five cards; its jack has become the left bower."""
    hearts, diamonds = parse_suit("H"), parse_suit("D")
    same = [c for c in DECK if effective_suit(c, hearts) == diamonds]
    assert sorted(euchre.card_text(c) for c in same) == ["9D", "AD", "KD", "QD", "TD"]
    assert ranked("H", "9D TD QD KD AD", "D") == ["AD", "KD", "QD", "TD", "9D"]
    assert left_bower(hearts) == parse_card("JD") and right_bower(hearts) == parse_card("JH")


def test_rule_002_3_rank_of_cards_other_suits_six_cards() -> None:
    """Section 3: the other two suits keep six cards, ace high, jack between queen and ten."""
    hearts = parse_suit("H")
    for suit in "CS":
        assert sum(1 for c in DECK if effective_suit(c, hearts) == parse_suit(suit)) == 6
    assert ranked("H", "9C TC JC QC KC AC", "C") == ["AC", "KC", "QC", "JC", "TC", "9C"]


def test_rule_left_bower_follows_trump() -> None:
    """Section 3: the left bower is a trump for every purpose, including following suit."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order", "discard 9D")
    state = state.apply("play AD")
    assert legal(state) == ["play QD"], "the left bower cannot follow diamonds"


def test_rule_002_4_1_first_dealer_first_black_jack_or_high_card() -> None:
    """Section 4.1: deal face up one at a time; the first black jack deals (or cut high)."""
    deck = parse_cards("9H AD JH JS TC")
    dealer, shown = draw_first_dealer(deck, start=1)
    assert dealer == (1 + 3) % 4 and shown[-1] == (0, parse_card("JS"))
    assert high_card_dealer(parse_cards("9H AD KS TC"))[0] == 1


def test_rule_002_4_2_cut_is_skipped_and_the_shuffle_is_verifiable() -> None:
    """Section 4.2: many groups skip the cut; here a committed seed makes the shuffle checkable."""
    seed = new_seed()
    assert commitment(seed) != seed and len(commitment(seed)) == 64
    assert deck_from_seed(seed) == deck_from_seed(seed)
    assert sorted(deck_from_seed(seed)) == list(DECK)
    assert sorted(deck_from_seed(seed, benny=True)) == [*DECK, euchre.JOKER]


@pytest.mark.parametrize("pattern", ["3-2", "2-3"])
def test_rule_002_4_3_deal_three_then_two_clockwise_from_the_left(pattern: str) -> None:
    """Section 4.3: five cards each, clockwise from the dealer's left, in two rounds: three
    then two, or two then three, the same pattern for all players in that deal."""
    deck = list(DECK)
    d = deal_from_deck(deck, dealer=2, pattern=pattern)
    first, second = (3, 2) if pattern == "3-2" else (2, 3)
    order = [3, 0, 1, 2]  # clockwise from the dealer's left
    pos = 0
    want: dict[int, list[int]] = {seat: [] for seat in order}
    for count in (first, second):
        for seat in order:
            want[seat] += deck[pos : pos + count]
            pos += count
    assert {seat: list(d.hands[seat]) for seat in order} == want
    if pattern == "3-2":  # written out once, so a reader can check the rule by eye
        assert d.hands == ((3, 4, 5, 14, 15), (6, 7, 8, 16, 17), (9, 10, 11, 18, 19),
                           (0, 1, 2, 12, 13))
    assert d.kitty == tuple(deck[20:])
    assert deck_of_deal(d, 2) == deck
    with pytest.raises(euchre.DealError):
        euchre.HandState(CLASSIC, 2, euchre.Deal(d.hands, d.kitty, "4-1"))


def test_rule_002_4_4_remaining_four_cards_kitty_top_card_upcard() -> None:
    """Section 4.4: the four undealt cards form the kitty; its top card is the upcard."""
    deck = shuffled_deck(False, random.Random(4))
    d = deal_from_deck(deck, dealer=0)
    assert d.kitty == tuple(deck[20:])
    state = euchre.HandState(CLASSIC, 0, d)
    assert state.upcard == deck[20] and state.kitty_down == tuple(deck[21:])


def test_rule_002_4_5_deal_passes_to_the_left() -> None:
    """Section 4.5: after each hand the deal passes to the left."""
    rng = random.Random(5)
    game = GameState(STICK, 1)
    dealers: list[int] = []
    while len(dealers) < 6:
        if game.needs_deal:
            dealers.append(game.next_dealer)
            game = game.deal_random(rng)
        else:
            game = game.apply(game.legal_actions()[0])
    assert dealers == [1, 2, 3, 0, 1, 2]


def test_rule_002_5_first_round_order_up_dealer_discards_face_down() -> None:
    """Section 5, first round: the dealer adds the upcard and discards one card face down."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order")
    assert state.to_act == 3 and parse_card("KH") in state.hand(3)
    state = state.apply("discard 9D")
    assert parse_card("9D") in state.kitty_down
    assert state.view(0).discard is None and state.view(3).discard == parse_card("9D")


def test_rule_002_5_first_round_the_dealer_may_pick_it_up() -> None:
    """Section 5, first round: after three passes the dealer may pick the upcard up."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "pass", "pass", "pass")
    assert state.to_act == 3 and "order" in legal(state)
    state = state.apply("order")
    assert state.maker == 3 and state.phase_name == "discard"


def test_rule_002_5_first_round_ordering_up_is_final() -> None:
    """Section 5, first round: ordering up ends the bidding at once; nobody else may bid."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order")
    assert set(legal(state)) == {f"discard {c}" for c in ("9D", "AS", "KS", "QS", "JS", "KH")}
    for bid in ("order", "pass", "call S"):
        with pytest.raises(euchre.IllegalActionError):
            state.apply(bid)
    assert act(state, "discard 9D").phase_name == "play"


def test_rule_002_5_second_round_any_suit_but_the_turned_down_one() -> None:
    """Section 5, second round: from the dealer's left, name any suit except the turned-down one."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), *["pass"] * 4)
    assert state.phase_name == "call" and state.to_act == 0
    assert {a.suit for a in state.legal_actions() if a.kind == "call"} == {
        parse_suit(s) for s in "CDS"
    }


def test_rule_002_5_second_round_naming_ends_the_bidding() -> None:
    """Section 5, second round: naming a suit ends the bidding; the dealer does not exchange."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), *["pass"] * 5, "call D")
    assert state.maker == 1 and state.trump == parse_suit("D")
    assert state.phase_name == "play" and state.to_act == 0
    assert parse_card("KH") not in state.hand(3)


def test_rule_002_5_all_pass_twice_thrown_in_deal_passes_left() -> None:
    """Section 5: if all four pass twice the hand is thrown in and the deal passes left."""
    game = GameState(CLASSIC, 3).deal(
        euchre.Deal(tuple(tuple(parse_cards(h)) for h in LEFT_BOWER.split("|")),
                    tuple(parse_cards(LEFT_BOWER_KITTY)), "3-2")
    )
    for _ in range(8):
        game = game.apply("pass")
    assert game.current is not None and game.current.thrown_in
    assert game.score == (0, 0) and game.needs_deal and game.next_dealer == 0


def test_rule_002_5_stick_the_dealer_must_name_a_suit() -> None:
    """Section 5: under stick the dealer, the dealer may not pass in the second round."""
    state = act(deal(STICK, 3, LEFT_BOWER, LEFT_BOWER_KITTY), *["pass"] * 7)
    assert state.to_act == 3 and "pass" not in legal(state)
    assert {"call C", "call D", "call S", "call C alone"} <= set(legal(state))


def test_rule_002_5_makers_and_defenders() -> None:
    """Section 5: the side that chose trump are the makers, the other side the defenders."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "pass", "order")
    assert state.maker == 1 and state.maker_side == 1
    end = act(state, "discard 9D")
    assert end.view(0).maker == 1


def test_rule_002_6_alone_announced_with_the_bid_only() -> None:
    """Section 6: alone is announced when ordering, picking up or naming, not afterwards."""
    state = deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY)
    assert "order alone" in legal(state)
    assert "order alone" in legal(act(state, "pass", "pass", "pass")), "the dealer picks up alone"
    assert "call S alone" in legal(act(state, *["pass"] * 4))
    after = act(state, "order", "discard 9D")
    assert not any(a.alone for a in after.legal_actions())


def test_rule_002_6_dealers_partner_alone_dealer_sits_out() -> None:
    """Section 6: if the dealer's partner orders up alone, the dealer sits out."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "pass", "order alone")
    assert state.sits_out(3)
    # dealer_exchanges_when_partner_alone (default yes): the dealer still exchanges first.
    assert state.phase_name == "discard" and state.to_act == 3
    state = state.apply("discard 9D")
    assert state.to_act == 0 and state.trick == (0, ())


def test_rule_002_6_opening_lead_skips_a_seat_sitting_out() -> None:
    """Section 6: the dealer's left leads; if that player sits out, the next player leads."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "pass", "pass", "order alone",
                "discard 9D")
    assert state.sits_out(0) and state.to_act == 1


def test_rule_002_6_a_defender_may_announce_alone_in_some_games() -> None:
    """Section 6: in some games a defender may also go alone (house rule defend_alone)."""
    rules = CLASSIC.replace(defend_alone=True)
    state = act(deal(rules, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order", "discard 9D")
    assert state.phase_name == "defend" and legal(state) == ["pass", "defend alone"]
    state = state.apply("defend alone")
    assert state.lone_defender == 1 and state.sits_out(3)
    plain = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order", "discard 9D")
    assert "defend alone" not in legal(plain)


def test_rule_002_7_1_dealers_left_leads_first() -> None:
    """Section 7.1: the player on the dealer's left leads to the first trick."""
    for dealer in range(4):
        state = act(deal(CLASSIC, dealer, LEFT_BOWER, LEFT_BOWER_KITTY), *["pass"] * 4)
        state = state.apply(legal(state)[1])
        while state.phase_name != "play":
            state = state.apply(legal(state)[0])
        assert state.to_act == (dealer + 1) % 4


def test_rule_002_7_2_clockwise_follow_suit_if_able_else_any_card() -> None:
    """Section 7.2: play goes clockwise; follow suit if able; otherwise any card."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order", "discard 9D",
                "play AD")
    assert state.to_act == 1 and legal(state) == ["play QD"]
    state = state.apply("play QD")
    assert state.to_act == 2 and legal(state) == ["play TD", "play KD"]
    state = state.apply("play KD")
    assert state.to_act == 3 and len(legal(state)) == 5, "East has no diamond: any card"


def test_rule_002_7_3_left_bower_must_be_played_to_a_trump_lead() -> None:
    """Section 7.3: the left bower, if it is one's only trump, must be played to a trump lead."""
    state = act(deal(CLASSIC, 3, ONLY_LEFT, LEFT_BOWER_KITTY), "order", "discard 9D",
                "play AH")
    assert legal(state) == ["play JD"]


def test_rule_002_7_3_left_bower_cannot_follow_its_printed_suit() -> None:
    """Section 7.3: the left bower cannot be played to follow its printed suit."""
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order", "discard 9D",
                "play AD")
    with pytest.raises(euchre.IllegalActionError, match="left bower"):
        state.apply("play JD")


def test_rule_002_7_4_highest_trump_else_highest_of_suit_led() -> None:
    """Section 7.4: the highest trump wins; with no trump, the highest card of the suit led."""
    state = act(deal(CLASSIC, 3, ONLY_LEFT, LEFT_BOWER_KITTY), "order", "discard 9D",
                "play AH", "play JD", "play 9H", "play KH")
    assert state.tricks[0][2] == 1, "the left bower beats the ace and king of trump"
    state = act(deal(CLASSIC, 3, LEFT_BOWER, LEFT_BOWER_KITTY), "order", "discard 9D",
                "play AD", "play QD", "play KD", "play AS")
    assert state.tricks[0][2] == 0


def test_rule_002_7_5_winner_leads_next() -> None:
    """Section 7.5: the winner of each trick leads to the next."""
    state = act(deal(CLASSIC, 3, ONLY_LEFT, LEFT_BOWER_KITTY), "order", "discard 9D",
                "play AH", "play JD", "play 9H", "play KH")
    assert state.to_act == 1 and state.trick == (1, ())


@pytest.mark.parametrize("length", [5, 7, 10, 11])
def test_rule_002_8_game_to_ten_or_five_seven_eleven(length: int) -> None:
    """Section 8: the game is 10 points; some play to 5, 7 or 11."""
    rules = CLASSIC.replace(game_to=length)
    rng = random.Random(length)
    game = play_random_game(rules, 0, rng)
    assert game.winner is not None and max(game.score) >= length
    assert max(game.all_hands()[-1].score) < length
    assert euchre.Rules().game_to == 10
    with pytest.raises(euchre.RulesError):
        euchre.Rules(game_to=8)
