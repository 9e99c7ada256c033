"""``euchre arena``: duplicate matches through the command line."""

from __future__ import annotations

import json

import pytest

from euchre.cli import main
from euchre.cli.arena import interval, percentile


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["arena", *args, "--json", "--quiet"]) == 0
    out = capsys.readouterr().out
    report: dict[str, object] = json.loads(out)
    return report


def test_easy_beats_random_over_a_few_dozen_deals(capsys: pytest.CaptureFixture[str]) -> None:
    rep = run_json(capsys, "easy", "random", "--deals", "40", "--games", "4", "--workers", "1")
    assert isinstance(rep["points_per_deal"], float)
    lo, hi = rep["ci95"]  # type: ignore[misc]
    assert 0 < lo <= rep["points_per_deal"] <= hi
    assert 0.0 <= rep["game_win_rate"] <= 1.0  # type: ignore[operator]
    assert set(rep["decision_ms"]) >= {"p50", "p99"}  # type: ignore[arg-type]
    sides = rep["sides"]
    assert isinstance(sides, dict)
    assert sides["a"]["made_trump"] + sides["b"]["made_trump"] > 0


def test_figures_do_not_depend_on_the_number_of_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ("random", "easy", "--deals", "12", "--games", "2", "--seed", "5")
    one = run_json(capsys, *args, "--workers", "1")
    two = run_json(capsys, *args, "--workers", "2")
    for key in ("points_per_deal", "ci95", "game_win_rate", "sides", "hands_played"):
        assert one[key] == two[key]


def test_mixed_partners_a_with_b(capsys: pytest.CaptureFixture[str]) -> None:
    rep = run_json(capsys, "easy", "random", "--deals", "8", "--games", "0", "--mixed",
                   "--workers", "1")
    assert rep["mixed"] is True
    assert rep["games"] == 0


def test_text_report_names_both_players(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "medium", "easy", "--deals", "6", "--games", "1", "--workers", "1",
                 "--quiet", "--preset", "stick-the-dealer"]) == 0
    out = capsys.readouterr().out
    assert "points per deal for medium" in out
    assert "game win rate" in out


def test_progress_bar_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "random", "random", "--deals", "3", "--games", "0",
                 "--workers", "1"]) == 0
    captured = capsys.readouterr()
    assert "3/3" in captured.err
    assert "3/3" not in captured.out


def test_unknown_level_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "easy", "wizard", "--deals", "2"]) == 2
    assert "unknown level" in capsys.readouterr().err


def test_interval_and_percentile() -> None:
    mean, lo, hi = interval([1.0, 2.0, 3.0])
    assert mean == 2.0 and lo < 2.0 < hi
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0
    assert percentile([float(i) for i in range(100)], 0.99) == 98.0
