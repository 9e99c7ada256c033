"""Print the hard (or expert) player's decision times on one core: median and 99th percentile.

Two players of ``--level`` partner against two medium players for ``--hands`` random
deals in one process; every decision of theirs with a real choice is timed, and card-play
decisions at the first trick are also reported on their own (they have the most unseen
cards to place). Also counts decisions stopped by the time cap (none should be).
Usage: python scripts/bench/bench_hard.py [--level hard|expert] [--hands N] [--samples S]
       [--nodes N] [--time-cap SECONDS] [--seed S] [--preset P] [--clock wall|cpu]
       [--model-reading all|plays|joint] [--postpone N]
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import random
import time

from euchre.bots import make
from euchre.bots.expert import ExpertBot
from euchre.bots.hard import HardBot
from euchre.bots.solver import HAS_C_SOLVER
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.shuffle import deal_from_deck, shuffled_deck


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    """Play, time and print."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--level", choices=("hard", "expert"), default="hard")
    ap.add_argument("--samples", type=int, default=None, help="deals (default: the level's)")
    ap.add_argument("--nodes", type=int, default=None, help="solver nodes (default: the level's)")
    ap.add_argument("--time-cap", type=float, default=None, help="seconds (default: the level's)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time decisions by the wall clock or by this thread's CPU time "
                         "(cpu: what one core spends, however busy the machine is)")
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--model-reading", choices=("all", "plays", "joint"), default=None,
                    help="weigh card play's deals by the learned model of play "
                         "(Budget.model_reading with this model_how; default: the level's)")
    ap.add_argument("--postpone", type=int, default=None,
                    help="card play: the other seats' next N cards in the trick chosen by "
                         "the learned model before the solver (Budget.postpone; default: "
                         "the level's)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rules = Rules.preset(args.preset)
    cls = ExpertBot if args.level == "expert" else HardBot
    hard = cls(seed=args.seed, samples=args.samples, nodes=args.nodes, time_cap=args.time_cap)
    if args.model_reading:
        hard.budget = dataclasses.replace(hard.budget, model_reading=True,
                                          model_how=args.model_reading)
    if args.postpone is not None:
        hard.budget = dataclasses.replace(hard.budget, postpone=args.postpone)
    capped: list[logging.LogRecord] = []

    class Count(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            capped.append(record)

    logging.getLogger("euchre.bots").addHandler(Count())
    medium = make("medium", seed=args.seed)
    seats = [hard, medium, hard, medium]
    times: dict[str, list[float]] = {"all": [], "play": [], "first trick": [], "bid": []}
    for i in range(args.hands):
        dealer = i % 4
        state = HandState(rules, dealer, deal_from_deck(shuffled_deck(rules.benny, rng), dealer))
        while not state.is_over:
            seat = state.to_act
            assert seat is not None
            view = state.view(seat)
            start = time.perf_counter()
            cpu_start = time.thread_time()
            action = seats[seat].choose(view)
            elapsed = time.perf_counter() - start
            if args.clock == "cpu":
                elapsed = time.thread_time() - cpu_start
            if seats[seat] is hard and len(view.legal) > 1:
                times["all"].append(elapsed)
                if view.phase == "play":
                    times["play"].append(elapsed)
                    if not view.tricks:
                        times["first trick"].append(elapsed)
                elif view.phase in ("order", "call", "benny"):
                    times["bid"].append(elapsed)
            state = state.apply(action)
    b = hard.budget
    print(f"{args.level}: {b.samples} deals, {b.nodes} nodes, time cap {b.time_cap} s, "
          f"{'C' if HAS_C_SOLVER else 'pure-Python'} solver, {args.hands} hands, one process, "
          f"{args.clock} clock, model reading "
          f"{b.model_how if b.model_reading else 'off'}, postponed plies {b.postpone}; "
          f"{len(capped)} decisions reached the time cap")
    for name, values in times.items():
        if values:
            p50 = 1000 * percentile(values, 0.5)
            p99 = 1000 * percentile(values, 0.99)
            print(f"  {name:12s} {len(values):6d} decisions   median {p50:7.1f} ms"
                  f"   p99 {p99:7.1f} ms   max {1000 * max(values):7.1f} ms")


if __name__ == "__main__":
    main()
