"""Individual scores, loner bonuses and the standings' tie-breaks."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.tournament import (
    HandScore,
    Table,
    Tally,
    hand_points,
    schedule,
    standings,
    table_winner,
    table_winner_or_last,
    tallies,
)

TABLE: Table = ((0, 2), (1, 3))


@pytest.mark.parametrize(
    ("hand", "bonus", "expected"),
    [
        (HandScore(0, 3), False, {0: 1, 2: 1, 1: 0, 3: 0}),
        (HandScore(1, 4), False, {0: 0, 2: 0, 1: 1, 3: 1}),
        (HandScore(0, 5), False, {0: 2, 2: 2, 1: 0, 3: 0}),
        (HandScore(0, 2), False, {0: 0, 2: 0, 1: 2, 3: 2}),
        (HandScore(0, 5, lone=2), False, {0: 4, 2: 4, 1: 0, 3: 0}),
        (HandScore(0, 5, lone=2), True, {0: 4, 2: 5, 1: 0, 3: 0}),
        (HandScore(1, 4, lone=3), True, {0: 0, 2: 0, 1: 1, 3: 1}),
        (HandScore(1, 0, lone=1), False, {0: 2, 2: 2, 1: 0, 3: 0}),
        (HandScore(1, 0, lone=1), True, {0: 3, 2: 3, 1: 0, 3: 0}),
        (HandScore(1, 5), True, {0: 0, 2: 0, 1: 2, 3: 2}),
    ],
)
def test_each_person_scores_their_sides_points_with_the_loner_bonuses(
    hand: HandScore, bonus: bool, expected: dict[int, int]
) -> None:
    assert hand_points(TABLE, hand, bonus) == expected


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        (HandScore(2, 3), "makers must be 0"),
        (HandScore(0, 6), "0 to 5"),
        (HandScore(0, -1), "0 to 5"),
        (HandScore(0, 5, lone=1), "not one of the makers"),
    ],
)
def test_a_hand_that_does_not_fit_is_refused(hand: HandScore, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        hand_points(TABLE, hand)


def test_tallies_add_rounds_and_count_loners_and_euchres() -> None:
    plan = schedule(8, 2)
    first = [(plan[0][0], [HandScore(0, 5, lone=plan[0][0][0][0]), HandScore(1, 1)]),
             (plan[0][1], [HandScore(0, 3)])]
    second = [(plan[1][0], [HandScore(1, 4)]), (plan[1][1], [])]
    out = tallies(8, [first, second], loner_bonus=True)
    lone = plan[0][0][0][0]
    assert out[lone].loners_made == 1
    assert out[lone].rounds[0] == 5 + 2  # the lone march, then defending a euchre
    for person in plan[0][0][1]:
        assert out[person].euchred == 1
    assert all(len(t.rounds) == 2 for t in out)


def test_tallies_refuse_a_person_outside_the_field() -> None:
    with pytest.raises(ValueError, match="no person 9 among 8"):
        tallies(8, [[(((0, 9), (1, 2)), [])]])


def test_standings_apply_the_tie_breaks_in_order_and_share_full_ties() -> None:
    people = [
        Tally(0, [5, 5]),  # 10 points
        Tally(1, [4, 6], loners_made=1),  # 10 points, a loner made: ahead of 0
        Tally(2, [6, 4], loners_made=1, euchred=2),  # behind 1 on euchres
        Tally(3, [7, 3], loners_made=1, euchred=2),  # behind 2 on the last round
        Tally(4, [3, 3]),
        Tally(5, [3, 3]),  # fully tied with 4: same place
        Tally(6, [12]),
    ]
    table = standings(people)
    assert [(s.place, s.tally.person) for s in table] == [
        (1, 6), (2, 1), (3, 2), (4, 3), (5, 0), (6, 4), (6, 5)]


def test_table_winner_is_the_side_with_more_points_or_none() -> None:
    assert table_winner(TABLE, [HandScore(0, 3), HandScore(1, 5)]) == 1
    assert table_winner(TABLE, [HandScore(0, 3), HandScore(1, 3)]) is None
    assert table_winner(TABLE, [HandScore(1, 2)]) == 0


hands = st.builds(HandScore, st.sampled_from([0, 1]), st.integers(0, 5), st.none())


@settings(max_examples=100, deadline=None)
@given(st.lists(hands, max_size=8), st.booleans())
def test_partners_score_alike_without_a_loner_and_one_side_scores_per_hand(
    played: list[HandScore], bonus: bool
) -> None:
    for hand in played:
        points = hand_points(TABLE, hand, bonus)
        assert points[0] == points[2] and points[1] == points[3]
        assert (points[0] == 0) != (points[1] == 0)


def test_a_tie_goes_to_the_pair_that_scored_the_last_hand() -> None:
    assert table_winner_or_last(TABLE, [HandScore(0, 3), HandScore(1, 3)]) == 1
    assert table_winner_or_last(TABLE, [HandScore(1, 3), HandScore(1, 1)]) == 0
    assert table_winner_or_last(TABLE, [HandScore(0, 5), HandScore(1, 3)]) == 0
    with pytest.raises(ValueError, match="no hands"):
        table_winner_or_last(TABLE, [])
