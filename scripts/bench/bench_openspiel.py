"""Our computer players against OpenSpiel's C++ ISMCTS, inside OpenSpiel's own euchre.

Needs ``open_spiel`` from PyPI (``pip install -e '.[openspiel]'``; 2.0.2 was used). Each
deal is played twice in OpenSpiel's ``euchre`` (stick the dealer on, no lone defence,
as it plays by default), our player in seats 0 and 2 then in seats 1 and 3, the same
cards and dealer (duplicate). Points per deal are our side's OpenSpiel returns averaged
over the pair; the 95% interval is the normal interval over deals.

Our player is wrapped by ``euchre.interop.openspiel`` (docs/interop.md explains the mapping
and each rule difference: OpenSpiel asks "alone" after the discard, its dealer may not
discard the upcard, and it plays one hand).

Usage: python scripts/bench/bench_openspiel.py [--level expert] [--deals N] [--sims S] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

import pyspiel  # type: ignore[import-not-found, unused-ignore]

from euchre.bots import make
from euchre.interop import openspiel as O


def deal_cards(deal_no: int, seed: int) -> tuple[int, list[list[int]], list[int]]:
    """The dealer, the four hands and the kitty (upcard first) of one deal, our ids."""
    rng = random.Random(f"openspiel:{seed}:deal:{deal_no}")
    deck = list(range(24))
    rng.shuffle(deck)
    hands = [deck[5 * s: 5 * s + 5] for s in range(4)]
    return deal_no % 4, hands, deck[20:]


def os_start(game: Any, dealer: int, hands: list[list[int]], kitty: list[int]) -> Any:
    """OpenSpiel's state after dealing these cards (chance action i: seat dealer + i)."""
    state = game.new_initial_state()
    state.apply_action(dealer)
    for i in range(20):
        state.apply_action(O.card_to_openspiel(hands[(dealer + i) % 4][i // 4]))
    state.apply_action(O.card_to_openspiel(kitty[0]))
    return state


def play(game: Any, bot: Any, ours: int, ismcts: Any, dealer: int, hands: list[list[int]],
         kitty: list[int], times: list[float]) -> float:
    """One hand; our side is seats ``ours`` and ``ours + 2``. Our side's points."""
    state = os_start(game, dealer, hands, kitty)
    ismcts.restart()
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if seat % 2 == ours:
            t = time.perf_counter()
            move = O.choose(bot, state.history()) if len(legal) > 1 else legal[0]
            if len(legal) > 1:
                times.append(time.perf_counter() - t)
        else:
            move = ismcts.step(state) if len(legal) > 1 else legal[0]
        assert move in legal, (move, legal)
        state.apply_action(move)
    return float(state.returns()[ours])


def main() -> None:
    """Play the duplicate deals and print the figures (one JSON object with --json)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = pyspiel.load_game("euchre")
    evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed)
    ismcts = pyspiel.ISMCTSBot(args.seed, evaluator, 2.0, args.sims, -1,
                               pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    bot = make(args.level, seed=args.seed)
    diffs: list[float] = []
    times: list[float] = []
    start = time.perf_counter()
    for d in range(args.deals):
        dealer, hands, kitty = deal_cards(d, args.seed)
        a = play(game, bot, 0, ismcts, dealer, hands, kitty, times)
        b = play(game, bot, 1, ismcts, dealer, hands, kitty, times)
        diffs.append((a + b) / 2.0)
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
    times.sort()
    out = {
        "level": args.level, "sims": args.sims, "deals": n, "seed": args.seed,
        "points_per_deal": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "decision_ms": {"p50": round(1000 * times[len(times) // 2], 2) if times else None,
                        "p99": round(1000 * times[int(0.99 * len(times))], 2) if times else None},
        "seconds": round(time.perf_counter() - start, 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{args.level} against OpenSpiel ISMCTS-{args.sims}: {mean:+.3f} points a deal "
              f"(95% {mean - half:+.3f} .. {mean + half:+.3f}) over {n} duplicate deals, "
              f"{out['seconds']} s")


if __name__ == "__main__":
    main()
