"""euchre.tournament.prizes: a pool shared by a prize table, every coin accounted for."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.tournament.prizes import (
    DEFAULT_PRIZE_TABLE,
    check_prize_table,
    describe_prize_table,
    place_prizes,
    prizes,
)


@st.composite
def prize_tables(draw: st.DrawFn) -> tuple[int, ...]:
    """A valid table: non-increasing whole percentages summing to at most 100."""
    places = draw(st.integers(1, 8))
    left = 100
    out: list[int] = []
    for _ in range(places):
        if left < 1:
            break
        top = min(left, out[-1] if out else 100)
        out.append(draw(st.integers(1, top)))
        left -= out[-1]
    return tuple(out)


@st.composite
def standings(draw: st.DrawFn) -> list[tuple[int, int]]:
    """Finishers with places as standings give them (ties share a place: 1, 2, 2, 4)."""
    groups = draw(st.lists(st.integers(1, 4), max_size=12))
    out: list[tuple[int, int]] = []
    place, who = 1, 0
    for size in groups:
        for _ in range(size):
            out.append((who, place))
            who += 1
        place += size
    # Sometimes a place is held by nobody the caller lists (a computer's, a leaver's).
    return [r for r in out if not draw(st.booleans()) or r[1] != 2]


@settings(max_examples=400, deadline=None)
@given(pool=st.integers(0, 10**7), table=prize_tables(), ranks=standings())
def test_every_coin_goes_somewhere_in_whole_coins(pool: int, table: tuple[int, ...],
                                                  ranks: list[tuple[int, int]]) -> None:
    out = prizes(pool, table, ranks)
    assert out.paid + out.house == pool
    assert all(isinstance(c, int) and c >= 0 for c in out.payouts.values())
    assert out.house >= 0 and set(out.payouts) == {who for who, _ in ranks}
    place = dict(ranks)
    for a, coins_a in out.payouts.items():
        for b, coins_b in out.payouts.items():
            if place[a] < place[b]:
                assert coins_a >= coins_b  # a higher place never gets less
            if place[a] == place[b]:
                assert abs(coins_a - coins_b) <= 1  # level people: within a coin
    held = {p for _, p in ranks}
    everyone_placed = all(
        any(p <= i + 1 < p + sum(1 for _, q in ranks if q == p) for p in held)
        for i in range(len(table)))
    if sum(table) == 100 and everyone_placed:
        assert out.house == 0


def test_fifty_thirty_twenty() -> None:
    assert DEFAULT_PRIZE_TABLE == (50, 30, 20)
    out = prizes(1000, DEFAULT_PRIZE_TABLE, [(7, 1), (8, 2), (9, 3), (10, 4)])
    assert out.payouts == {7: 500, 8: 300, 9: 200, 10: 0} and out.house == 0


def test_remainders_go_to_the_higher_place() -> None:
    # 50/30/20 of 101: 50, 30, 20, and the coin lost to rounding to the winner.
    assert place_prizes(101, (50, 30, 20)) == [51, 30, 20]
    assert place_prizes(7, (50, 30, 20)) == [4, 2, 1]
    # A table giving 90%: the house keeps 10% (rounded in the house's favour only by the
    # percentages, never by the places: they get every coin of their 90%).
    out = prizes(99, (60, 30), [(1, 1), (2, 2)])
    assert out.payouts == {1: 60, 2: 29} and out.house == 10


def test_level_people_share_their_places_and_the_odd_coins_go_in_listed_order() -> None:
    # Two level at place 2 share 2nd and 3rd: 300 + 200 = 500, 250 each.
    out = prizes(1000, (50, 30, 20), [(1, 1), (2, 2), (3, 2), (4, 4)])
    assert out.payouts == {1: 500, 2: 250, 3: 250, 4: 0}
    # Three level at the top share everything: 101 coins, 34 + 34 + 33, the odd coins to the
    # first two listed.
    out = prizes(101, (50, 30, 20), [(9, 1), (5, 1), (6, 1)])
    assert out.payouts == {9: 34, 5: 34, 6: 33} and out.house == 0
    # Level at 3rd with one paid place left: they split 3rd's 20%.
    out = prizes(100, (50, 30, 20), [(1, 1), (2, 2), (3, 3), (4, 3), (5, 3)])
    assert [out.payouts[i] for i in (3, 4, 5)] == [7, 7, 6]


def test_a_place_nobody_holds_goes_to_the_house() -> None:
    # Second place was a computer's: left out by the caller.
    out = prizes(1000, (50, 30, 20), [(1, 1), (3, 3)])
    assert out.payouts == {1: 500, 3: 200} and out.house == 300
    out = prizes(1000, (50, 30, 20), [])
    assert out.payouts == {} and out.house == 1000


@pytest.mark.parametrize(("table", "message"), [
    ((), "pays 1 to 16 places, not 0"),
    ((60, 50), "gives 110% of the pool: at most 100%"),
    ((20, 30), "a lower place cannot be paid more than a higher one"),
    ((50, 0), "whole percentage from 1 to 100, not 0"),
    ((50.5,), "whole percentage from 1 to 100, not 50.5"),
])
def test_bad_tables_are_refused(table: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        check_prize_table(table)


def test_bad_ranks_and_pools_are_refused() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        prizes(10, (100,), [(1, 1), (1, 2)])
    with pytest.raises(ValueError, match="2 people share place 2, so nobody can be placed 3"):
        prizes(10, (100,), [(1, 1), (2, 2), (3, 2), (4, 3)])
    with pytest.raises(ValueError, match="a place is a whole number from 1, not 0"):
        prizes(10, (100,), [(1, 0)])
    with pytest.raises(ValueError, match="a pool is a whole number of coins from 0, not -1"):
        prizes(-1, (100,), [])


def test_the_table_in_words() -> None:
    assert describe_prize_table((50, 30, 20)) == "1st 50%, 2nd 30%, 3rd 20% of the pool"
    assert describe_prize_table((60, 30)) == "1st 60%, 2nd 30% of the pool; 10% to the house"
    assert describe_prize_table([12, 11, 10, 10, 10, 10, 10, 10, 10, 5, 2]).startswith(
        "1st 12%, 2nd 11%, 3rd 10%, 4th 10%")
