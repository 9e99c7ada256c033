"""Golden tests for the house rules of seeds/002 (section 10) and every rule option in rules.py."""

from __future__ import annotations

import random

import pytest
from engine_helpers import act, deal, endings, first_ending, legal, play_random_game, snapshot

import euchre
from euchre.cards import JOKER, parse_card, parse_cards, parse_suit
from euchre.game import GameState
from euchre.record import GameRecord

CLASSIC = euchre.Rules()
KITCHEN = euchre.Rules.preset("kitchen-table")
CANADIAN = euchre.Rules.preset("canadian")
BENNY = euchre.Rules.preset("benny")

# Dealer South (0). North (2) holds three nines and two tens: a farmer's hand by both rules.
FARMER = "AC KC QC JC 9S | AD KD QD JD TS | 9C 9D 9H TC TD | AH KH QH JH TH"
FARMER_KITTY = "AS KS QS JS"
# North holds only nines and tens, but two nines and three tens.
NINES_TENS = "AC KC QC JC 9S | AD KD QD JD TS | 9C 9D TC TD TH | AH KH QH JH 9H"
# No farmer's hand anywhere (dealer South, upcard 9H).
PLAIN = "AD 9C TC 9S TS | JD QD 9H AC KC | KD TD AH QC JC | 9D AS KS QS JS"
PLAIN_KITTY = "KH JH QH TH"


# -- stick the dealer ---------------------------------------------------------------------


def test_house_rule_stick_the_dealer_dealer_must_name() -> None:
    """Stick the dealer: after seven passes the dealer must name a suit, alone or not."""
    rules = euchre.Rules.preset("stick-the-dealer")
    state = act(deal(rules, 3, PLAIN, PLAIN_KITTY), *["pass"] * 7)
    assert state.to_act == 3
    assert set(legal(state)) == {f"call {s}{a}" for s in "CDS" for a in ("", " alone")}
    before = snapshot(state)
    with pytest.raises(euchre.IllegalActionError, match="the dealer must name a suit"):
        state.apply("pass")
    assert snapshot(state) == before


def test_house_rule_stick_the_dealer_off_the_dealer_may_pass() -> None:
    """Without stick the dealer, the dealer may pass and the hand is thrown in."""
    state = act(deal(CLASSIC, 3, PLAIN, PLAIN_KITTY), *["pass"] * 8)
    assert state.thrown_in and state.points == (0, 0)


# -- farmer's hand ----------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["nines-and-tens", "three-nines-two-tens"])
def test_house_rule_farmers_hand_is_asked_before_bidding(rule: str) -> None:
    """Farmer's hand: the farmer decides before the bidding starts (both definitions)."""
    state = deal(CLASSIC.replace(farmers_hand=rule), 0, FARMER, FARMER_KITTY)
    assert state.phase_name == "farmer" and state.to_act == 2
    assert legal(state)[0] == "farmer keep" and legal(state)[-1] == "farmer throw"
    assert len(legal(state)) == 2 + 10, "keep, throw, and any three of five cards to swap"
    assert state.view(1).to_act == 2 and state.view(1).legal == ()


def test_house_rule_farmers_hand_definitions_differ() -> None:
    """Two nines and three tens is a farmer's hand only under 'nines and tens'."""
    both = deal(CLASSIC.replace(farmers_hand="nines-and-tens"), 0, NINES_TENS, FARMER_KITTY)
    assert both.phase_name == "farmer"
    strict = deal(CLASSIC.replace(farmers_hand="three-nines-two-tens"), 0, NINES_TENS,
                  FARMER_KITTY)
    assert strict.phase_name == "order"
    assert deal(CLASSIC, 0, FARMER, FARMER_KITTY).phase_name == "order", "off by default"


def test_house_rule_farmers_hand_keep_then_bidding_from_dealers_left() -> None:
    """Farmer's hand: keeping it starts the bidding as usual."""
    state = act(deal(KITCHEN, 0, FARMER, FARMER_KITTY), "farmer keep")
    assert state.phase_name == "order" and state.to_act == 1
    assert state.hand(2) == sorted(parse_cards("9C 9D 9H TC TD"))


def test_house_rule_farmers_hand_swap_three_for_the_kitty() -> None:
    """Farmer's hand: swap three cards for the three face-down kitty cards; nobody else sees."""
    state = act(deal(KITCHEN, 0, FARMER, FARMER_KITTY), "farmer swap 9C 9D 9H")
    assert sorted(state.hand(2)) == sorted(parse_cards("TC TD KS QS JS"))
    assert sorted(state.kitty_down) == sorted(parse_cards("9C 9D 9H"))
    assert state.phase_name == "order" and state.upcard == parse_card("AS")
    mine, theirs = state.view(2), state.view(1)
    assert mine.farmer_gave == tuple(sorted(parse_cards("9C 9D 9H")))
    assert theirs.history == ((2, None),) and theirs.hidden_kinds == ("farmer swap",)
    assert theirs.farmer_gave == ()
    with pytest.raises(euchre.IllegalActionError, match="swap three cards you hold"):
        deal(KITCHEN, 0, FARMER, FARMER_KITTY).apply("farmer swap AC KC QC")


def test_house_rule_farmers_hand_throw_in_passes_the_deal() -> None:
    """Farmer's hand: throwing it in ends the hand unscored; the deal moves per all_pass."""
    state = act(deal(KITCHEN, 0, FARMER, FARMER_KITTY), "farmer throw")
    assert state.is_over and state.thrown_in and state.points == (0, 0)
    for all_pass, nxt in (("next-dealer", 1), ("same-dealer", 0)):
        d = euchre.Deal(tuple(tuple(parse_cards(h)) for h in FARMER.split("|")),
                        tuple(parse_cards(FARMER_KITTY)), "3-2")
        game = GameState(KITCHEN.replace(all_pass=all_pass), 0).deal(d).apply("farmer throw")
        assert game.needs_deal and game.next_dealer == nxt


# -- defending alone ------------------------------------------------------------------------


def test_house_rule_defend_alone_asked_in_turn_from_dealers_left() -> None:
    """Defending alone: after the makers' exchange, defenders are asked from the dealer's left."""
    state = act(deal(KITCHEN, 0, FARMER, FARMER_KITTY), "farmer keep", "order", "discard 9S")
    assert state.phase_name == "defend" and state.to_act == 2
    assert legal(state) == ["pass", "defend alone"]
    state = state.apply("pass")
    assert state.to_act == 0, "the dealer is asked last"
    state = state.apply("pass")
    assert state.phase_name == "play" and state.to_act == 1 and state.lone_defender == -1


def test_house_rule_defend_alone_partner_sits_out_and_euchre_scores_4() -> None:
    """Defending alone: the defender's partner sits out; euchring the makers alone scores 4."""
    state = act(deal(KITCHEN, 0, FARMER, FARMER_KITTY), "farmer keep", "order", "discard 9S",
                "pass", "defend alone")
    assert state.lone_defender == 0 and state.sits_out(2) and state.to_act == 1
    euchred = first_ending(state, lambda s: s.tricks_won[0] >= 3)
    assert euchred.points == (4, 0)
    made = first_ending(state, lambda s: s.tricks_won[1] >= 3)
    assert made.points == (0, 1 if made.tricks_won[1] < 5 else 2)


def test_house_rule_defend_alone_off_by_default() -> None:
    """Without the house rule, play starts right after the makers' exchange."""
    state = act(deal(CLASSIC, 0, FARMER, FARMER_KITTY), "order", "discard 9S")
    assert state.phase_name == "play"


def test_house_rule_defend_alone_against_a_lone_maker_scores_4() -> None:
    """A lone defender against a lone maker: one against one; a euchre still scores 4."""
    state = act(deal(KITCHEN, 0, FARMER, FARMER_KITTY), "farmer keep", "order alone",
                "discard 9S", "pass", "defend alone")
    assert state.sits_out(3) and state.sits_out(2)
    ends = list(endings(state))
    assert all(len(t[1]) == 2 for e in ends for t in e.tricks)
    assert {e.points for e in ends if e.tricks_won[0] >= 3} == {(4, 0)}


def test_going_alone_when_the_dealer_is_maker() -> None:
    """The dealer may pick up alone: the dealer exchanges, the partner sits out, left leads."""
    state = act(deal(CLASSIC, 0, PLAIN, PLAIN_KITTY), *["pass"] * 3, "order alone")
    assert state.maker == 0 and state.alone and state.sits_out(2)
    assert state.phase_name == "discard" and parse_card("KH") in state.hand(0)
    state = state.apply("discard 9S")
    assert state.to_act == 1
    state = act(state, "play JD", "play 9D")
    assert state.to_act == 0, "North sits out: the dealer plays third"


# -- Canadian loner -------------------------------------------------------------------------


def test_house_rule_canadian_loner_dealers_partner_must_go_alone() -> None:
    """Canadian loner: the dealer's partner who orders up the upcard must go alone."""
    state = act(deal(CANADIAN, 0, PLAIN, PLAIN_KITTY), "pass")
    assert state.to_act == 2 and legal(state) == ["pass", "order alone"]
    with pytest.raises(euchre.IllegalActionError, match="Canadian loner"):
        state.apply("order")
    assert state.apply("order alone").sits_out(0)
    assert "order" in legal(deal(CANADIAN, 0, PLAIN, PLAIN_KITTY)), "others need not"


def test_house_rule_canadian_loner_not_in_round_two() -> None:
    """Canadian loner applies only to ordering up the upcard, not to naming in round two."""
    state = act(deal(CANADIAN, 0, PLAIN, PLAIN_KITTY), *["pass"] * 5)
    assert state.to_act == 2 and "call S" in legal(state)
    assert not act(state, "call S").alone


def test_house_rule_canadian_loner_with_stick_the_dealer() -> None:
    """Canadian loner and stick the dealer are separate house rules (002 section 10 ties them
    nowhere): the preset has only the loner; with both, each applies on its own."""
    assert euchre.Rules(canadian_loner=True) == CANADIAN
    state = act(deal(CANADIAN, 0, PLAIN, PLAIN_KITTY), *["pass"] * 7)
    assert state.to_act == 0 and "pass" in legal(state), "the preset does not stick the dealer"
    both = CANADIAN.replace(stick_the_dealer=True)
    state = act(deal(both, 0, PLAIN, PLAIN_KITTY), *["pass"] * 3)
    assert state.to_act == 0 and "order" in legal(state), "the dealer's own order is not forced"
    state = act(state, "pass", *["pass"] * 3)
    assert state.to_act == 0 and "pass" not in legal(state)


# -- the Benny ------------------------------------------------------------------------------

BENNY_HANDS = "AC KC QC JC 9S | JK KD QD JD TS | 9C 9D 9H TC TD | AH KH QH JH TH"
BENNY_KITTY = "AD AS KS QS JS"


def test_house_rule_benny_joker_is_the_highest_trump() -> None:
    """The Benny: the joker is a trump above the right bower, whatever the trump suit."""
    for trump in range(4):
        for led in range(4):
            assert euchre.trick_rank(JOKER, trump, led) > euchre.trick_rank(
                parse_card("J" + "CDHS"[trump]), trump, led)
        assert euchre.effective_suit(JOKER, trump) == trump


def test_house_rule_benny_joker_led_others_must_follow_trump() -> None:
    """The Benny: the joker led is a trump lead; it wins over both bowers."""
    state = act(deal(BENNY, 0, BENNY_HANDS, BENNY_KITTY), "order", "discard 9S", "play JK")
    assert legal(state) == ["play 9D", "play TD"]
    state = act(state, "play 9D")
    assert legal(state) == ["play JH"], "East's only trump is the left bower"
    state = act(state, "play JH", "play AD")
    assert state.tricks[0][2] == 1


def test_house_rule_benny_joker_cannot_follow_a_plain_suit() -> None:
    """The Benny: holding a card of the suit led, the joker (a trump) may not be played."""
    hands = "9S AC KC QC JC | JK TS KD QD JD | 9C 9D 9H TC TD | AH KH QH JH TH"
    state = act(deal(BENNY, 3, hands, BENNY_KITTY), "order", "discard TH", "play 9S")
    assert legal(state) == ["play TS"]
    with pytest.raises(euchre.IllegalActionError, match="you must follow Spades"):
        state.apply("play JK")
    state = act(state, "play TS", "play 9C")
    assert "play AH" in legal(state)


def test_house_rule_benny_joker_as_upcard_dealer_names_and_discards() -> None:
    """The Benny turned up: the dealer picks it up, names any suit (may go alone), discards."""
    hands = "AC KC QC JC 9S | AD KD QD JD TS | 9C 9D 9H TC TD | AH KH QH JH TH"
    state = deal(BENNY, 0, hands, "JK AS KS QS JS")
    assert state.phase_name == "benny" and state.to_act == 0
    assert set(legal(state)) == {f"call {s}{a}" for s in "CDHS" for a in ("", " alone")}
    with pytest.raises(euchre.IllegalActionError, match="the Benny was turned up"):
        state.apply("pass")
    state = state.apply("call H alone")
    assert state.trump == parse_suit("H") and state.maker == 0 and state.sits_out(2)
    assert state.phase_name == "discard" and JOKER in state.hand(0)
    state = state.apply("discard 9S")
    assert state.phase_name == "play" and state.to_act == 1
    assert state.view(1).upcard_taken


def test_house_rule_benny_kitty_of_four_face_down_with_a_farmer() -> None:
    """With the Benny the kitty has four face-down cards; a farmer swaps for the first three."""
    rules = BENNY.replace(farmers_hand="three-nines-two-tens")
    state = deal(rules, 0, "AC KC QC JC 9S | AD KD QD JD TS | 9C 9D 9H TC TD | AH KH QH JH TH",
                 "JK AS KS QS JS")
    assert len(state.kitty_down) == 4 and state.phase_name == "farmer"
    state = state.apply("farmer swap 9C 9D 9H")
    assert sorted(state.hand(2)) == sorted(parse_cards("TC TD AS KS QS"))
    assert parse_card("JS") in state.kitty_down and state.phase_name == "benny"


def test_house_rule_benny_needs_the_joker_in_the_deal() -> None:
    """The joker is dealt exactly when the Benny is in use."""
    with pytest.raises(euchre.DealError, match="the kitty has 4 cards, not 5"):
        deal(BENNY, 0, PLAIN, PLAIN_KITTY)
    with pytest.raises(euchre.DealError, match="only when the Benny"):
        deal(CLASSIC, 0, BENNY_HANDS, "AD AS KS QS")


# -- game length (house rule) -----------------------------------------------------------------


def test_house_rule_game_length_short_preset_is_five() -> None:
    """Game length: the 'short' preset plays to 5; 7 and 11 are valid, other lengths are not."""
    assert euchre.Rules.preset("short").game_to == 5
    for n in (5, 7, 10, 11):
        assert euchre.Rules(game_to=n).game_to == n
    with pytest.raises(euchre.RulesError, match="game_to"):
        euchre.Rules(game_to=9)


# -- rule options ---------------------------------------------------------------------------


def test_option_lead_when_sitting_out_dealer_left() -> None:
    """lead_when_sitting_out=dealer-left: the dealer's left leads, skipping an absent seat."""
    state = act(deal(CLASSIC, 0, PLAIN, PLAIN_KITTY), "pass", "pass", "order alone",
                "discard 9S")
    assert state.sits_out(1) and state.to_act == 2


def test_option_lead_when_sitting_out_loner_left() -> None:
    """lead_when_sitting_out=loner-left: the player on the lone player's left leads."""
    rules = CLASSIC.replace(lead_when_sitting_out="loner-left")
    state = act(deal(rules, 0, PLAIN, PLAIN_KITTY), "pass", "pass", "order alone",
                "discard 9S")
    assert state.to_act == 0
    normal = act(deal(rules, 0, PLAIN, PLAIN_KITTY), "pass", "pass", "order", "discard 9S")
    assert normal.to_act == 1, "without a lone hand the dealer's left leads"


@pytest.mark.parametrize(("lead", "leader"), [("dealer-left", 1), ("loner-left", 0)])
def test_option_lead_with_a_lone_maker_and_a_lone_defender(lead: str, leader: int) -> None:
    """Both lone: dealer-left skips absent seats; loner-left counts from the lone maker."""
    rules = KITCHEN.replace(farmers_hand="off", lead_when_sitting_out=lead)
    state = act(deal(rules, 0, PLAIN, PLAIN_KITTY), "order alone", "discard 9S", "pass",
                "defend alone")
    assert state.maker == 1 and state.lone_defender == 0 and state.out == 0b1100
    assert state.to_act == leader


def test_option_dealer_exchanges_when_partner_alone_yes() -> None:
    """dealer_exchanges_when_partner_alone=yes: the dealer sits out but still exchanges."""
    state = act(deal(CLASSIC, 0, PLAIN, PLAIN_KITTY), "pass", "order alone")
    assert state.phase_name == "discard" and state.to_act == 0
    state = state.apply("discard 9S")
    assert state.discard == parse_card("9S") and state.to_act == 1


def test_option_dealer_exchanges_when_partner_alone_no() -> None:
    """dealer_exchanges_when_partner_alone=no: play starts at once; the upcard stays down."""
    rules = CLASSIC.replace(dealer_exchanges_when_partner_alone=False)
    state = act(deal(rules, 0, PLAIN, PLAIN_KITTY), "pass", "order alone")
    assert state.phase_name == "play" and state.to_act == 1 and state.discard == -1
    assert parse_card("KH") not in state.hand(0) and not state.view(1).upcard_taken
    dealer_alone = act(deal(rules, 0, PLAIN, PLAIN_KITTY), *["pass"] * 3, "order alone")
    assert dealer_alone.phase_name == "discard", "a lone dealer still picks up"


# South alone leads AD and wins, then loses the second trick to East, and follows East's lead.
SOUTH_FOLLOWS = ["3 play JS", "0 play 9C", "1 play AC", "3 play KH", "3 play AS", "0 play 9S"]


def renege_record(rules: euchre.Rules, claim: str) -> str:
    """A one-hand record: South orders up alone, leads, and a renege is claimed (against
    South only once South has followed a lead: a leader cannot renege)."""
    return "\n".join([
        "euchre-record 1",
        f"rules {rules.to_text()}",
        "hand 1",
        "dealer 3",
        "hands " + " | ".join(PLAIN.split("|")),
        "kitty " + PLAIN_KITTY,
        "0 order alone",
        "3 discard 9D",
        "0 play AD",
        "1 play QD",
        *(SOUTH_FOLLOWS if claim.startswith("renege 0") else []),
        claim,
        "",
    ])


@pytest.mark.parametrize(
    ("penalty", "claim", "points"),
    [
        ("hand", "renege 1 by 0", (4, 0)),
        ("flat", "renege 1 by 0", (2, 0)),
        ("hand", "renege 0 by 1", (0, 2)),
        ("flat", "renege 0 by 1", (0, 2)),
    ],
)
def test_option_renege_penalty(penalty: str, claim: str, points: tuple[int, int]) -> None:
    """renege_penalty: the claimers score as if they won, 4 if they played the lone hand
    ('hand'), or always 2 ('flat')."""
    rules = CLASSIC.replace(renege_penalty=penalty)
    record = GameRecord.from_text(renege_record(rules, claim))
    game = record.replay()
    assert game.current is not None and game.current.reneged is not None
    assert game.current.points == points and game.score == points
    assert GameRecord.from_text(record.to_text()).to_text() == record.to_text()


def test_option_renege_claim_after_the_last_trick_replaces_the_score() -> None:
    """A renege caught only after the hand ended still stops it: the claim's points count."""
    state = act(deal(CLASSIC, 3, PLAIN, PLAIN_KITTY), "order", "discard 9D")
    end = first_ending(state, lambda s: True)
    d = state.deal
    game = GameState(CLASSIC, 3).deal(d)
    for _, action in end.history():
        game = game.apply(action)
    assert game.score == end.points
    game = game.apply("renege 0 by 1")
    assert game.score == (0, 2)
    with pytest.raises(euchre.IllegalActionError, match="already claimed"):
        game.apply("renege 2 by 3")


def test_option_renege_claim_after_the_game_ended_is_refused() -> None:
    """Once a side has won the game the result stands: a renege claim that the finished hand
    would accept is refused by the game, and the score and winner do not change."""
    rng = random.Random(11)
    game = play_random_game(CLASSIC, 0, rng)
    assert game.is_over and game.current is not None and not game.current.thrown_in
    claims = [f"renege {s} by {b}" for s in range(4) for b in range(4)]
    valid = [c for c in claims if game.current.is_legal(c)]
    assert valid, "the last hand would take a claim on its own"
    for claim in valid:
        with pytest.raises(euchre.IllegalActionError, match="the game is over"):
            game.apply(claim)
    assert game.is_over and game.winner is not None


@pytest.mark.parametrize(("all_pass", "nxt"), [("next-dealer", 0), ("same-dealer", 3)])
def test_option_all_pass(all_pass: str, nxt: int) -> None:
    """all_pass: after a throw-in the deal passes left, or the same dealer deals again."""
    d = euchre.Deal(tuple(tuple(parse_cards(h)) for h in PLAIN.split("|")),
                    tuple(parse_cards(PLAIN_KITTY)), "3-2")
    game = GameState(CLASSIC.replace(all_pass=all_pass), 3).deal(d)
    for _ in range(8):
        game = game.apply("pass")
    assert game.next_dealer == nxt
    played = GameState(CLASSIC.replace(all_pass=all_pass), 3).deal(d).apply("order")
    assert played.current is not None and not played.current.thrown_in
