"""Print open-hand solves per second from the opening lead, for the C and pure-Python solvers.

Random deals (five cards to each seat from the 24-card deck, or from 25 with the
joker), random trump, random leader, makers on a random side, standard payoff.
Usage: python scripts/bench/bench_solver.py [--deals N] [--py-deals N] [--joker] [--alone]
       [--seed S]
"""

from __future__ import annotations

import argparse
import random
import time

from euchre.bots import solver

Position = tuple[list[int], int, int, list[int], int, int, int, list[int]]


def random_positions(n: int, seed: int, joker: bool, alone: bool) -> list[Position]:
    """``n`` opening-lead positions."""
    rng = random.Random(seed)
    out: list[Position] = []
    for _ in range(n):
        deck = list(range(25 if joker else 24))
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[5 * s : 5 * s + 5]) for s in range(4)]
        trump = rng.randrange(4)
        maker_side = rng.randrange(2)
        sitting_out = 0
        payoff = [-2, -2, -2, 1, 1, 2]
        if alone:
            maker = maker_side + 2 * rng.randrange(2)
            sitting_out = 1 << ((maker + 2) % 4)
            payoff = [-2, -2, -2, 1, 1, 4]
        leader = rng.choice([s for s in range(4) if not (sitting_out >> s) & 1])
        out.append((hands, trump, leader, [], sitting_out, maker_side, 0, payoff))
    return out


def bench(positions: list[Position], use_c: bool, per_card: bool) -> tuple[float, float]:
    """Solves per second and mean nodes per solve."""
    nodes = 0
    start = time.perf_counter()
    for p in positions:
        if per_card:
            nodes += solver.solve_counted(*p, use_c=use_c)[1]
        else:
            nodes += solver.solve_value_counted(*p, use_c=use_c)[1]
    elapsed = time.perf_counter() - start
    return len(positions) / elapsed, nodes / len(positions)


def main() -> None:
    """Run the benchmark and print one line per backend and kind of solve."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=5000, help="deals for the C solver")
    ap.add_argument("--py-deals", type=int, default=100, help="deals for pure Python")
    ap.add_argument("--joker", action="store_true", help="deal from 25 cards with the joker")
    ap.add_argument("--alone", action="store_true", help="the maker goes alone")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    backends = [(True, a.deals)] if solver.HAS_C_SOLVER else []
    if not solver.HAS_C_SOLVER:
        print("C solver not built: pure Python only")
    backends.append((False, a.py_deals))
    for use_c, n in backends:
        positions = random_positions(n, a.seed, a.joker, a.alone)
        for per_card, what in ((True, "solve (every card)"), (False, "solve_value")):
            rate, nodes = bench(positions, use_c, per_card)
            name = "C     " if use_c else "Python"
            print(
                f"{name} {what:<19} {n:6d} deals  {rate:10.1f} solves/s  {nodes:8.0f} nodes/solve"
            )


if __name__ == "__main__":
    main()
