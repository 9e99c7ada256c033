"""``euchre bench``: random complete hands per second, steps per second, solver speed."""

from __future__ import annotations

import argparse
import random
import time

from ..hand import HandState
from ..rules import Rules
from ..shuffle import deal_from_deck, shuffled_deck


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``euchre bench``."""
    parser.add_argument("--hands", type=int, default=20000, help="random hands to play")
    parser.add_argument("--preset", default="classic", help="rules preset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solves", type=int, default=2000, help="open-hand solves to time")


def random_hands(rules: Rules, hands: int, seed: int) -> tuple[float, int]:
    """Play random hands through the public API; returns (seconds, steps)."""
    seconds, _, steps = timed_random_hands(rules, hands, seed)
    return seconds, steps


def timed_random_hands(rules: Rules, hands: int, seed: int) -> tuple[float, float, int]:
    """Play random hands through the public API; returns (wall seconds, CPU seconds, steps).

    CPU time is the steadier figure on a busy machine: other processes slow the wall clock.
    """
    rng = random.Random(seed)
    steps = 0
    cpu = time.process_time()
    start = time.perf_counter()
    for i in range(hands):
        dealer = i % 4
        state = HandState(rules, dealer, deal_from_deck(shuffled_deck(rules.benny, rng), dealer))
        while not state.is_over:
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.random() * len(legal))])
            steps += 1
    return time.perf_counter() - start, time.process_time() - cpu, steps


def run(args: argparse.Namespace) -> int:
    """Print the figures."""
    rules = Rules.preset(args.preset)
    seconds, cpu, steps = timed_random_hands(rules, args.hands, args.seed)
    print(f"engine ({args.preset}): {args.hands / seconds:,.0f} random hands/s, "
          f"{steps / seconds:,.0f} legal-actions+apply steps/s "
          f"({args.hands} hands, {steps} steps, {seconds:.2f} s, one core; "
          f"{args.hands / cpu:,.0f} hands per CPU second)")
    try:
        from ..bots import solver
    except ImportError:
        print("solver: not available")
        return 0
    rng = random.Random(args.seed)
    positions = []
    for _ in range(args.solves):
        deck = shuffled_deck(False, rng)
        hands = [sum(1 << c for c in deck[5 * s : 5 * s + 5]) for s in range(4)]
        positions.append((hands, rng.randrange(4), rng.randrange(4), rng.randrange(2)))
    payoff = [-2, -2, -2, 1, 1, 2]
    start = time.perf_counter()
    for hands, trump, leader, side in positions:
        solver.solve(hands, trump, leader, (), 0, side, 0, payoff)
    seconds = time.perf_counter() - start
    kind = "C extension" if solver.HAS_C_SOLVER else "pure Python"
    print(f"solver ({kind}): {args.solves / seconds:,.0f} open-hand solves/s from the opening "
          f"lead ({args.solves} random deals, {seconds:.2f} s)")
    return 0
