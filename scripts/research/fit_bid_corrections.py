"""How much corrections to the bidding tables could gain, from the hard player's play-outs.

Reads the labels of ``scripts/research/label_bids.py`` (JSON lines). For each bidding group
(round and seat relative to the dealer) the error of the tables, ``played − table``
(points after calling less points after passing, as the hard player played both lines,
against the tables' difference of utility), is fitted by ridge least squares on the
tables' difference and the call's hand features (``--simple``: on the difference and a
constant). A corrected bid calls when the tables' difference plus the fitted error is
above zero.

It prints each group's mean error, then what the corrected choice would have gained
on deals held out (two folds by deal parity): for each labelled decision whose choice
the correction changes, the play-out's points of the new choice less the old, summed
and divided by twice the deals (the arena's points per deal, both sides bidding the
corrected way); and ``cell_oracle``, an in-sample upper bound (:func:`cell_oracle`).

Usage: python scripts/research/fit_bid_corrections.py LABELS.jsonl [...] [--ridge R] [--simple]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from typing import Any

from train_policy import solve_linear

Row = dict[str, Any]


FULL = True
"""Whether the regressors include the hand features (else the difference and a constant)."""


def design(row: Row) -> list[float]:
    """The regressors: the tables' difference, then the hand features (a constant first)."""
    if not FULL:
        return [row["table"], 1.0]
    return [row["table"], *row["features"]]


def fit_group(rows: list[Row], ridge: float) -> list[float]:
    """Ridge weights of ``played − table`` on :func:`design` (the constant not shrunk)."""
    n = len(design(rows[0]))
    xtx = [[0.0] * n for _ in range(n)]
    xty = [0.0] * n
    for row in rows:
        x = design(row)
        y = row["played"] - row["table"]
        for a in range(n):
            if x[a]:
                xty[a] += x[a] * y
                for b in range(n):
                    xtx[a][b] += x[a] * x[b]
    for a in range(n):
        if a != 1:
            xtx[a][a] += ridge
    return solve_linear(xtx, xty)


def group_of(row: Row) -> str:
    """The bidding group of a label, as the tables name it (round-seat)."""
    return f"{row['round']}-{row['pos']}"


def fit(rows: list[Row], ridge: float) -> dict[str, list[float]]:
    """Weights per group."""
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[group_of(row)].append(row)
    return {g: fit_group(rs, ridge) for g, rs in sorted(groups.items()) if len(rs) >= 50}


def corrected(row: Row, weights: dict[str, list[float]]) -> float:
    """The tables' difference plus the fitted correction."""
    w = weights.get(group_of(row))
    if w is None:
        return float(row["table"])
    return float(row["table"]) + sum(a * b for a, b in zip(w, design(row), strict=True))


def held_out(rows: list[Row], ridge: float) -> dict[str, Any]:
    """Gain of the corrected choice on deals not fitted (two folds by deal parity)."""
    gains: list[float] = []
    flips = better = worse = 0
    per_group: dict[str, float] = defaultdict(float)
    for fold in (0, 1):
        weights = fit([r for r in rows if r["deal"] % 2 != fold], ridge)
        for row in rows:
            if row["deal"] % 2 != fold:
                continue
            new = corrected(row, weights)
            gain = 0.0
            if (new > 0) != (row["table"] > 0):
                called = row["chosen"] == "call"
                now_calls = new > 0
                if now_calls != called:
                    flips += 1
                    gain = row["played"] if now_calls else -row["played"]
                    better += gain > 0
                    worse += gain < 0
                    per_group[group_of(row)] += gain
            gains.append(gain)
    deals = len({r["deal"] for r in rows})
    return {"labels": len(rows), "deals": deals, "flips": flips, "better": better,
            "worse": worse, "per_deal": sum(gains) / deals / 2.0,
            "se": math.sqrt(sum(g * g for g in gains)) / deals / 2.0,
            "per_group": {g: round(v / deals / 2.0, 4) for g, v in sorted(per_group.items())}}


def cell_oracle(rows: list[Row], width: float = 0.2) -> float:
    """An upper bound on any correction by group and tables' difference, in points per deal.

    Cells of group × the tables' difference (``width`` wide) × the choice made; in each,
    choosing otherwise gains the cell's mean play-out difference when that is positive.
    The bound is in-sample (the cell means are fitted on the labels they are scored on),
    so it flatters: no correction that depends on those three can do better.
    """
    cells: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    for row in rows:
        key = (group_of(row), math.floor(row["table"] / width), row["chosen"])
        cells[key].append(row["played"] if row["chosen"] == "pass" else -row["played"])
    gain = sum(max(0.0, sum(v)) for v in cells.values())
    return gain / len({r["deal"] for r in rows}) / 2.0


def main() -> None:
    """Fit and report."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("labels", nargs="+")
    ap.add_argument("--ridge", type=float, default=50.0)
    ap.add_argument("--simple", action="store_true", help="the difference and a constant only")
    args = ap.parse_args()
    global FULL
    FULL = not args.simple
    rows: list[Row] = []
    for name in args.labels:
        with open(name) as f:
            rows.extend(json.loads(line) for line in f if line.strip())
    groups: dict[str, list[Row]] = defaultdict(list)
    for row in rows:
        groups[group_of(row)].append(row)
    for g, rs in sorted(groups.items()):
        err = [r["played"] - r["table"] for r in rs]
        mean = sum(err) / len(err)
        sd = math.sqrt(sum((e - mean) ** 2 for e in err) / max(1, len(err) - 1))
        print(f"group {g}: {len(rs):6d} labels, played − table {mean:+.3f} "
              f"(se {sd / math.sqrt(len(rs)):.3f})")
    rep = held_out(rows, args.ridge)
    rep["cell_oracle"] = cell_oracle(rows)
    print(json.dumps(rep))


if __name__ == "__main__":
    main()
