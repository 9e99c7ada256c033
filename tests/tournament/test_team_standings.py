"""euchre.tournament.rank_teams: team events' tie-breaks, stated as data."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.tournament import (
    TEAM_TIE_BREAKS,
    MatchResult,
    TeamStanding,
    describe_tie_breaks,
    rank_teams,
    round_robin,
    team_records,
)


def order(standings: list[TeamStanding]) -> list[tuple[int, int]]:
    """(place, pair) down the standings."""
    return [(s.place, s.record.team) for s in standings]


def test_default_tie_breaks_are_stated() -> None:
    assert TEAM_TIE_BREAKS == ("match_wins", "points_difference", "head_to_head")
    assert describe_tie_breaks() == [
        "match wins (a drawn match counts half, a bye counts as a win)",
        "points difference (points made less points conceded)",
        "match wins in the matches between the pairs still level",
    ]


def test_records_count_wins_draws_losses_and_points() -> None:
    records = team_records(3, [MatchResult(0, 1, 10, 7), MatchResult(1, 2, 5, 5)], byes=[2])
    assert records[0].wins == 1 and records[0].points_difference == 3
    assert records[1].losses == 1 and records[1].draws == 1 and records[1].points_for == 12
    assert records[2].match_wins == 3  # a bye (2) and a draw (1)


def test_match_wins_then_points_difference() -> None:
    results = [MatchResult(0, 1, 10, 2), MatchResult(2, 3, 10, 9), MatchResult(0, 2, 4, 10),
               MatchResult(1, 3, 10, 3)]
    # 0: W(+8) L(-6) = 1 win, +2; 2: W(+1) W(+6) = 2 wins; 1: L(-8) W(+7) = 1 win, -1; 3: 0.
    assert order(rank_teams(4, results)) == [(1, 2), (2, 0), (3, 1), (4, 3)]


def test_head_to_head_among_the_level_pairs_only() -> None:
    # 0, 1 and 2 each win one of their matches with each other, by the same margins; 3 loses
    # to all, so each has two wins and an equal points difference; head to head among three
    # is one win each: still level; pair 3 is last.
    results = [MatchResult(0, 1, 10, 5), MatchResult(1, 2, 10, 5), MatchResult(2, 0, 10, 5),
               MatchResult(0, 3, 10, 5), MatchResult(1, 3, 10, 5), MatchResult(2, 3, 10, 5)]
    assert order(rank_teams(4, results)) == [(1, 0), (1, 1), (1, 2), (4, 3)]
    results = [MatchResult(0, 1, 10, 8), MatchResult(1, 2, 10, 6), MatchResult(2, 0, 10, 8),
               MatchResult(0, 3, 10, 8), MatchResult(1, 3, 8, 10), MatchResult(2, 3, 6, 10)]
    # 0: W+2 L-2 W+2 = 2 wins, +2; 1: L-2 W+4 L-2 = 1 win, 0; 2: L-4 W+2 L-4 = 1 win, -6;
    # 3: L-2 W+2 W+4 = 2 wins, +4. So 3 (+4) then 0 (+2).
    assert order(rank_teams(4, results)) == [(1, 3), (2, 0), (3, 1), (4, 2)]
    ranked = rank_teams(4, results, tie_breaks=("match_wins", "head_to_head"))
    # 0 and 3 level on wins; 0 beat 3 head to head.
    assert order(ranked)[:2] == [(1, 0), (2, 3)]


def test_unknown_or_repeated_tie_breaks_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-break 'luck'"):
        rank_teams(2, [], tie_breaks=("luck",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="named twice"):
        describe_tie_breaks(("match_wins", "match_wins"))
    with pytest.raises(ValueError, match="cannot play itself"):
        rank_teams(2, [MatchResult(1, 1, 3, 3)])
    with pytest.raises(ValueError, match="points must be whole numbers"):
        rank_teams(2, [MatchResult(0, 1, -1, 3)])


@settings(max_examples=60, deadline=None)
@given(teams=st.integers(2, 16), data=st.data())
def test_rank_is_a_sorted_partition(teams: int, data: st.DataObject) -> None:
    """Every pair once; places ascend, shared only by pairs level on every tie-break; a pair
    with more match wins is never placed below one with fewer."""
    results = [MatchResult(a, b, data.draw(st.integers(0, 10)), data.draw(st.integers(0, 10)))
               for rnd in round_robin(teams) for a, b in rnd.matches]
    standings = rank_teams(teams, results)
    assert sorted(s.record.team for s in standings) == list(range(teams))
    for upper, lower in itertools.pairwise(standings):
        assert upper.place <= lower.place
        assert upper.record.match_wins >= lower.record.match_wins
        if upper.place == lower.place:
            assert upper.record.match_wins == lower.record.match_wins
            assert upper.record.points_difference == lower.record.points_difference
            assert upper.record.team < lower.record.team
    assert rank_teams(teams, list(reversed(results))) == standings
