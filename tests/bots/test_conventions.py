"""The conventions of good players, one named test each, with fixed deals.

Run against ``medium`` and, when they are available, ``hard`` and ``expert``. Seats:
dealer 0 unless said; seat 1 is left of the dealer and leads first; partners are 0 & 2
and 1 & 3.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import pytest

import euchre
from euchre import HandState, Rules
from euchre.actions import Action
from euchre.cards import effective_suit, parse_card, parse_cards

ALL_CARDS = list(range(24))


def _hard_available() -> bool:
    try:
        importlib.import_module("euchre.bots.hard")
    except ImportError:
        return False
    return True


LEVELS = [
    "medium",
    *(
        pytest.param(
            name,
            marks=pytest.mark.skipif(not _hard_available(), reason="euchre.bots.hard is not there"),
        )
        for name in ("hard", "expert")
    ),
]


@pytest.fixture(params=LEVELS)
def level(request: pytest.FixtureRequest) -> str:
    """The level under test."""
    name: str = request.param
    return name


def position(
    hands: dict[int, str],
    upcard: str,
    actions: Sequence[str] = (),
    dealer: int = 0,
    score: tuple[int, int] = (0, 0),
    rules: Rules | None = None,
) -> HandState:
    """A hand from the cards named (other seats filled from the rest, low cards first)."""
    fixed = {s: parse_cards(h) for s, h in hands.items()}
    up = parse_card(upcard)
    used = {c for cards in fixed.values() for c in cards} | {up}
    rest = [c for c in ALL_CARDS if c not in used]
    full = []
    for seat in range(4):
        if seat in fixed:
            full.append(fixed[seat])
        else:
            full.append(rest[:5])
            rest = rest[5:]
    state = euchre.deal(rules or Rules(), dealer, full, [up, *rest[:3]], score=score)
    for a in actions:
        state = state.apply(a)
    return state


def decide(level: str, state: HandState) -> Action:
    """What the bot of ``level`` does in ``state`` (seeded)."""
    assert state.to_act is not None
    bot = euchre.bots.make(level, seed=5)
    return bot.choose(state.view(state.to_act))


def text(action: Action) -> str:
    """An action as notation."""
    return str(action)


# -- bidding ------------------------------------------------------------------------


def test_never_order_up_with_a_single_trump(level: str) -> None:
    state = position({1: "JH AS AC KD QS"}, "TH")
    assert text(decide(level, state)) == "pass"


def test_order_up_with_three_trumps_and_a_bower(level: str) -> None:
    state = position({1: "JH AH TH AS 9C"}, "QH")
    assert decide(level, state).kind == "order"


def test_stricter_left_of_the_dealer(level: str) -> None:
    # three small trumps with the left: giving the opponent dealer the ace is too much
    state = position({1: "JD 9H TH KS 9C"}, "AH")
    assert text(decide(level, state)) == "pass"


def test_lighter_as_the_dealers_partner(level: str) -> None:
    # the same cards with partner picking up the ace: order it up
    state = position({2: "JD 9H TH KS 9C"}, "AH", ["pass"])
    assert decide(level, state).kind == "order"


def test_dealer_picks_up_a_bower_that_makes_the_hand(level: str) -> None:
    state = position({0: "AS 9S AH KD 9C"}, "JS", ["pass", "pass", "pass"])
    assert decide(level, state).kind == "order"


def test_next_in_round_two_left_of_the_dealer(level: str) -> None:
    # diamonds turned down: hearts is "next"
    state = position({1: "JH QH 9H AC 9S"}, "9D", ["pass"] * 4)
    action = decide(level, state)
    assert action.kind == "call" and action.suit == 2


def test_next_is_called_lighter(level: str) -> None:
    # two hearts with the right bower: worth calling as "next" (diamonds turned down),
    # not when clubs were turned down
    hand = {1: "JH TH 9C KC 9S"}
    action = decide(level, position(hand, "9D", ["pass"] * 4))
    assert action.kind == "call" and action.suit == 2
    assert text(decide(level, position(hand, "AC", ["pass"] * 4))) == "pass"


def test_careful_when_a_euchre_loses_the_game(level: str) -> None:
    hand = {2: "AD 9C JS QH JH"}
    assert decide(level, position(hand, "QD", ["pass"])).kind == "order"
    assert text(decide(level, position(hand, "QD", ["pass"], score=(0, 8)))) == "pass"


def test_go_alone_with_a_sure_march(level: str) -> None:
    state = position({1: "JS JC AS KS AH"}, "9S")
    assert text(decide(level, state)) == "order alone"


def test_no_loner_when_a_plain_march_wins_the_game(level: str) -> None:
    state = position({1: "JS JC AS KS AH"}, "9S", score=(0, 8))
    assert text(decide(level, state)) == "order"


def test_stick_the_dealer_names_the_best_suit(level: str) -> None:
    rules = Rules.preset("stick-the-dealer")
    state = position({0: "9C TC KD JS 9H"}, "AH", ["pass"] * 7, rules=rules)
    action = decide(level, state)
    assert action.kind == "call"
    assert action.suit in (0, 3)  # the black suits: the jack of spades is a bower for both


# -- the dealer's discard ------------------------------------------------------------


def test_dealer_discards_to_make_a_void(level: str) -> None:
    state = position({0: "JS KS TD AC 9C"}, "AS", ["order"])
    assert text(decide(level, state)) == "discard TD"


# -- leads ---------------------------------------------------------------------------


def test_maker_leads_trump(level: str) -> None:
    state = position({1: "JS JC AS AH 9D"}, "9S", ["order", "discard 9C"])
    action = decide(level, state)
    assert effective_suit(action.card, 3) == 3


def test_lead_trump_to_partner_who_called(level: str) -> None:
    # seat 3 (partner of seat 1) called spades in round two; seat 1 leads a trump
    state = position({1: "QS 9S AH KH AD", 3: "JS JC AS KS 9C"}, "TD",
                     ["pass"] * 4 + ["pass", "pass", "call S"])
    action = decide(level, state)
    assert effective_suit(action.card, 3) == 3


def test_no_trump_lead_on_defence(level: str) -> None:
    # the dealer's side made spades; seat 1 leads on defence
    state = position({1: "QS 9S AH KH AD", 0: "JS JC AS KS 9C"}, "TS",
                     ["pass", "order", "discard 9C"])
    action = decide(level, state)
    assert effective_suit(action.card, 3) != 3


def test_against_a_loner_dont_lead_trump(level: str) -> None:
    state = position({1: "QS 9S AH KH 9D", 0: "JS JC AS KS AC"}, "TS",
                     ["pass", "pass", "pass", "order alone", "discard TS"])
    action = decide(level, state)
    assert effective_suit(action.card, 3) != 3


def test_lead_back_the_suit_partner_threw_off(level: str) -> None:
    # Hearts trump, the dealer picked up. Trick 1: seat 1 leads the AC, seat 2 follows,
    # partner (seat 3), out of clubs, throws off the 9D; seat 1 wins and leads again.
    hands = {
        1: "AC KD QD 9S TS",
        2: "KC TC 9H TH AD",
        3: "9D AS KS QS JS",
        0: "JH AH KH 9C JC",
    }
    state = position(hands, "QH", ["pass", "pass", "pass", "order", "discard JC"])
    state = state.apply("play AC").apply("play KC").apply("play 9D").apply("play 9C")
    assert state.to_act == 1
    action = decide(level, state)
    assert effective_suit(action.card, 2) == 1


# -- following -----------------------------------------------------------------------


def test_dont_trump_partners_winner(level: str) -> None:
    # Spades trump (seat 1 ordered). Seat 1 leads 9H, partner (seat 2) wins with the AH,
    # seat 3 follows; seat 0, last and out of hearts, throws off instead of trumping.
    hands = {
        1: "9H 9D TD QS KS",
        2: "AH QC KC AC 9S",
        3: "TH KH JD QD KD",
        0: "JS TS AD 9C TC",
    }
    state = position(hands, "AS", ["order", "discard 9C"])
    state = state.apply("play 9H").apply("play AH").apply("play TH")
    action = decide(level, state)
    assert effective_suit(action.card, 3) != 3


def test_second_hand_low(level: str) -> None:
    # Hearts trump (seat 1 ordered). Seat 1 leads the 9C; seat 2 holds KC and TC with
    # the ace unseen: play the ten and leave the trick to partner.
    hands = {
        1: "9C JH AH QH 9D",
        2: "KC TC 9S TS QD",
        3: "AC QC KD AD JD",
        0: "9H TH KS AS TD",
    }
    state = position(hands, "KH", ["order", "discard TD"])
    state = state.apply("play 9C")
    assert text(decide(level, state)) == "play TC"


def test_third_hand_high(level: str) -> None:
    # Hearts trump. Partner (seat 1) leads the 9C, seat 2 plays the TC; seat 3 holds the
    # KC and the JC with the QC and AC unseen: play the king.
    hands = {
        1: "9C JH AH QH 9D",
        2: "TC 9S TS QD AS",
        3: "KC JC KD AD JD",
        0: "9H TH AC QC KS",
    }
    state = position(hands, "KH", ["order", "discard KS"])
    state = state.apply("play 9C").apply("play TC")
    assert text(decide(level, state)) == "play KC"


def test_last_hand_wins_cheaply(level: str) -> None:
    # Hearts trump. Seat 1 leads the KC, seat 2 and seat 3 follow low; seat 0 is last
    # with the AC: take it.
    hands = {
        1: "KC JH AH QH 9D",
        2: "TC 9S TS QD AS",
        3: "9C JC KD AD JD",
        0: "9H TH AC QC KS",
    }
    state = position(hands, "KH", ["order", "discard KS"])
    state = state.apply("play KC").apply("play TC").apply("play 9C")
    assert text(decide(level, state)) == "play AC"
