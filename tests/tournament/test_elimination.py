"""euchre.tournament single and double elimination: brackets for 2..32 pairs end with one
winner, and every loss is counted."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from euchre.tournament import (
    Bracket,
    bracket_order,
    double_elimination,
    double_elimination_plan,
    single_elimination,
)

team_counts = st.integers(min_value=2, max_value=32)


def run(teams: int, seed: int, double: bool, reset: bool = True,
        ) -> tuple[Bracket, dict[str, int], list[Bracket]]:
    """Play a bracket to its end with random winners, keeping every state on the way."""
    rng = random.Random(seed)
    results: dict[str, int] = {}
    states: list[Bracket] = []
    while True:
        state = (double_elimination(teams, results, reset) if double
                 else single_elimination(teams, results))
        states.append(state)
        if state.champion is not None:
            assert state.ready == ()
            return state, results, states
        assert state.ready, "an unfinished bracket always has a match to play"
        match = state.ready[rng.randrange(len(state.ready))]
        results[match.name] = rng.choice((match.first, match.second))


def check_states(teams: int, states: list[Bracket]) -> None:
    for state in states:
        # Nobody is in two ready matches at once, and nobody out is still playing.
        busy = [t for m in state.ready for t in (m.first, m.second)]
        assert len(busy) == len(set(busy))
        assert not set(busy) & set(state.out)
        # Each pair's losses are the played matches it lost.
        assert sum(state.losses) == len(state.played)
        assert len(state.out) == len(set(state.out))
        assert all(0 <= t < teams for t in busy)


@settings(max_examples=80, deadline=None)
@given(teams=team_counts, seed=st.integers(0, 2**32))
def test_single_elimination_ends_with_one_winner(teams: int, seed: int) -> None:
    final, results, states = run(teams, seed, double=False)
    check_states(teams, states)
    assert len(final.played) == teams - 1
    assert final.losses[final.champion] == 0  # type: ignore[index]
    assert sorted(final.out) == sorted(set(range(teams)) - {final.champion})
    assert Counter(final.losses) == Counter({1: teams - 1, 0: 1})
    # Byes: the top seeds, in the first round only, one for each empty place.
    size = 1 << (teams - 1).bit_length()
    assert sorted(t for _, t in final.byes) == list(range(size - teams))
    assert all(name.startswith("W1.") for name, _ in final.byes)
    # Each round's matches: no pair twice.
    rounds: dict[str, list[int]] = {}
    for match in final.played:
        rounds.setdefault(match.name.split(".")[0], []).extend((match.first, match.second))
    assert all(len(ps) == len(set(ps)) for ps in rounds.values())
    assert single_elimination(teams, results) == final


@settings(max_examples=80, deadline=None)
@given(teams=team_counts, seed=st.integers(0, 2**32), reset=st.booleans())
def test_double_elimination_ends_with_one_winner(teams: int, seed: int, reset: bool) -> None:
    final, results, states = run(teams, seed, double=True, reset=reset)
    check_states(teams, states)
    champion = final.champion
    assert champion is not None
    assert sorted(final.out) == sorted(set(range(teams)) - {champion})
    gf = next(m for m in final.played if m.name == "GF")
    reset_played = "GF2" in results
    assert reset_played == (reset and results["GF"] == gf.second)
    # Everyone out lost twice, but for the winners bracket's winner beaten in a final
    # without a reset; the champion lost at most once.
    runner_up = final.out[-1]
    for team in range(teams):
        if team == champion:
            assert final.losses[team] == (1 if results["GF"] == gf.second else 0)
        elif team == runner_up and not reset and results["GF"] == gf.second:
            assert final.losses[team] == 1
        else:
            assert final.losses[team] == 2
    assert len(final.played) == 2 * teams - 2 + reset_played
    assert double_elimination(teams, results, reset) == final


def test_bracket_order_puts_top_seeds_apart() -> None:
    assert bracket_order(2) == [0, 1]
    assert bracket_order(8) == [0, 7, 3, 4, 1, 6, 2, 5]
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(6)


def test_six_pairs_give_the_top_two_seeds_byes() -> None:
    state = single_elimination(6, {})
    assert state.byes == (("W1.1", 0), ("W1.3", 1))
    assert [(m.name, m.first, m.second) for m in state.ready] == [
        ("W1.2", 3, 4), ("W1.4", 2, 5)]
    state = single_elimination(6, {"W1.2": 4})
    assert [(m.name, m.first, m.second) for m in state.ready] == [
        ("W1.4", 2, 5), ("W2.1", 0, 4)]
    assert state.out == (3,)


def test_double_elimination_of_four_with_a_reset() -> None:
    assert list(double_elimination_plan(4)) == [
        "W1.1", "W1.2", "W2.1", "L1.1", "L2.1", "GF", "GF2"]
    results = {"W1.1": 0, "W1.2": 2, "W2.1": 0, "L1.1": 1, "L2.1": 2, "GF": 2}
    state = double_elimination(4, results)
    assert [(m.name, m.first, m.second) for m in state.ready] == [("GF2", 0, 2)]
    assert state.champion is None and state.losses == (1, 2, 1, 2)
    state = double_elimination(4, {**results, "GF2": 2})
    assert state.champion == 2 and state.out == (3, 1, 0)
    # Without a reset the first final decides it.
    state = double_elimination(4, results, reset=False)
    assert state.champion == 2 and state.out == (3, 1, 0) and state.ready == ()
    # The winners bracket's winner taking the first final: no second one.
    state = double_elimination(4, {**results, "GF": 0})
    assert state.champion == 0
    with pytest.raises(ValueError, match=re.escape("GF2 is not to be played")):
        double_elimination(4, {**results, "GF": 0, "GF2": 0})


def test_bad_results_are_refused() -> None:
    with pytest.raises(ValueError, match=re.escape("no match 'W9.1'")):
        single_elimination(4, {"W9.1": 0})
    with pytest.raises(ValueError, match=re.escape("pair 2 did not play in match W1.1")):
        single_elimination(4, {"W1.1": 2})
    with pytest.raises(ValueError, match=re.escape("W2.1 is not ready")):
        single_elimination(4, {"W2.1": 0})
    with pytest.raises(ValueError, match=re.escape("W1.1 is a bye")):
        single_elimination(3, {"W1.1": 0})
    with pytest.raises(ValueError, match="teams must be"):
        double_elimination(1, {})
