"""The messages a player sees when an action is refused, and that a refusal changes nothing."""

from __future__ import annotations

import pytest
from engine_helpers import act, deal, snapshot
from engine_helpers import legal as legal_texts

import euchre
from euchre.hand import HandState

CLASSIC = euchre.Rules()
# Dealer East (3), upcard KH. South leads; West holds the left bower and the queen of diamonds.
HANDS = "AD 9C TC 9S TS | JD QD 9H AC KC | KD TD AH QC JC | 9D AS KS QS JS"
KITTY = "KH JH QH TH"


def refused(state: HandState, action: object, message: str, seat: int | None = None) -> None:
    """``action`` is refused with exactly ``message`` and the state is unchanged."""
    before = snapshot(state)
    with pytest.raises(euchre.IllegalActionError) as err:
        state.apply(action, seat=seat)  # type: ignore[arg-type]
    assert str(err.value) == message
    assert snapshot(state) == before
    assert seat is not None or not state.is_legal(action)  # type: ignore[arg-type]


def in_play() -> HandState:
    """South has ordered up hearts, East discarded the nine of diamonds."""
    return act(deal(CLASSIC, 3, HANDS, KITTY), "order", "discard 9D")


def test_message_must_follow_suit() -> None:
    """Not following suit names the suit and the cards that follow it."""
    state = in_play().apply("play AD")
    refused(state, "play AC", "you must follow Diamonds: you hold the Queen of Diamonds")


def test_message_must_follow_hearts_with_the_nine() -> None:
    """The message from the issue: you must follow Hearts: you hold the Nine of Hearts."""
    hands = "AH 9C TC 9S TS | JD QD AD AC KC | KD TD 9H QC JC | 9D AS KS QS JS"
    state = act(deal(CLASSIC, 3, hands, KITTY), *["pass"] * 4, "call C", "play AH")
    assert set(legal_texts(state)) == {"play JD", "play QD", "play AD", "play AC", "play KC"}
    state = state.apply("play AC")
    refused(state, "play JC", "you must follow Hearts: you hold the Nine of Hearts")
    state = act(deal(CLASSIC, 3, hands, KITTY), "order", "discard 9D", "play AH")
    refused(state, "play QD", "you must follow trump (Hearts): you hold the Jack of Diamonds")


def test_message_follow_trump_names_the_suit() -> None:
    """"You must follow trump" says which suit trump is, also when the left bower is led."""
    hands = "JD 9C TC 9S TS | AH QD AD AC KC | KD TD 9H QC JC | 9D AS KS QS JS"
    state = act(deal(CLASSIC, 3, hands, KITTY), "order", "discard 9D", "play JD")
    refused(state, "play AD", "you must follow trump (Hearts): you hold the Ace of Hearts")


BENNY_HANDS = "AC KC QC JC 9S | JK KD QD JD TS | 9C 9D 9H TC TD | AH KH QH JH TH"
BENNY_KITTY = "AD AS KS QS JS"


def test_message_joker_is_a_trump() -> None:
    """The Benny: the joker played to a plain-suit lead is refused, saying it is a trump."""
    rules = euchre.Rules(benny=True)
    state = act(deal(rules, 3, BENNY_HANDS, BENNY_KITTY), *["pass"] * 4, "call C", "play 9S")
    refused(state, "play JK", "you must follow Spades: you hold the Ten of Spades "
            "(the joker is a trump, not a Spade)")
    assert act(state, "play TS").trick[1] == tuple(euchre.parse_card(c) for c in ("9S", "TS"))


def test_message_left_bower_is_a_trump() -> None:
    """Trying to follow the left bower's printed suit explains that it is a trump."""
    state = in_play().apply("play AD")
    refused(state, "play JD", "you must follow Diamonds: you hold the Queen of Diamonds "
            "(the Jack of Diamonds is the left bower, a trump)")


def test_message_card_not_held() -> None:
    """Playing or discarding a card one does not hold."""
    refused(in_play(), "play AS", "you do not hold the Ace of Spades")
    refused(act(deal(CLASSIC, 3, HANDS, KITTY), "order"), "discard AD",
            "you do not hold the Ace of Diamonds")


def test_message_out_of_turn() -> None:
    """Acting for another seat names whose turn it is."""
    refused(in_play(), "play JD", "it is South's turn (seat 0), not seat 1's", seat=1)


def test_message_wrong_phase() -> None:
    """An action of the wrong kind says what the table is waiting for."""
    refused(in_play(), "order", "order is not allowed now: it is time to play a card")
    refused(deal(CLASSIC, 3, HANDS, KITTY), "play AD",
            "play AD is not allowed now: it is time to order up the upcard or pass")
    refused(deal(CLASSIC, 3, HANDS, KITTY), "call S",
            "call S is not allowed now: it is time to order up the upcard or pass")
    refused(act(deal(CLASSIC, 3, HANDS, KITTY), "order"), "pass",
            "pass is not allowed now: it is time to discard a card")


def test_message_turned_down_suit_and_stick_the_dealer() -> None:
    """Round two refusals: the turned-down suit, and the stuck dealer's pass."""
    state = act(deal(CLASSIC, 3, HANDS, KITTY), *["pass"] * 4)
    refused(state, "call H", "Hearts was turned down: name another suit or pass")
    stick = act(deal(euchre.Rules.preset("stick-the-dealer"), 3, HANDS, KITTY), *["pass"] * 7)
    refused(stick, "pass", "stick the dealer: the dealer must name a suit")


def test_message_hand_over_and_renege_claims() -> None:
    """Acting after the end, and malformed renege claims."""
    over = act(deal(CLASSIC, 3, HANDS, KITTY), *["pass"] * 8)
    refused(over, "pass", "the hand is over")
    refused(over, "renege 1 by 0", "a renege can only be claimed once play has started")
    refused(in_play(), "renege 1 by 0", "seat 1 has not yet played to a trick another seat "
            "led, so cannot have reneged")
    led = in_play().apply("play AD")
    refused(led, "renege 0 by 1", "seat 0 has not yet played to a trick another seat led, "
            "so cannot have reneged")
    assert led.apply("play QD").apply("renege 1 by 0").reneged == (1, 0)
    refused(in_play(), "renege 1 by 3", "only an opponent of the reneging player can claim a "
            "renege")
    alone = act(deal(CLASSIC, 3, HANDS, KITTY), "order alone", "discard 9D", "play AD")
    refused(alone, "renege 2 by 1", "seat 2 sits out this hand and cannot renege")


def test_message_not_an_action() -> None:
    """Something that is neither an action nor its text is refused, changing nothing."""
    refused(in_play(), 42, "not an action: 42")


def test_message_notation_errors() -> None:
    """Text that is not an action, a card or a suit gets a hint at the notation."""
    with pytest.raises(euchre.ActionError, match="try pass, order"):
        euchre.parse_action("bid 3")
    with pytest.raises(euchre.ActionError, match="not a card: 'ZZ'"):
        euchre.parse_action("play ZZ")
    with pytest.raises(euchre.CardError, match="use C, D, H or S"):
        euchre.parse_suit("X")
    with pytest.raises(euchre.ActionError, match="seats are 0-3"):
        euchre.parse_action("renege 5 by 0")
    state = in_play()
    before = snapshot(state)
    with pytest.raises(euchre.ActionError):
        state.apply("bid 3")
    assert snapshot(state) == before


@pytest.mark.parametrize("text", ["bid 3", "play ZZ", "call X", "renege 5 by 0", ""])
def test_message_unparseable_text_is_an_illegal_action(text: str) -> None:
    """The README's promise: an action that cannot be applied, text that is not an action
    included, raises IllegalActionError (ActionError is a kind of it) and changes nothing."""
    assert issubclass(euchre.ActionError, euchre.IllegalActionError)
    refused(in_play(), text, str(_parse_error(text)))
    game = euchre.GameState(CLASSIC, 3).deal(in_play().deal)
    with pytest.raises(euchre.IllegalActionError, match=r"not an action|not a seat"):
        game.apply(text)


def _parse_error(text: str) -> euchre.ActionError:
    with pytest.raises(euchre.ActionError) as err:
        euchre.parse_action(text)
    return err.value


def test_message_rules_errors() -> None:
    """Unknown presets, unknown rules and bad values are named."""
    with pytest.raises(euchre.RulesError, match="unknown preset 'bogus': choose one of classic"):
        euchre.Rules.preset("bogus")
    with pytest.raises(euchre.RulesError, match="unknown rule 'jokers'"):
        euchre.Rules().replace(jokers=True)
    with pytest.raises(euchre.RulesError, match="stick_the_dealer must be true or false"):
        euchre.Rules(stick_the_dealer="yes")  # type: ignore[arg-type]
    with pytest.raises(euchre.RulesError, match="farmers_hand must be one of"):
        euchre.Rules(farmers_hand="all")  # type: ignore[arg-type]
