"""Sampling the unseen cards: never a card the view rules out, always the right counts."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from euchre import Rules, deal
from euchre.bots.sampling import (
    bid_weight,
    clue_weight,
    informative_bids,
    is_consistent,
    knowledge,
    play_clues,
    played_by_seat,
    sample_hands,
)
from euchre.cards import effective_suit, parse_card
from euchre.hand import HandState
from euchre.shuffle import deal_from_deck, shuffled_deck

PRESETS = ["classic", "stick-the-dealer", "canadian", "kitchen-table", "benny", "short",
           "redeal"]


def random_state(preset: str, seed: int, steps: int) -> HandState:
    """A hand dealt and played at random for up to ``steps`` actions (not over)."""
    rng = random.Random(seed)
    rules = Rules.preset(preset)
    d = deal_from_deck(shuffled_deck(rules.benny, rng), rng.randrange(4))
    state = HandState(rules, rng.randrange(4), d)
    for _ in range(steps):
        legal = state.legal_actions()
        nxt = state.apply(legal[rng.randrange(len(legal))])
        if nxt.is_over:
            break
        state = nxt
    return state


def true_voids(state: HandState) -> list[set[int]]:
    """Per seat, the effective suits it failed to follow (worked out from the full state)."""
    out: list[set[int]] = [set(), set(), set(), set()]
    leader, trick = state.trick
    tricks = [(t[0], t[1]) for t in state.tricks]
    if trick:
        tricks.append((leader, trick))
    for lead, cards in tricks:
        seat = lead
        led = effective_suit(cards[0], state.trump)
        for c in cards:
            while state.sits_out(seat):
                seat = (seat + 1) % 4
            if effective_suit(c, state.trump) != led:
                out[seat].add(led)
            seat = (seat + 1) % 4
    return out


@settings(max_examples=150, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 40),
    viewer=st.integers(0, 3),
)
def test_samples_never_break_what_the_view_shows(
    preset: str, seed: int, steps: int, viewer: int
) -> None:
    state = random_state(preset, seed, steps)
    view = state.view(viewer)
    k = knowledge(view)
    played = played_by_seat(view)
    all_played = played[0] | played[1] | played[2] | played[3]
    mine = state.hand_mask(viewer)
    voids = true_voids(state) if state.trump >= 0 else [set(), set(), set(), set()]
    upcard_down = not view.upcard_taken
    rng = random.Random(seed)
    for _ in range(20):
        hands = sample_hands(k, rng)
        assert is_consistent(k, hands)
        assert hands[viewer] == mine
        for s in range(4):
            assert bin(hands[s]).count("1") == bin(state.hand_mask(s)).count("1")
            assert not hands[s] & all_played
            if s != viewer:
                assert not hands[s] & mine
            for c in range(25):
                if hands[s] >> c & 1 and state.trump >= 0:
                    assert effective_suit(c, state.trump) not in voids[s]
            if upcard_down:
                assert not hands[s] >> state.upcard & 1
        for a in range(4):
            for b in range(a + 1, 4):
                assert not hands[a] & hands[b]


@settings(max_examples=80, deadline=None)
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6), steps=st.integers(0, 40),
       viewer=st.integers(0, 3))
def test_the_real_deal_fits_the_knowledge(preset: str, seed: int, steps: int, viewer: int) -> None:
    state = random_state(preset, seed, steps)
    view = state.view(viewer)
    real = tuple(state.hand_mask(s) for s in range(4))
    if view.upcard_taken and not any(real[s] >> view.upcard & 1 for s in range(4)):
        played = played_by_seat(view)
        if not (played[0] | played[1] | played[2] | played[3]) >> view.upcard & 1:
            return  # the dealer discarded the upcard: the one thing sampling assumes away
    assert is_consistent(knowledge(view), (real[0], real[1], real[2], real[3]))


def test_a_seat_that_showed_out_gets_none_of_that_suit() -> None:
    # Hearts trump. West leads a club; North has none and trumps: North is void in clubs.
    state = deal(
        Rules(), 3,
        [["9C", "TC", "QC", "KC", "AC"], ["JC", "9D", "TD", "QD", "KD"],
         ["AH", "KH", "QH", "TH", "9H"], ["JH", "JD", "AD", "9S", "TS"]],
        ["QS", "KS", "AS", "JS"],
    )
    state = state.apply("pass").apply("pass").apply("pass").apply("pass")
    state = state.apply("call H")
    state = state.apply("play 9C").apply("play JC").apply("play 9H")
    view = state.view(3)
    k = knowledge(view)
    rng = random.Random(1)
    clubs_and_jc = sum(1 << c for c in range(25) if c < 24 and effective_suit(c, 2) == 0)
    for _ in range(200):
        hands = sample_hands(k, rng)
        assert not hands[2] & clubs_and_jc


def test_the_dealer_keeps_the_upcard_they_picked_up() -> None:
    state = deal(
        Rules(), 0,
        [["9C", "TC", "QC", "KC", "AC"], ["JC", "9D", "TD", "QD", "KD"],
         ["AH", "KH", "QH", "TH", "9H"], ["JH", "JD", "AD", "9S", "TS"]],
        ["QS", "KS", "AS", "JS"],
    )
    state = state.apply("order").apply("discard 9C")
    view = state.view(1)
    k = knowledge(view)
    rng = random.Random(2)
    qs = 3 * 6 + 3
    for _ in range(50):
        assert sample_hands(k, rng)[0] >> qs & 1


def test_a_pass_makes_a_strong_hand_in_the_upcard_suit_less_likely() -> None:
    # Seat 1 passed the Jack of Spades; hands where seat 1 holds every top spade weigh less.
    state = deal(
        Rules(), 0,
        [["9C", "TC", "QC", "KC", "AC"], ["JS", "JC", "AS", "KS", "QS"],
         ["AH", "KH", "QH", "TH", "9H"], ["JH", "JD", "AD", "9D", "TS"]],
        ["9S", "TD", "QD", "KD"],
    )
    state = state.apply("pass")
    view = state.view(2)
    k = knowledge(view)
    bids = informative_bids(view)
    assert [(b.seat, b.round, b.suit) for b in bids] == [(1, 1, -1)]
    strong = (state.hand_mask(0), state.hand_mask(1), state.hand_mask(2), state.hand_mask(3))
    weak = (strong[0], state.hand_mask(3), strong[2], strong[1])
    assert bid_weight(view, k, strong, bids) < bid_weight(view, k, weak, bids)


def test_a_third_hand_that_did_not_win_probably_could_not() -> None:
    # Hearts trump. Seat 1 leads the 9C, seat 2 wins it so far with the QC, and seat 3
    # (third hand, the other side winning) plays the TC although it holds the KC.
    state = deal(
        Rules(), 0,
        [["9H", "TH", "KS", "AS", "AC"], ["9C", "JH", "AH", "QH", "9D"],
         ["QC", "9S", "TS", "QD", "KD"], ["TC", "KC", "AD", "JD", "TD"]],
        ["KH", "JC", "JS", "QS"],
    )
    state = state.apply("order").apply("discard AC")
    state = state.apply("play 9C").apply("play QC").apply("play TC")
    view = state.view(0)
    clues = play_clues(view)
    kc, ac = parse_card("KC"), parse_card("AC")
    assert [(c.seat, c.winners) for c in clues] == [(3, 1 << kc | 1 << ac)]
    real = (state.hand_mask(0), state.hand_mask(1), state.hand_mask(2), state.hand_mask(3))
    swapped = list(real)
    swapped[3] = real[3] & ~(1 << kc) | 1 << parse_card("JC")
    assert clue_weight(real, clues) < clue_weight((swapped[0], swapped[1], swapped[2],
                                                   swapped[3]), clues) == 1.0
