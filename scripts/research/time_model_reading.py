"""CPU time the learned model's reading spends a sampled deal, at the expert's scale.

At each seat's first card of trick ``--trick`` in the first ``--games`` held-out games (see
``scripts/research/check_inference.py``), one :class:`euchre.bots.action_model.ModelReader` (temper
0.5, floor 0.1, the shipped weights) weighs ``--deals`` deals sampled within what the seat
knows, as one expert decision would; the conventions' reader
(:class:`euchre.bots.reading.PlayReader`) is timed on the same deals beside it. Prints the
mean CPU milliseconds a deal (this thread's CPU time, so a busy machine does not inflate
it). Runs against any revision that has ``ModelReader(view, temper=, floor=)``: put that
revision's ``src`` first on ``PYTHONPATH`` to compare.

Usage: python scripts/research/time_model_reading.py --heldout FILE [--games N] [--deals K]
       [--trick T] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from record_decisions import games_in, replay

from euchre.bots.action_model import ModelReader
from euchre.bots.reading import PlayReader
from euchre.bots.sampling import knowledge, sample_hands


def main() -> None:
    """Time and print."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--heldout", required=True)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--deals", type=int, default=800)
    ap.add_argument("--trick", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    model_s = conv_s = 0.0
    deals = points = 0
    for game in games_in(args.heldout)[: args.games]:
        seen: set[int] = set()
        for view, _, _ in replay(game):
            if view.phase != "play" or len(view.tricks) != args.trick - 1 or view.seat in seen:
                continue
            seen.add(view.seat)
            rng = random.Random(f"time:{args.seed}:{game['game']}:{view.seat}")
            k = knowledge(view)
            hands = [sample_hands(k, rng) for _ in range(args.deals)]
            t0 = time.thread_time()
            reader = ModelReader(view, temper=0.5, floor=0.1)
            r2 = random.Random(0)
            for h in hands:
                reader.weight(h, r2)
            t1 = time.thread_time()
            conv = PlayReader(view)
            for h in hands:
                conv.weight(h)
            t2 = time.thread_time()
            model_s += t1 - t0
            conv_s += t2 - t1
            deals += len(hands)
            points += 1
    print(f"{points} decisions (first card of trick {args.trick}), {args.deals} deals each: "
          f"ModelReader.weight {1000 * model_s / deals:.3f} ms CPU a deal, "
          f"PlayReader.weight {1000 * conv_s / deals:.3f} ms")


if __name__ == "__main__":
    main()
