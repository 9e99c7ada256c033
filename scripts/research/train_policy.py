"""Fit the hard bot's bidding tables (src/euchre/bots/data/policy.json) by self-play.

For random deals (the dealer in seat 0), every bidding position is looked at as it
arises when everyone before it passed: seat 1, 2, 3 and the dealer in round one, then
again in round two. For each suit that position could make trump in, the hand is
played out open-handed by the solver twice, with the bidder calling and calling alone
(the dealer exchanging by a plain discard); passing is valued by letting the later
seats bid by the current tables and playing out whatever they choose (a hand thrown
in scores nothing). Each label is in points for the bidder's side, and chances of
making it and marching are 0/1 labels. Then, per position, least squares fits linear
weights over :func:`euchre.bots.policy.bid_features` for each target; the fitted
tables drive the next pass over new deals (``--iterations``).

Usage: python scripts/research/train_policy.py [--deals N] [--iterations K] [--seed S] [--workers W]
The shipped tables came from ``--deals 50000 --iterations 2 --seed 7``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from euchre.bots import solver
from euchre.bots.policy import (
    FEATURES,
    TARGETS,
    Buckets,
    CallValue,
    bid_features,
    bid_utility,
    bucket_key,
    dealer_discard,
    estimate,
)
from euchre.cards import JOKER, card_suit

OUT = Path(__file__).resolve().parents[2] / "src" / "euchre" / "bots" / "data" / "policy.json"
TRICKS = [0, 1, 2, 3, 4, 5]
ORDER = [(1, 1), (2, 1), (3, 1), (0, 1), (1, 2), (2, 2), (3, 2), (0, 2)]
"""The bidding positions (seat, round) with the dealer in seat 0."""

Group = dict[str, list[float]]
Model = tuple[dict[str, Group], dict[str, Buckets]]
Rows = dict[str, dict[tuple[float, ...], list[float]]]
"""Per group, per feature vector: [count, sum of each target ..., count of each target]."""


def makers_tricks(hands: list[int], upcard: int, maker: int, trump: int, alone: bool,
                  exchange: bool) -> int:
    """Tricks the makers take open-handed (dealer in seat 0, left of the dealer leads)."""
    h = list(hands)
    if exchange:
        six = h[0] | 1 << upcard
        h[0] = six & ~(1 << dealer_discard(six, trump))
    out = 1 << ((maker + 2) % 4) if alone else 0
    leader = 1
    while out >> leader & 1:
        leader = (leader + 1) % 4
    return solver.solve_value(h, trump, leader, [], out, maker % 2, 0, TRICKS)


def points(tricks: int, alone: bool) -> int:
    """Points for the makers' side."""
    if tricks < 3:
        return -2
    if tricks < 5:
        return 1
    return 4 if alone else 2


def bidder_hand(hand: int, seat: int, upcard: int, trump: int, round_: int) -> int:
    """The five cards the bidder plays with (the dealer after the exchange in round one)."""
    if seat == 0 and (round_ == 1 or upcard == JOKER):
        six = hand | 1 << upcard
        return six & ~(1 << dealer_discard(six, trump))
    return hand


def choose(values: dict[int, CallValue], can_pass: bool) -> tuple[int, bool] | None:
    """The current tables' bid at 0-0: (suit, alone), or None for a pass."""
    best: tuple[float, tuple[int, bool] | None] = (-1e9, None)
    for suit, v in values.items():
        for alone in (False, True):
            u = bid_utility((0, 0), 0, 10, v.alone_points if alone else v.points,
                            v.make_alone if alone else v.make,
                            v.march_alone if alone else v.march, alone)
            if u > best[0]:
                best = (u, (suit, alone))
    if can_pass:
        pass_pts = sum(v.pass_points for v in values.values()) / len(values)
        if pass_pts >= best[0]:
            return None
    return best[1]


def add_row(rows: Rows, group: str, feats: list[float], labels: dict[str, float]) -> None:
    """Add one labelled row (missing targets are simply not counted)."""
    key = tuple(feats)
    acc = rows[group].get(key)
    if acc is None:
        acc = rows[group][key] = [0.0] * (1 + 2 * len(TARGETS))
    acc[0] += 1
    for i, t in enumerate(TARGETS):
        if t in labels:
            acc[1 + i] += labels[t]
            acc[1 + len(TARGETS) + i] += 1


def simulate(deck: list[int], stick: bool, model: Model, rows: Rows) -> None:
    """Label every bidding position of one deal."""
    hands = [sum(1 << c for c in deck[5 * s : 5 * s + 5]) for s in range(4)]
    upcard = deck[20]
    if upcard == JOKER:
        for trump in range(4):
            f = bid_features(bidder_hand(hands[0], 0, upcard, trump, 1), trump, 0, 1, upcard)
            t1 = makers_tricks(hands, upcard, 0, trump, False, True)
            t2 = makers_tricks(hands, upcard, 0, trump, True, True)
            add_row(rows, "1-0", f, _labels(t1, t2))
        return
    up_suit = card_suit(upcard)
    # per position: (suit, alone) chosen by the current tables, the outcome of each call
    choice: list[tuple[int, bool] | None] = []
    outcome: list[dict[tuple[int, bool], tuple[int, int]]] = []
    feats_at: list[dict[int, list[float]]] = []
    for seat, round_ in ORDER:
        suits = [up_suit] if round_ == 1 else [s for s in range(4) if s != up_suit]
        res: dict[tuple[int, bool], tuple[int, int]] = {}
        feats: dict[int, list[float]] = {}
        values: dict[int, CallValue] = {}
        for trump in suits:
            f = bid_features(bidder_hand(hands[seat], seat, upcard, trump, round_), trump, seat,
                             round_, upcard)
            feats[trump] = f
            group = f"{round_}-{seat}"
            values[trump] = estimate(model[0].get(group), f, model[1].get(group))
            for alone in (False, True):
                t = makers_tricks(hands, upcard, seat, trump, alone, round_ == 1)
                res[(trump, alone)] = (points(t, alone), t)
        can_pass = not (stick and seat == 0 and round_ == 2)
        choice.append(choose(values, can_pass))
        outcome.append(res)
        feats_at.append(feats)
    # value of passing at position i, for the side of seat 0 (sign flips for seats 1 and 3)
    after = 0.0
    pass_value = [0.0] * len(ORDER)
    for i in range(len(ORDER) - 1, -1, -1):
        pass_value[i] = after
        c = choice[i]
        if c is not None:
            pts = outcome[i][c][0]
            after = pts if ORDER[i][0] % 2 == 0 else -pts
    for i, (seat, round_) in enumerate(ORDER):
        sign = 1 if seat % 2 == 0 else -1
        can_pass = not (stick and seat == 0 and round_ == 2)
        for trump, f in feats_at[i].items():
            t1 = outcome[i][(trump, False)][1]
            t2 = outcome[i][(trump, True)][1]
            labels = _labels(t1, t2)
            if can_pass:
                labels["pass"] = sign * pass_value[i]
            add_row(rows, f"{round_}-{seat}", f, labels)


def _labels(t1: int, t2: int) -> dict[str, float]:
    return {
        "call": points(t1, False),
        "make": float(t1 >= 3),
        "march": float(t1 == 5),
        "alone": points(t2, True),
        "make_alone": float(t2 >= 3),
        "march_alone": float(t2 == 5),
    }


def solve_linear(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        d = m[col][col]
        if abs(d) < 1e-12:
            continue
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / d
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(rows: Rows, ridge: float = 1.0) -> dict[str, Group]:
    """Least-squares weights per group and target from the aggregated rows."""
    nf = len(FEATURES)
    nt = len(TARGETS)
    out: dict[str, Group] = {}
    for group, table in rows.items():
        weights: Group = {}
        for i, target in enumerate(TARGETS):
            xtx = [[0.0] * nf for _ in range(nf)]
            xty = [0.0] * nf
            for key, acc in table.items():
                n = acc[1 + nt + i]
                if not n:
                    continue
                y = acc[1 + i]
                for a in range(nf):
                    if key[a]:
                        xty[a] += key[a] * y
                        row = xtx[a]
                        for b in range(nf):
                            if key[b]:
                                row[b] += n * key[a] * key[b]
            for a in range(1, nf):
                xtx[a][a] += ridge
            weights[target] = [round(w, 5) for w in solve_linear(xtx, xty)]
        out[group] = weights
    return out


def fit_buckets(rows: Rows, least: int = 3) -> dict[str, Buckets]:
    """Per group, each bucket's deal count and average of each target (None: no label)."""
    nt = len(TARGETS)
    out: dict[str, Buckets] = {}
    for group, table in rows.items():
        acc: dict[str, list[float]] = {}
        for key, row in table.items():
            b = bucket_key(list(key))
            cell = acc.setdefault(b, [0.0] * (1 + 2 * nt))
            for i, x in enumerate(row):
                cell[i] += x
        cells: Buckets = {}
        for b, cell in sorted(acc.items()):
            if cell[0] < least:
                continue
            means: list[float | None] = [
                round(cell[1 + i] / cell[1 + nt + i], 4) if cell[1 + nt + i] else None
                for i in range(nt)
            ]
            cells[b] = [cell[0], *means]
        out[group] = cells
    return out


def _work(job: tuple[int, int, bool, Model]) -> Rows:
    seed, deals, stick, model = job
    rng = random.Random(seed)
    rows: Rows = defaultdict(dict)
    for _ in range(deals):
        benny = rng.random() < 0.25
        deck = list(range(25 if benny else 24))
        rng.shuffle(deck)
        simulate(deck, stick, model, rows)
    return dict(rows)


def merge(parts: list[Rows]) -> Rows:
    """Add up aggregated rows from several workers."""
    out: Rows = defaultdict(dict)
    for part in parts:
        for group, table in part.items():
            dest = out[group]
            for key, acc in table.items():
                if key in dest:
                    dest[key] = [x + y for x, y in zip(dest[key], acc, strict=True)]
                else:
                    dest[key] = list(acc)
    return out


def main() -> None:
    """Train both variants and write the tables."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=40000, help="deals per variant and iteration")
    ap.add_argument("--iterations", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    variants: dict[str, Model] = {"classic": ({}, {}), "stick": ({}, {})}
    start = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for it in range(args.iterations):
            for vi, name in enumerate(variants):
                per = args.deals // args.workers
                jobs = [
                    (args.seed * 1000 + it * 100 + vi * 10 + w, per, name == "stick",
                     variants[name])
                    for w in range(args.workers)
                ]
                rows = merge(pool.map(_work, jobs))
                variants[name] = (fit(rows), fit_buckets(rows))
                print(f"iteration {it + 1} {name}: {sum(len(t) for t in rows.values())} distinct "
                      f"rows, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    data: dict[str, Any] = {
        "features": list(FEATURES),
        "targets": list(TARGETS),
        "trained": {"deals": args.deals, "iterations": args.iterations, "seed": args.seed},
        "variants": {name: m[0] for name, m in variants.items()},
        "buckets": {name: m[1] for name, m in variants.items()},
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
