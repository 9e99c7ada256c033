"""euchre.tournament.schedule and kings_table: the pairings' promises, over 4..64 people."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.tournament import Round, kings_table, partnerships, schedule

people_counts = st.sampled_from(range(4, 65, 4))
round_counts = st.integers(min_value=1, max_value=16)


def partner_counts(rounds: list[Round]) -> Counter[tuple[int, int]]:
    """How often each two people were partners."""
    out: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for pair_a, pair_b in tables:
            for a, c in (pair_a, pair_b):
                out[min(a, c), max(a, c)] += 1
    return out


def opponent_counts(rounds: list[Round]) -> Counter[tuple[int, int]]:
    """How often each two people sat against each other."""
    out: Counter[tuple[int, int]] = Counter()
    for tables in rounds:
        for (a, c), (b, d) in tables:
            for x in (a, c):
                for y in (b, d):
                    out[min(x, y), max(x, y)] += 1
    return out


@settings(max_examples=200, deadline=None)
@given(people=people_counts, rounds=round_counts)
def test_everyone_plays_once_a_round_and_partners_spread(people: int, rounds: int) -> None:
    plan = schedule(people, rounds)
    assert len(plan) == rounds
    for tables in plan:
        assert len(tables) == people // 4
        seated = [x for (a, c), (b, d) in tables for x in (a, c, b, d)]
        # Nobody sits out and nobody is at two tables (or twice at one).
        assert sorted(seated) == list(range(people))
    counts = partner_counts(plan)
    assert max(counts.values()) <= math.ceil(rounds / (people - 1))
    if rounds < people:
        assert max(counts.values()) == 1  # the whist promise: no two people partner twice
    partners: dict[int, set[int]] = {p: set() for p in range(people)}
    for a, c in counts:
        partners[a].add(c)
        partners[c].add(a)
    assert all(len(p) == min(rounds, people - 1) for p in partners.values())


@settings(max_examples=60, deadline=None)
@given(people=people_counts, rounds=round_counts, first=st.integers(min_value=1, max_value=16))
def test_the_same_arguments_give_the_same_schedule_and_a_longer_one_extends_it(
    people: int, rounds: int, first: int
) -> None:
    plan = schedule(people, rounds)
    assert plan == schedule(people, rounds)
    shorter = min(first, rounds)
    assert schedule(people, shorter) == plan[:shorter]


def test_opponent_repeats_stay_within_the_stated_bound_for_every_count() -> None:
    # docs/tournaments.md states this bound; it is measured here over the whole range.
    for people in range(4, 65, 4):
        for rounds in range(1, 17):
            most = max(opponent_counts(schedule(people, rounds)).values())
            spread = math.ceil(2 * rounds / (people - 1))
            assert most <= spread + (2 if people == 8 else 1), (people, rounds, most)


def test_four_people_take_turns_partnering_each_other() -> None:
    assert schedule(4, 3) == [
        [((0, 3), (1, 2))],
        [((0, 2), (1, 3))],
        [((0, 1), (2, 3))],
    ]
    assert schedule(4, 4)[3] == schedule(4, 1)[0]


@pytest.mark.parametrize(
    ("people", "rounds", "message"),
    [
        (6, 2, "multiple of four"),
        (0, 2, "from 4 to 64"),
        (68, 2, "from 4 to 64"),
        (8, 0, "rounds must be from 1"),
        (8, 65, "rounds must be from 1"),
        (8.0, 2, "whole number"),
        (True, 2, "whole number"),
        (8, "3", "whole number"),
    ],
)
def test_bad_counts_are_refused_with_the_reason(people: object, rounds: object,
                                                message: str) -> None:
    with pytest.raises(ValueError, match=message):
        schedule(people, rounds)  # type: ignore[arg-type]


def test_partnerships_need_an_even_count() -> None:
    with pytest.raises(ValueError, match="even"):
        partnerships(7, 0)


def test_kings_table_moves_winners_up_and_losers_down_and_splits_them() -> None:
    tables: Round = [((0, 1), (2, 3)), ((4, 5), (6, 7)), ((8, 9), (10, 11))]
    # Table 0: (2, 3) won; table 1: (4, 5) won; table 2: (10, 11) won.
    nxt = kings_table(tables, [1, 0, 1])
    assert nxt == [
        ((2, 4), (3, 5)),  # the king's winners stay, the winners of table 1 come up
        ((0, 10), (1, 11)),  # the king's losers come down, the foot's winners come up
        ((6, 8), (7, 9)),  # table 1's losers come down, the foot's losers stay
    ]


@settings(max_examples=100, deadline=None)
@given(people=people_counts, data=st.data())
def test_kings_table_seats_everyone_once_and_splits_every_partnership(
    people: int, data: st.DataObject
) -> None:
    tables = schedule(people, 1)[0]
    winners = data.draw(st.lists(st.sampled_from([0, 1]), min_size=len(tables),
                                 max_size=len(tables)))
    nxt = kings_table(tables, winners)
    seated = [x for (a, c), (b, d) in nxt for x in (a, c, b, d)]
    assert sorted(seated) == list(range(people))
    before = set(partner_counts([tables]))
    assert not before & set(partner_counts([nxt]))
    # The king's winners stay at the king's table.
    assert set(tables[0][winners[0]]) <= {x for pair in nxt[0] for x in pair}


def test_kings_table_refuses_bad_results() -> None:
    tables: Round = [((0, 1), (2, 3)), ((4, 5), (6, 7))]
    with pytest.raises(ValueError, match="2 tables but 1 winners"):
        kings_table(tables, [0])
    with pytest.raises(ValueError, match=r"0 \(seats 0 and 2\) or 1"):
        kings_table(tables, [0, 2])
    with pytest.raises(ValueError, match="two tables"):
        kings_table([((0, 1), (2, 3)), ((0, 5), (6, 7))], [0, 0])
    with pytest.raises(ValueError, match="at least one"):
        kings_table([], [])
