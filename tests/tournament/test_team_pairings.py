"""euchre.tournament.round_robin and swiss_round: the pairings' promises for 2..32 pairs."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.tournament import MatchResult, TeamRound, rank_teams, round_robin, swiss_round

team_counts = st.integers(min_value=2, max_value=32)


def check_round(teams: int, rnd: TeamRound) -> None:
    """Everyone exactly once in the round (playing or on a bye); nobody plays themself."""
    assert sorted(rnd.teams()) == list(range(teams))
    assert all(a != b for a, b in rnd.matches)
    assert len(rnd.byes) == teams % 2


@settings(max_examples=60, deadline=None)
@given(teams=team_counts)
def test_round_robin_complete_and_balanced(teams: int) -> None:
    rounds = round_robin(teams)
    assert len(rounds) == teams - 1 + teams % 2
    met: Counter[frozenset[int]] = Counter()
    first: Counter[int] = Counter()
    second: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for rnd in rounds:
        check_round(teams, rnd)
        for a, b in rnd.matches:
            met[frozenset((a, b))] += 1
            first[a] += 1
            second[b] += 1
        byes.update(rnd.byes)
    # Every pair meets every other exactly once.
    assert set(met) == {frozenset(p) for p in combinations(range(teams), 2)}
    assert set(met.values()) == {1}
    # An odd count: exactly one bye each; even: none.
    assert byes == (Counter(range(teams)) if teams % 2 else Counter())
    # Seats 0 and 2 about half the time.
    assert all(abs(first[t] - second[t]) <= 1 for t in range(teams))
    assert round_robin(teams) == rounds


def test_round_robin_of_three_says_each_bye() -> None:
    assert round_robin(3) == [TeamRound(((1, 2),), (0,)), TeamRound(((2, 0),), (1,)),
                              TeamRound(((0, 1),), (2,))]


@pytest.mark.parametrize("teams", [0, 1, 65, True, 2.0, "4"])
def test_bad_counts_are_refused(teams: object) -> None:
    with pytest.raises(ValueError, match="teams must be a whole number from 2 to 64"):
        round_robin(teams)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="teams must be"):
        swiss_round(teams, [])  # type: ignore[arg-type]


def fewest_rematches(teams: list[int], met: set[frozenset[int]]) -> int:
    """By brute force over every pairing of ``teams`` (an even count up to 10)."""
    if not teams:
        return 0
    top, rest = teams[0], teams[1:]
    return min((frozenset((top, other)) in met)
               + fewest_rematches([t for t in rest if t != other], met) for other in rest)


def play_swiss(teams: int, rounds: int, seed: int,
               check: bool = True) -> tuple[list[TeamRound], list[MatchResult], list[int]]:
    """A Swiss event with random results, checking each round's promises as it goes."""
    rng = random.Random(seed)
    results: list[MatchResult] = []
    byes: list[int] = []
    played: list[TeamRound] = []
    for number in range(rounds):
        rnd = swiss_round(teams, results, byes)
        assert swiss_round(teams, list(results), list(byes)) == rnd  # deterministic
        if check:
            check_round(teams, rnd)
            met = {frozenset((r.first, r.second)) for r in results}
            rematches = sum(frozenset(m) in met for m in rnd.matches)
            playing = [t for t in range(teams) if t not in rnd.byes]
            if len(playing) <= 10:
                assert rematches == fewest_rematches(playing, met)
            elif number <= len(playing) // 2 - 1:
                # Everyone has met at most half the others: a pairing without a rematch
                # exists (Dirac), so there is none.
                assert rematches == 0
            if rnd.byes:
                # The bye: the lowest placed of those with the fewest byes.
                order = [s.record.team for s in rank_teams(
                    teams, results, byes, ("match_wins", "points_difference"))]
                had = Counter(byes)
                fewest = min(had[t] for t in range(teams))
                assert rnd.byes[0] == [t for t in order if had[t] == fewest][-1]
        for a, b in rnd.matches:
            results.append(MatchResult(a, b, rng.randrange(11), rng.randrange(11)))
        byes.extend(rnd.byes)
        played.append(rnd)
    return played, results, byes


@settings(max_examples=40, deadline=None)
@given(teams=team_counts, data=st.data())
def test_swiss_pairs_without_rematches_where_the_counts_allow(teams: int,
                                                               data: st.DataObject) -> None:
    rounds = data.draw(st.integers(min_value=1, max_value=min(teams + 1, 8)), label="rounds")
    seed = data.draw(st.integers(min_value=0, max_value=2**32), label="seed")
    play_swiss(teams, rounds, seed)


@pytest.mark.parametrize("teams", [8, 9, 16, 32])
def test_swiss_runs_as_long_as_a_round_robin(teams: int) -> None:
    """Swiss over as many rounds as a round robin has: still one match each a round, rematches
    only as the brute force (small) or the bound (large) allows."""
    play_swiss(teams, teams - 1 + teams % 2, seed=teams)


def test_swiss_first_round_pairs_seeds_in_order() -> None:
    assert swiss_round(6, []) == TeamRound(((0, 1), (2, 3), (4, 5)))
    assert swiss_round(5, []) == TeamRound(((0, 1), (2, 3)), (4,))


def test_swiss_pairs_by_score_and_avoids_the_rematch() -> None:
    # Round 1: 0 beat 1, 3 beat 2. Round 2 puts the winners together, the losers together
    # (2 lost by less than 1 did, so 2 is placed above 1).
    results = [MatchResult(0, 1, 10, 4), MatchResult(2, 3, 6, 10)]
    assert swiss_round(4, results) == TeamRound(((0, 3), (2, 1)))
    # Round 3: 0 (2 wins), 3 and 2 (one each: 3 ahead on points), 1. 0 has met 1 and 3, so
    # it meets 2 and 3 meets 1.
    results += [MatchResult(0, 3, 10, 8), MatchResult(1, 2, 5, 10)]
    assert swiss_round(4, results) == TeamRound(((0, 2), (3, 1)))


def test_swiss_bye_goes_to_the_lowest_without_one() -> None:
    results = [MatchResult(0, 1, 10, 2), MatchResult(2, 3, 10, 9)]
    # 4 had the bye in round 1 (a win): 4 and 0 and 2 on one win, 1 and 3 on none; 1 is last
    # on points difference.
    assert swiss_round(5, results, [4]).byes == (1,)
    with pytest.raises(ValueError, match="no pair 7 among 5 to have a bye"):
        swiss_round(5, results, [7])
    with pytest.raises(ValueError, match="no pair 5 among 5"):
        swiss_round(5, [MatchResult(0, 5, 1, 2)])
