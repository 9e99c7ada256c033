"""``euchre.sampling.resample``: whole hands that give a seat exactly the view it has."""

from __future__ import annotations

import dataclasses
import random

import pytest
from engine_helpers import act, deal
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import PRESETS, HandState, Rules
from euchre.cards import parse_card
from euchre.sampling import played_by_seat, resample
from euchre.shuffle import deal_from_deck, shuffled_deck

RULE_MIXES = [
    *PRESETS.values(),
    Rules(farmers_hand="three-nines-two-tens", benny=True, defend_alone=True),
    Rules(farmers_hand="nines-and-tens", dealer_exchanges_when_partner_alone=False,
          lead_when_sitting_out="loner-left"),
]


def random_states(rules: Rules, rng: random.Random) -> list[HandState]:
    """Every state of one hand dealt and played at random, first to last."""
    d = deal_from_deck(shuffled_deck(rules.benny, rng), rng.randrange(4))
    state = HandState(rules, rng.randrange(4), d)
    states = [state]
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        states.append(state)
    return states


def seen_cards(state: HandState, seat: int) -> set[int]:
    """The cards ``seat`` holds or has seen played, taken from the full state."""
    played = {c for _, cards, _ in state.tricks for c in cards} | set(state.trick[1])
    return set(state.hand(seat)) | played


@settings(max_examples=300, deadline=None)
@given(rules=st.sampled_from(RULE_MIXES), seed=st.integers(0, 10**9), seat=st.integers(0, 3),
       at=st.floats(0, 1))
def test_a_resampled_hand_gives_the_seat_the_same_view(
    rules: Rules, seed: int, seat: int, at: float
) -> None:
    rng = random.Random(seed)
    states = random_states(rules, rng)
    state = states[min(len(states) - 1, int(at * len(states)))]
    view = state.view(seat)
    for _ in range(3):
        again = resample(view, rng)
        assert again.view(seat) == view
        assert seen_cards(again, seat) == seen_cards(state, seat)
        assert again.history() == [
            (s, a if a is not None else b)
            for (s, a), (_, b) in zip(view.history, again.history(), strict=True)
        ]


def farmer_states(rules: Rules, rng: random.Random) -> list[HandState]:
    """Every state of a hand in which a random seat was dealt three nines and two tens."""
    from euchre.hand import Deal

    farmer = rng.randrange(4)
    deck = list(range(25 if rules.benny else 24))
    nines = rng.sample([c for c in deck if c < 24 and c % 6 == 0], 3)
    tens = rng.sample([c for c in deck if c < 24 and c % 6 == 1], 2)
    rest = [c for c in deck if c not in nines + tens]
    rng.shuffle(rest)
    hands = [tuple(nines + tens) if s == farmer else tuple(rest.pop() for _ in range(5))
             for s in range(4)]
    state = HandState(rules, (farmer - 1) % 4, Deal(tuple(hands), tuple(rest), "3-2"))
    states = [state]
    while not state.is_over:
        legal = state.legal_actions()
        state = state.apply(legal[rng.randrange(len(legal))])
        states.append(state)
    return states


@settings(max_examples=200, deadline=None)
@given(rule=st.sampled_from(["nines-and-tens", "three-nines-two-tens"]), benny=st.booleans(),
       seed=st.integers(0, 10**9), seat=st.integers(0, 3), at=st.floats(0, 1))
def test_a_farmers_hand_resamples_to_the_same_view(
    rule: str, benny: bool, seed: int, seat: int, at: float
) -> None:
    rng = random.Random(seed)
    states = farmer_states(Rules(farmers_hand=rule, benny=benny), rng)  # type: ignore[arg-type]
    state = states[min(len(states) - 1, int(at * len(states)))]
    view = state.view(seat)
    for _ in range(3):
        assert resample(view, rng).view(seat) == view


def test_the_hidden_cards_are_dealt_afresh() -> None:
    rng = random.Random(7)
    state = random_states(Rules(), rng)[0]
    view = state.view(0)
    others = {tuple(resample(view, rng).hand(2)) for _ in range(30)}
    assert len(others) > 20  # many ways to hold partner's five of the 19 unseen cards
    assert all(tuple(view.hand) == tuple(resample(view, rng).hand(0)) for _ in range(5))


CLASSIC = Rules()
HANDS = "9C TC JC QC KC|AC 9D TD JD QD|KD AD 9H TH JH|QH KH AH 9S TS"


def test_an_upcard_turned_down_stays_in_the_kitty() -> None:
    state = act(deal(CLASSIC, 3, HANDS, "JS QS KS AS"), "pass", "pass", "pass", "pass")
    for _ in range(20):
        again = resample(state.view(1), random.Random(_))
        assert parse_card("JS") not in {c for s in range(4) for c in again.hand(s)}
        assert again.deal.kitty[0] == parse_card("JS")


def test_a_picked_up_upcard_is_in_the_dealers_hand_until_played() -> None:
    state = act(deal(CLASSIC, 3, HANDS, "JS QS KS AS"), "order", "discard 9S")
    assert state.view(0).discard is None  # seat 0 did not see the discard
    for i in range(20):
        again = resample(state.view(0), random.Random(i))
        assert parse_card("JS") in again.hand(3)
        assert again.discard not in {c for s in range(4) for c in again.hand(s)}
    # The dealer sees its own discard, and it is the one in every deal it draws.
    for i in range(5):
        assert resample(state.view(3), random.Random(i)).discard == parse_card("9S")


def test_a_dealer_out_of_the_upcards_suit_discarded_it() -> None:
    # Hearts are trump; the dealer (3) takes the AH, discards it, and shows out of trump on
    # the first trick: every deal drawn must have put the upcard back down as the discard.
    hands = "9H TH JD JC QC|KC AC 9D TD QD|KD AD QS KS AS|9C TC 9S TS JS"
    state = act(deal(CLASSIC, 3, hands, "AH KH QH JH"), "order", "discard AH")
    state = act(state, "play 9H", "play KC", "play QS", "play 9C")
    view = state.view(1)
    for i in range(20):
        again = resample(view, random.Random(i))
        assert again.view(1) == view
        assert again.discard == parse_card("AH")


def test_another_farmers_swap_is_filled_in_with_nines_and_tens() -> None:
    rules = Rules(farmers_hand="nines-and-tens")
    hands = "9C TC 9D TD 9H|AC JD QD KD AD|KC AH JH QH KH|JC QC JS QS KS"
    state = act(deal(rules, 3, hands, "AS TH 9S TS"), "farmer swap 9C TC 9D")
    view = state.view(2)
    assert view.history[0][1] is None  # seat 2 did not see what was swapped
    for i in range(20):
        again = resample(view, random.Random(i))
        assert again.view(2) == view
        gave = again.history()[0][1].cards
        assert all(c % 6 in (0, 1) for c in gave)  # nines and tens


def test_played_by_seat_follows_the_seats_round_the_table() -> None:
    rng = random.Random(3)
    for rules in RULE_MIXES:
        state = random_states(rules, rng)[-1]
        played = played_by_seat(state.view(0))
        for s, a in state.history():
            if a.kind == "play":
                assert played[s] >> a.card & 1


def test_a_view_no_hand_gives_is_refused() -> None:
    state = act(deal(CLASSIC, 3, HANDS, "JS QS KS AS"), "order", "discard 9S", "play 9C")
    view = state.view(1)
    # Seat 1 claims to hold the card seat 0 just played.
    bad = dataclasses.replace(view, hand=(*view.hand[:-1], parse_card("9C")))
    with pytest.raises(ValueError, match="no deal"):
        resample(bad, random.Random(0))
