"""Golden tests for the table laws of seeds/002 (section 9, laws 1-11).

Most irregularities cannot happen at a digital table; each test checks how the engine
embodies the law instead (a malformed deal is refused, acting out of turn is refused, and so on).
"""

from __future__ import annotations

import json

import pytest
from engine_helpers import act, deal, legal, snapshot

import euchre
from euchre.cards import parse_card, parse_cards
from euchre.game import GameState
from euchre.record import GameRecord, HandRecord, ReplayError

CLASSIC = euchre.Rules()
HANDS = "AD 9C TC 9S TS | JD QD 9H AC KC | KD TD AH QC JC | 9D AS KS QS JS"
KITTY = "KH JH QH TH"


def good_deal() -> euchre.Deal:
    """The deal above as a Deal value."""
    return euchre.Deal(tuple(tuple(parse_cards(h)) for h in HANDS.split("|")),
                       tuple(parse_cards(KITTY)), "3-2")


@pytest.mark.parametrize(
    ("hands", "kitty", "why"),
    [
        (HANDS.replace("AD ", ""), KITTY, "dealt 4 cards"),
        (HANDS.replace("9C", "9C 9H"), KITTY, "dealt 6 cards"),
        (HANDS, "KH JH QH", "kitty has 3"),
        (HANDS, "KH JH QH AD", "dealt twice"),
        (HANDS, "KH JH QH XX", "not a card"),
    ],
)
def test_table_law_1_misdeal_is_refused(hands: str, kitty: str, why: str) -> None:
    """Law 1: a wrong number of cards (or a card that is not in the deck) is a misdeal."""
    with pytest.raises(euchre.DealError, match=why):
        deal(CLASSIC, 0, hands, kitty)


def test_table_law_1_misdeal_changes_nothing_and_the_same_dealer_deals() -> None:
    """Law 1: after a misdeal the same dealer deals again; the game is unchanged."""
    game = GameState(CLASSIC, 2)
    bad = euchre.Deal(good_deal().hands, good_deal().kitty[:3], "3-2")
    with pytest.raises(euchre.DealError):
        game.deal(bad)
    assert game.needs_deal and game.next_dealer == 2 and game.current is None
    assert game.deal(good_deal()).current is not None


def test_table_law_2_misdeal_cannot_be_discovered_after_the_lead() -> None:
    """Law 2: every deal is checked before the first bid, so no misdeal is found in play."""
    state = deal(CLASSIC, 3, HANDS, KITTY)
    cards = [c for s in range(4) for c in state.hand(s)] + [state.upcard, *state.kitty_down]
    assert sorted(cards) == list(range(24))


def test_table_law_3_dealing_out_of_turn_is_refused_in_a_record() -> None:
    """Law 3: the game decides who deals; a record with a deal out of turn does not replay."""
    passes = [(seat % 4, euchre.parse_action("pass")) for seat in range(8)]
    record = GameRecord(CLASSIC, [HandRecord(3, good_deal(), passes),
                                  HandRecord(3, good_deal(), [])])
    with pytest.raises(ReplayError, match="dealt out of turn: seat 0 deals"):
        record.replay()
    assert GameState(CLASSIC, 3).next_dealer == 3


def test_table_law_4_bid_out_of_turn_is_refused() -> None:
    """Law 4: a bid out of turn is cancelled: refused, and nothing changes."""
    state = deal(CLASSIC, 3, HANDS, KITTY)
    before = snapshot(state)
    with pytest.raises(euchre.IllegalActionError, match="it is South's turn"):
        state.apply("order", seat=2)
    assert snapshot(state) == before
    assert state.apply("order", seat=0).maker == 0


def test_table_law_5_naming_turned_down_suit_refused() -> None:
    """Law 5: naming the turned-down suit has no effect: the player must pass or name another."""
    state = act(deal(CLASSIC, 3, HANDS, KITTY), *["pass"] * 4)
    before = snapshot(state)
    with pytest.raises(euchre.IllegalActionError,
                       match="Hearts was turned down: name another suit or pass"):
        state.apply("call H")
    assert snapshot(state) == before
    assert "pass" in legal(state) and "call S" in legal(state)


def test_table_law_6_dealers_discard_is_final_once_the_first_card_is_led() -> None:
    """Law 6: there is no way to change the discard; once play starts, discards are refused."""
    state = act(deal(CLASSIC, 3, HANDS, KITTY), "order", "discard 9D", "play AD")
    for attempt in ("discard AS", "discard KH"):
        with pytest.raises(euchre.IllegalActionError, match="time to play a card"):
            state.apply(attempt)
    assert state.discard == parse_card("9D") and state.view(3).discard == parse_card("9D")


def test_table_law_7_card_led_out_of_turn_is_refused_and_a_trick_stands() -> None:
    """Law 7: a card out of turn is refused; a completed trick cannot be taken back."""
    state = act(deal(CLASSIC, 3, HANDS, KITTY), "order", "discard 9D")
    before = snapshot(state)
    with pytest.raises(euchre.IllegalActionError, match="it is South's turn"):
        state.apply("play JD", seat=1)
    assert snapshot(state) == before
    state = act(state, "play AD", "play QD", "play KD", "play AS")
    assert state.tricks[0][2] == 0 and not any(a.kind == "undo" for a in state.legal_actions())


def test_table_law_8_no_card_is_ever_exposed_to_another_seat() -> None:
    """Law 8: cards cannot be exposed by accident: a view holds only its own unplayed cards."""
    state = act(deal(CLASSIC, 3, HANDS, KITTY), "order", "discard 9D", "play AD")
    for seat in range(4):
        text = json.dumps(state.view(seat).to_json())
        for other in range(4):
            if other != seat:
                for card in state.hand(other):
                    if card == state.upcard:
                        continue  # the upcard was shown to everyone
                    assert f'"{euchre.card_text(card)}"' not in text


def test_table_law_9_renege_cannot_happen_and_a_claim_scores_the_hand() -> None:
    """Law 9: failing to follow is refused; a recorded renege claim stops the hand at 2."""
    state = act(deal(CLASSIC, 3, HANDS, KITTY), "order", "discard 9D", "play AD")
    with pytest.raises(euchre.IllegalActionError, match="you must follow Diamonds"):
        state.apply("play AC")
    with pytest.raises(euchre.IllegalActionError, match="seat 1 has not yet played"):
        state.apply("renege 1 by 0")
    claimed = state.apply("play QD").apply("renege 1 by 0")
    assert claimed.is_over and claimed.reneged == (1, 0) and claimed.points == (2, 0)


def test_table_law_10_no_table_talk_views_carry_only_game_facts() -> None:
    """Law 10: there is no talk in the action notation, and a view carries no free text."""
    with pytest.raises(euchre.ActionError):
        euchre.parse_action("say I have the right bower")
    view = deal(CLASSIC, 3, HANDS, KITTY).view(1).to_json()
    assert set(view) >= {"hand", "history", "legal"} and "chat" not in view


def test_table_law_11_last_trick_visible_until_the_next_card_is_led() -> None:
    """Law 11: the last completed trick may be seen until the next card is led, not after."""
    state = act(deal(CLASSIC, 3, HANDS, KITTY), "order", "discard 9D",
                "play AD", "play QD", "play KD")
    assert state.view(2).last_trick is None
    state = state.apply("play AS")
    last = state.view(2).last_trick
    assert last is not None and last[2] == 0
    assert state.view(2).to_json()["last_trick"]["winner"] == 0
    state = state.apply("play 9S")
    assert state.view(2).last_trick is None
    assert state.view(2).to_json()["last_trick"] is None
