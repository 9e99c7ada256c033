"""Where the hard player's card choice errs by class, from ``scripts/research/label_plays.py``.

Each label is one card the player did not choose, played out from the real deal. A
*correction rule* is a class of alternatives (``--by``: fields of the label, the
``gap`` in bins of ``--width``) whose play-outs beat the chosen card on average; the
rule plays the alternative in that class instead. Rules are found on half the deals
(even or odd deal numbers) and scored on the other half, so the gain reported is what
such rules would earn on deals they were not found on (points per deal as the arena
counts them: the sum of the gains over both sides, halved). At most one alternative per
decision is switched to (the rule with the largest training mean). The in-sample figure
(rules found and scored on every deal) is printed beside it as an upper bound.

Usage: python scripts/research/fit_play_corrections.py LABELS.jsonl [...] [--by FIELDS]
       [--width W] [--least N]
"""

from __future__ import annotations

import argparse
import json
import math
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

Row = dict[str, Any]
DESCRIBE = ("trump", "follows", "wins", "boss", "high", "low")
"""The card descriptions in a label (see ``label_plays.describe``)."""


def cell(row: Row, by: list[str], width: float) -> tuple[Any, ...]:
    """The class of an alternative: the chosen fields, then the gap's bin."""
    key: list[Any] = []
    for field in by:
        if field in ("chosen", "alt"):
            key.append("".join("1" if row[field][d] else "0" for d in DESCRIBE))
        else:
            key.append(row[field])
    key.append(math.floor(row["gap"] / width))
    return tuple(key)


def rules(rows: Iterable[Row], by: list[str], width: float, least: int) -> dict[Any, float]:
    """Classes whose alternatives beat the chosen card on average: class -> mean gain."""
    acc: dict[Any, list[float]] = defaultdict(list)
    for row in rows:
        acc[cell(row, by, width)].append(row["played"])
    return {k: sum(v) / len(v) for k, v in acc.items() if len(v) >= least and sum(v) > 0}


def score(rows: list[Row], found: dict[Any, float], by: list[str], width: float) -> float:
    """Points gained by switching, at most once a decision, as ``found`` says."""
    best: dict[tuple[Any, ...], tuple[float, float]] = {}
    for row in rows:
        gain = found.get(cell(row, by, width))
        if gain is None:
            continue
        decision = (row["deal"], row["trick"], row["order"], row["chosen_id"])
        if decision not in best or gain > best[decision][0]:
            best[decision] = (gain, row["played"])
    return sum(played for _, played in best.values())


def report(rows: list[Row], by: list[str], width: float, least: int) -> dict[str, Any]:
    """Held-out and in-sample gains, in points per deal (the arena's)."""
    deals = len({r["deal"] for r in rows})
    held = 0.0
    switched = 0
    for fold in (0, 1):
        train = [r for r in rows if r["deal"] % 2 != fold]
        test = [r for r in rows if r["deal"] % 2 == fold]
        found = rules(train, by, width, least)
        held += score(test, found, by, width)
        switched += len(found)
    found = rules(rows, by, width, least)
    return {"by": by, "width": width, "least": least, "deals": deals, "labels": len(rows),
            "held_out": held / deals / 2.0, "in_sample": score(rows, found, by, width)
            / deals / 2.0, "classes": len(found)}


def main() -> None:
    """Report."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("labels", nargs="+")
    ap.add_argument("--by", default="trick,order,role,chosen,alt")
    ap.add_argument("--width", type=float, default=0.25)
    ap.add_argument("--least", type=int, default=30)
    args = ap.parse_args()
    rows: list[Row] = []
    for name in args.labels:
        with open(name) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    row["chosen_id"] = json.dumps(row["chosen"], sort_keys=True)
                    rows.append(row)
    better = sum(1 for r in rows if r["played"] > 0)
    worse = sum(1 for r in rows if r["played"] < 0)
    print(f"{len(rows)} alternatives: {better} beat the chosen card, {worse} lost to it, "
          f"{len(rows) - better - worse} scored the same")
    print(json.dumps(report(rows, args.by.split(","), args.width, args.least)))


if __name__ == "__main__":
    main()
