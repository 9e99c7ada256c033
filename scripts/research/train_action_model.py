"""Fit the model of play (:mod:`euchre.bots.action_model`) to recorded decisions.

Reads games recorded by ``scripts/research/record_decisions.py``, replays each decision with more
than one legal action to the seat's view, and fits one weight per feature (those seen at
least ``--min-count`` times) by full-batch Adam on the softmax's log-likelihood with an
L2 penalty (numpy, the ``train`` extra). Prints the accuracy (the model's most likely
action is the one taken) and the mean log-likelihood on the training games and on the
held-out games, per kind of decision, beside a uniform choice among the legal actions.
With ``--out`` writes the weights as the data file; ``--eval`` only scores a model file.

Usage: python scripts/research/train_action_model.py --train FILE [FILE ...] --heldout FILE
       [--out src/euchre/bots/data/action_model.json] [--eval MODEL] [--steps 400] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from record_decisions import games_in, replay

from euchre.bots.action_model import ActionModel, features_all

Decision = tuple[str, list[list[str]], int]


def kind_of(view_phase: str, trick: int) -> str:
    """A decision's kind for the report."""
    if view_phase == "play":
        return f"play trick {trick + 1}"
    return {"order": "bid round 1", "call": "bid round 2"}.get(view_phase, view_phase)


def decisions(path: str) -> list[Decision]:
    """Every real choice in a recording: its kind, each legal action's features, the taken."""
    out: list[Decision] = []
    for game in games_in(path):
        for view, taken, _ in replay(game):
            if len(view.legal) > 1:
                out.append((kind_of(view.phase, len(view.tricks)),
                            features_all(view), taken))
    return out


def fit(data: list[Decision], min_count: int, steps: int, l2: float, seed: int) -> dict[str, float]:
    """Weights maximising the penalised log-likelihood of the taken actions."""
    counts: Counter[str] = Counter(f for _, acts, _ in data for fs in acts for f in fs)
    names = sorted(f for f, n in counts.items() if n >= min_count)
    index = {f: i for i, f in enumerate(names)}
    rows: list[int] = []
    cols: list[int] = []
    starts: list[int] = []
    target: list[int] = []
    r = 0
    for _, acts, taken in data:
        starts.append(r)
        target.append(r + taken)
        for fs in acts:
            for f in fs:
                if f in index:
                    rows.append(r)
                    cols.append(index[f])
            r += 1
    n_rows = r
    row_a, col_a = np.array(rows), np.array(cols)
    start_a = np.array(starts)
    group = np.repeat(np.arange(len(starts)), np.diff(np.append(start_a, n_rows)))
    y = np.zeros(n_rows)
    y[np.array(target)] = 1.0
    rng = np.random.default_rng(seed)
    w = rng.normal(0.0, 0.01, len(names))
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    lr, b1, b2 = 0.05, 0.9, 0.999
    for t in range(1, steps + 1):
        s = np.bincount(row_a, weights=w[col_a], minlength=n_rows)
        top = np.maximum.reduceat(s, start_a)[group]
        e = np.exp(s - top)
        z = np.add.reduceat(e, start_a)[group]
        p = e / z
        grad = np.bincount(col_a, weights=(p - y)[row_a], minlength=len(names)) / len(starts)
        grad += l2 * w
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        w -= lr * (m / (1 - b1**t)) / (np.sqrt(v / (1 - b2**t)) + 1e-8)
    return {f: round(float(x), 4) for f, x in zip(names, w, strict=True) if abs(x) >= 5e-4}


def report(model: ActionModel, data: list[Decision], title: str) -> None:
    """Accuracy and log-likelihood per kind, against a uniform choice."""
    by: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    for kind, acts, taken in data:
        s = [sum(model.weights.get(f, 0.0) for f in fs) for fs in acts]
        top = max(s)
        e = [math.exp(x - top) for x in s]
        p = e[taken] / sum(e)
        best = max(range(len(s)), key=lambda i: s[i])
        by[kind].append((int(best == taken), math.log(p), -math.log(len(acts))))
    print(f"{title}: {len(data)} decisions with a choice")
    print(f"  {'kind':14s} {'n':>6s} {'accuracy':>9s} {'loglik':>8s} {'uniform':>8s}")
    every = [x for v in by.values() for x in v]
    for kind, v in [*sorted(by.items()), ("all", every)]:
        n = len(v)
        print(f"  {kind:14s} {n:6d} {sum(x[0] for x in v) / n:9.3f} "
              f"{sum(x[1] for x in v) / n:8.3f} {sum(x[2] for x in v) / n:8.3f}")


def main() -> None:
    """Fit, report, write."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--train", nargs="*", help="recordings to fit to (several: one per run)")
    ap.add_argument("--heldout", required=True)
    ap.add_argument("--out")
    ap.add_argument("--eval")
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--min-count", type=int, default=5)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--levels", default="level hard",
                    help="which level recorded which seed, for the weights file's note")
    args = ap.parse_args()
    random.seed(args.seed)
    held = decisions(args.heldout)
    if args.eval:
        model = ActionModel.from_json(Path(args.eval).read_text())
        report(model, held, f"held out ({args.heldout})")
        return
    if not args.train:
        raise SystemExit("--train FILE is needed to fit (or --eval MODEL to score one)")
    train = [d for path in args.train for d in decisions(path)]
    weights = fit(train, args.min_count, args.steps, args.l2, args.seed)
    names = " ".join(Path(p).name for p in args.train)
    games = [g for p in args.train for g in games_in(p)]
    seeds = sorted({g["seed"] for g in games})
    made_by = (f"scripts/research/train_action_model.py --train {names} "
               f"--heldout {Path(args.heldout).name} --steps {args.steps} "
               f"--min-count {args.min_count} --l2 {args.l2} --seed {args.seed}; "
               f"{len(train)} training decisions from {len(games)} games recorded by "
               f"scripts/research/record_decisions.py --seed {'/'.join(map(str, seeds))} "
               f"({args.levels}); "
               f"held out: {Path(args.heldout).name}")
    model = ActionModel(weights, made_by)
    report(model, train, f"training ({names})")
    report(model, held, f"held out ({args.heldout})")
    if args.out:
        Path(args.out).write_text(model.to_json() + "\n")
        print(f"wrote {len(weights)} weights to {args.out}")


if __name__ == "__main__":
    main()
