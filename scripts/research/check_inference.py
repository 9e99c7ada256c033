"""Does the model of play place the hidden cards better than today's reading? A check.

On held-out games recorded by ``scripts/research/record_decisions.py``, at each seat's first card
of trick ``--trick`` (default 3, when the bidding and two tricks are there to read), the
unseen cards are dealt ``--deals`` times within what the seat knows
(:func:`euchre.bots.sampling.sample_hands`) and each deal is weighed:

- ``uniform``: every deal alike;
- ``today``: the expert's reading: the bidding tables (``bid_weight``), the play clues
  (``clue_weight``) and the conventions' halving rule (``reading.PlayReader``, MISS 0.5);
- ``model tT fF``: :class:`euchre.bots.action_model.ModelReader`, each seen action of the
  other seats scoring ``max(p, F) ** T``;
- ``today x model``: both (the model at temper 0.5, floor 0.1);
- ``tables x model tT fF``: the bidding tables and play clues as today, the model reading
  the card play alone in place of the conventions' halving rule.

``--time`` also prints the CPU time :meth:`ModelReader.weight` spends a deal.

For each unseen card the weighted deals give the chance it sits in each other hand or the
kitty (mixed 5 % with the unweighted frequencies, so no card gets chance 0); the figure is
the mean log-likelihood per unseen card of where the cards really are, with the effective
number of deals (``(sum w)^2 / sum w^2``) as a share of those dealt. Differences from
``today`` are paired per decision point (mean and 95 % interval).

Usage: python scripts/research/check_inference.py --heldout FILE [--games N] [--deals K]
       [--trick 3] [--seed S] [--model FILE]
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from record_decisions import games_in, replay

from euchre.bots.action_model import ActionModel, ModelReader, load_model
from euchre.bots.knowledge import mask
from euchre.bots.reading import PlayReader
from euchre.bots.sampling import (
    Hands,
    bid_weight,
    clue_weight,
    informative_bids,
    knowledge,
    play_clues,
    sample_hands,
)
from euchre.cards import cards_of

SETTINGS = ((1.0, 0.02), (0.5, 0.02), (0.5, 0.1), (0.25, 0.05))
"""(temper, floor) pairs tried for the model."""
PLAYS = ((0.5, 0.1), (1.0, 0.05), (1.0, 0.1))
"""(temper, floor) pairs tried for the model reading the card play alone."""
JOINT = (0.5, 0.1)
"""The (temper, floor) of the model when joined with today's reading."""
MIX = 0.05
"""Share of the unweighted frequencies mixed into each card's placement chances."""


def loglik(pool: int, me: int, truth: Hands, deals: list[Hands], w: list[float]) -> float:
    """Mean log-chance per unseen card of its true place (a hand or the kitty, 4)."""
    total = sum(w)
    n = len(deals)
    out = 0.0
    cards = cards_of(pool)
    for c in cards:
        where = next((s for s in range(4) if s != me and truth[s] >> c & 1), 4)
        hit_w = 0.0
        hits = 0
        for d, x in zip(deals, w, strict=True):
            loc = next((s for s in range(4) if s != me and d[s] >> c & 1), 4)
            if loc == where:
                hit_w += x
                hits += 1
        base = (hits + 0.25) / (n + 1.0)
        weighted = hit_w / total if total > 0 else base
        out += math.log((1 - MIX) * weighted + MIX * base)
    return out / len(cards)


def ess(w: list[float]) -> float:
    """Effective sample size as a share of the deals."""
    s = sum(w)
    q = sum(x * x for x in w)
    return (s * s / q) / len(w) if q > 0 else 0.0


def main() -> None:
    """Check and print."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--heldout", required=True)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--trick", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--model")
    args = ap.parse_args()
    model = ActionModel.from_json(Path(args.model).read_text()) if args.model else load_model()
    names = (["uniform", "today"] + [f"model t{t} f{f}" for t, f in SETTINGS] + ["today x model"]
             + [f"tables x model t{t} f{f}" for t, f in PLAYS])
    spent = [0.0, 0]
    results: dict[str, list[tuple[float, float]]] = {n: [] for n in names}
    for game in games_in(args.heldout)[: args.games]:
        seen: set[int] = set()
        for view, _, state in replay(game):
            if view.phase != "play" or len(view.tricks) != args.trick - 1 or view.seat in seen:
                continue
            seen.add(view.seat)
            me = view.seat
            h0, h1, h2, h3 = (mask(state.view(s).hand) for s in range(4))
            truth: Hands = (h0, h1, h2, h3)
            k = knowledge(view)
            rng = random.Random(f"check:{args.seed}:{game['seed']}:{game['game']}:{me}")
            deals = [sample_hands(k, rng) for _ in range(args.deals)]
            bids = informative_bids(view)
            clues = play_clues(view)
            reader = PlayReader(view)
            today = [bid_weight(view, k, h, bids) * clue_weight(h, clues) * reader.weight(h)
                     for h in deals]
            weights: dict[str, list[float]] = {"uniform": [1.0] * len(deals), "today": today}
            for t, f in SETTINGS:
                mr = ModelReader(view, model, temper=t, floor=f)
                r2 = random.Random(rng.random())
                t0 = time.process_time()
                ws = [mr.weight(h, r2) for h in deals]
                spent[0] += time.process_time() - t0
                spent[1] += len(deals)
                weights[f"model t{t} f{f}"] = ws
            tables = [bid_weight(view, k, h, bids) * clue_weight(h, clues) for h in deals]
            for t, f in PLAYS:
                mr = ModelReader(view, model, temper=t, floor=f, plays_only=True)
                r2 = random.Random(rng.random())
                weights[f"tables x model t{t} f{f}"] = [
                    a * mr.weight(h, r2) for a, h in zip(tables, deals, strict=True)]
            joint = weights[f"model t{JOINT[0]} f{JOINT[1]}"]
            weights["today x model"] = [a * b for a, b in zip(today, joint, strict=True)]
            for n in names:
                results[n].append((loglik(k.pool, me, truth, deals, weights[n]),
                                   ess(weights[n])))
    points = len(results["today"])
    print(f"{points} decision points (first card of trick {args.trick}) in "
          f"{min(args.games, len(games_in(args.heldout)))} held-out games of "
          f"{args.heldout}, {args.deals} deals each, seed {args.seed}")
    print(f"ModelReader.weight: {1000 * spent[0] / max(1, spent[1]):.3f} ms CPU a deal "
          f"({spent[1]} deals, a fresh reader per decision and setting)")
    print(f"  {'weighting':24s} {'loglik/card':>11s} {'ESS':>6s} {'vs today':>9s} {'95%':>18s}")
    base = [x for x, _ in results["today"]]
    def diff(xs: list[float]) -> tuple[float, float]:
        d = [a - b for a, b in zip(xs, base, strict=True)]
        m = sum(d) / len(d)
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / max(1, len(d) - 1))
        return m, 1.96 * sd / math.sqrt(len(d))

    for n in names:
        xs = [x for x, _ in results[n]]
        m, h = diff(xs)
        print(f"  {n:24s} {sum(xs) / points:11.4f} {sum(e for _, e in results[n]) / points:6.2f}"
              f" {m:+9.4f} {m - h:+8.4f}..{m + h:+.4f}")


if __name__ == "__main__":
    main()
