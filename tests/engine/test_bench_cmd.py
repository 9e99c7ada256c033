"""``euchre bench`` runs and prints its figures (their values are not asserted: no wall time)."""

from __future__ import annotations

import pytest

from euchre.cli import main
from euchre.cli.bench import timed_random_hands
from euchre.rules import Rules


def test_bench_prints_hands_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny run prints the engine line with wall and CPU figures."""
    assert main(["bench", "--hands", "40", "--solves", "3", "--preset", "kitchen-table"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("engine (kitchen-table): ")
    assert "random hands/s" in out and "hands per CPU second" in out


def test_bench_plays_the_same_hands_for_a_seed() -> None:
    """The step count depends only on the rules, the number of hands and the seed."""
    first = timed_random_hands(Rules(), 30, seed=5)[2]
    assert first == timed_random_hands(Rules(), 30, seed=5)[2] and first >= 30 * 5
