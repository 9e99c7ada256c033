"""The bid-correction measurement: labels from the hard player's play-outs, and their fit.

``scripts/research/label_bids.py`` plays close calls and passes both ways with four hard players;
``scripts/research/fit_bid_corrections.py`` fits the tables' error from those labels. The labels
must be reproducible and within the tables' margin; the fit must find a bias that is
there and gain nothing where there is none.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts" / "research"
sys.path.insert(0, str(SCRIPTS))

import fit_bid_corrections as fit  # noqa: E402


def _label(tmp_path: Path, name: str) -> list[dict[str, Any]]:
    out = tmp_path / name
    subprocess.run(
        [sys.executable, str(SCRIPTS / "label_bids.py"), "--deals", "12", "--seed", "3",
         "--margin", "0.6", "--workers", "1", "--out", str(out)],
        check=True, timeout=600,
    )
    return [json.loads(line) for line in out.read_text().splitlines()]


def test_labels_are_reproducible_and_close(tmp_path: Path) -> None:
    first = _label(tmp_path, "a.jsonl")
    assert first, "twelve deals give some close bids"
    assert first == _label(tmp_path, "b.jsonl")
    for row in first:
        assert abs(row["table"]) <= 0.6
        assert row["chosen"] in ("call", "pass")
        assert row["round"] in (1, 2) and row["pos"] in (0, 1, 2, 3)
        assert len(row["features"]) == 16 and row["features"][0] == 1.0
        # points after calling less after passing, each a hand's score for one side
        assert row["played"] == int(row["played"]) and abs(row["played"]) <= 8


def _synthetic(bias: float, n: int = 4000, seed: int = 1) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        table = rng.uniform(-0.6, 0.6)
        truth = table + bias
        played = truth + rng.gauss(0.0, 1.5)
        rows.append({"deal": i, "round": 1, "pos": 0, "alone": False,
                     "chosen": "call" if table > 0 else "pass", "table": table,
                     "features": [1.0] + [0.0] * 15, "played": played})
    return rows


@pytest.mark.parametrize("simple", [True, False])
def test_fit_finds_a_bias_and_gains_from_it(simple: bool) -> None:
    fit.FULL = not simple
    try:
        rows = _synthetic(-0.4)
        weights = fit.fit(rows, ridge=10.0)
        row = rows[0]
        correction = fit.corrected(row, weights) - row["table"]
        assert correction == pytest.approx(-0.4, abs=0.15)
        report = fit.held_out(rows, ridge=10.0)
        assert report["flips"] > 0
        assert report["per_deal"] > 0  # calls with a table margin under 0.4 now pass
        assert fit.cell_oracle(rows) >= report["per_deal"]
    finally:
        fit.FULL = True


def test_no_bias_no_gain() -> None:
    rows = _synthetic(0.0, seed=2)
    report = fit.held_out(rows, ridge=50.0)
    assert abs(report["per_deal"]) < 3 * report["se"] + 1e-9
