"""Where a candidate player's decisions differ from a reference player's, and what each is worth.

Arena deals (``Random("arena:S:deal:i")``, dealer ``i % 4``, 0-0) are played by four
reference players (two seeds, one per side, as the arena seats them). At every decision
with a real choice the candidate is asked too; where it chooses otherwise, the hand is
played on from the candidate's action by the reference players, and the difference in
the deciding side's points (candidate's line minus the reference line) is recorded by
decision type. Both lines are deterministic, so one play-out each is exact for that deal
and those seeds. Summed over the deal's four seats and divided by the deals, the figure
estimates what the candidate on one side would score per deal against the reference in
``euchre arena`` (to first order: after the changed decision both sides play the
reference's way). Most decisions agree, so this measures a change far faster than a match.

Usage: python scripts/research/probe_bots.py CANDIDATE [--ref hard] [--deals N] [--start I]
       [--seed S] [--workers W] [--json] [--progress FILE] [--phases play]
       [--time-cap SECONDS]
Candidates: a level name, or LEVEL-VARIANT with the variants in :func:`candidate`
(``read``: reading the play; ``bids``: sampled call worths; ``loneN``: loners judged on
sampled deals with a lone-hand calibration of N/10 points; ``playN[mM][zZ]``: close
bids, within M/100 points, played out on N deals by the conventions, the tables overruled
when the rival leads by Z standard errors: :mod:`euchre.bots.playouts`; ``mLsS``: the
conventional lead played within L/100 points of the best card, second hand's card within
S/100); ``modelT[fF][j|p]``: the learned model of play weighs the deals, tempered by T/10
with a floor of F/100, ``j`` joined with today's reading, ``p`` reading the card play only;
``postN``: postponed solving, the other seats' next N cards of the trick chosen by the
learned model of play before the open-hand solver takes over).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import os
import random
from collections import defaultdict
from typing import Any

from euchre.actions import Action
from euchre.bots import make
from euchre.bots.base import Player
from euchre.bots.hard import HardBot
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.shuffle import deal_from_deck, shuffled_deck
from euchre.view import HandView

_W: dict[str, Any] = {}


def candidate(name: str, seed: int) -> Player:
    """The candidate player called ``name``."""
    base, _, variant = name.partition("-")
    bot = make(base, seed=seed)
    if variant and isinstance(bot, HardBot):
        if variant == "read":
            bot.budget = dataclasses.replace(bot.budget, read_play=True)
        elif variant == "noread":
            bot.budget = dataclasses.replace(bot.budget, read_play=False)
        elif variant == "bids":
            bot.budget = dataclasses.replace(bot.budget, bid_samples=160)
        elif variant.startswith("lone"):
            from euchre.bots import bidding

            if variant[4:]:
                bidding.LONE_CALIBRATION = float(variant[4:]) / 10.0
            bot.budget = dataclasses.replace(bot.budget, bid_samples=300)
        elif variant.startswith("play"):
            # playN[mM][zZ]: close bids (within M/100) played out on N deals, the tables
            # overruled when the rival leads by Z standard errors
            spec, _, z = variant[4:].partition("z")
            n, _, m = spec.partition("m")
            bot.budget = dataclasses.replace(
                bot.budget, bid_playouts=int(n or 200),
                playout_margin=float(m) / 100.0 if m else bot.budget.playout_margin,
                playout_z=float(z) if z else 0.0)
        elif variant.startswith("m") and "s" in variant:
            # mLsS: the conventions' lead margin L/100 and second-hand margin S/100 points
            lead, _, second = variant[1:].partition("s")
            bot.budget = dataclasses.replace(
                bot.budget, lead_margin=float(lead) / 100.0,
                second_hand_margin=float(second) / 100.0)
        elif variant.startswith("model"):
            # modelT[fF][j|p]: the learned model of play weighs the deals (temper T/10,
            # floor F/100); ``j``: joined with today's reading, ``p``: the card play alone
            # read by the model, the bidding by the tables (docs/bots.md, issue 23)
            spec = variant[5:]
            how = "all"
            if spec.endswith(("j", "p")):
                how = "joint" if spec[-1] == "j" else "plays"
                spec = spec[:-1]
            t, _, f = spec.partition("f")
            bot.budget = dataclasses.replace(
                bot.budget, model_reading=True, model_how=how,
                model_temper=float(t) / 10.0 if t else bot.budget.model_temper,
                model_floor=float(f) / 100.0 if f else bot.budget.model_floor)
        elif variant.startswith("post") and variant[4:].isdigit():
            # postN: card play postpones the solver past the other seats' next N cards of
            # the trick, chosen by the learned model of play (bots/postponed.py, issue 23)
            bot.budget = dataclasses.replace(bot.budget, postpone=int(variant[4:]))
        elif variant == "bidsread":
            bot.budget = dataclasses.replace(bot.budget, bid_samples=160, read_play=True)
        else:
            raise SystemExit(f"unknown variant {variant!r}")
    return bot


def _init(cand: str, ref: str, seed: int, preset: str, phases: str = "",
          time_cap: float = 0.0) -> None:
    refs = [make(ref, seed=seed * 2 + 1), make(ref, seed=seed * 2 + 2)]
    cands = [candidate(cand, seed * 2 + 1), candidate(cand, seed * 2 + 2)]
    if time_cap > 0:
        # the budgets count work, not time: lifting the cap keeps a busy machine's
        # figures those of a quiet one (a capped decision depends on the load)
        for bot in (*refs, *cands):
            if isinstance(bot, HardBot):
                bot.budget = dataclasses.replace(bot.budget, time_cap=time_cap)
    _W.update(
        ref=refs,
        cand=cands,
        seed=seed,
        rules=Rules.preset(preset),
        phases=set(phases.split(",")) if phases else None,
    )


def _finish(state: HandState) -> HandState:
    ref = _W["ref"]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state = state.apply(ref[seat % 2].choose(state.view(seat)), seat)
    return state


def _kind(view: HandView, ref: Action, cand: Action) -> str:
    if view.phase == "play":
        return f"play trick {len(view.tricks) + 1}"
    if view.phase in ("order", "call", "benny"):
        if "pass" in (ref.kind, cand.kind):
            return f"bid r{1 if view.phase == 'order' else 2} pass?"
        if ref.alone != cand.alone and ref.suit == cand.suit:
            return "bid alone?"
        return "bid suit?"
    return view.phase


def _deal(i: int) -> list[tuple[str, float]]:
    rules: Rules = _W["rules"]
    rng = random.Random(f"arena:{_W['seed']}:deal:{i}")
    dealer = i % 4
    deal = deal_from_deck(shuffled_deck(rules.benny, rng), dealer, rng.choice(("3-2", "2-3")))
    state = HandState(rules, dealer, deal)
    out: list[tuple[str, float]] = []
    pending: list[tuple[str, int, HandState]] = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = _W["ref"][seat % 2].choose(view)
        if len(view.legal) > 1 and (_W["phases"] is None or view.phase in _W["phases"]):
            other = _W["cand"][seat % 2].choose(view)
            if other != action:
                pending.append((_kind(view, action, other), seat, state.apply(other, seat)))
        state = state.apply(action, seat)
    for kind, seat, alt in pending:
        end = _finish(alt)
        side = seat % 2
        mine = end.points[side] - end.points[1 - side]
        base = state.points[side] - state.points[1 - side]
        out.append((kind, float(mine - base)))
    return out


def main() -> None:
    """Probe and print."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("candidate")
    ap.add_argument("--ref", default="hard")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--preset", default="classic")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--phases", default="",
                    help="ask the candidate only in these phases (comma-separated, e.g. "
                         "play: where a card-play change can differ; bots draw each "
                         "decision's randomness from the seed and the view, so skipping "
                         "the others changes nothing else)")
    ap.add_argument("--time-cap", type=float, default=0.0,
                    help="seconds: every player's time cap (0: the levels' own)")
    ap.add_argument("--progress", help="append each deal's result here; a re-run with the "
                    "same file skips the deals it holds (resumable)")
    args = ap.parse_args()
    init = (args.candidate, args.ref, args.seed, args.preset, args.phases, args.time_cap)
    indices = range(args.start, args.start + args.deals)
    done: dict[int, list[tuple[str, float]]] = {}
    if args.progress and os.path.exists(args.progress):
        with open(args.progress) as f:
            for line in f:
                if line.endswith("\n"):
                    rec = json.loads(line)
                    if (rec["candidate"], rec["ref"], rec["seed"]) == (
                            args.candidate, args.ref, args.seed):
                        done[rec["deal"]] = [(k, d) for k, d in rec["diffs"]]
    todo = [i for i in indices if i not in done]
    out = open(args.progress, "a") if args.progress else None  # noqa: SIM115

    def keep(i: int, r: list[tuple[str, float]]) -> None:
        done[i] = r
        if out is not None:
            out.write(json.dumps({"candidate": args.candidate, "ref": args.ref,
                                  "seed": args.seed, "deal": i, "diffs": r}) + "\n")
            out.flush()

    if args.workers > 1:
        with multiprocessing.Pool(args.workers, _init, init) as pool:
            for i, r in zip(todo, pool.imap(_deal, todo, chunksize=1), strict=True):
                keep(i, r)
    else:
        _init(*init)
        for i in todo:
            keep(i, _deal(i))
    if out is not None:
        out.close()
    results = [done[i] for i in indices]
    per_deal = [sum(d for _, d in r) / 2.0 for r in results]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for kind, d in r:
            by_kind[kind].append(d)
    n = len(per_deal)
    mean = sum(per_deal) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in per_deal) / max(1, n - 1))
    half = 1.96 * sd / math.sqrt(n)
    rep = {
        "candidate": args.candidate, "ref": args.ref, "deals": n, "start": args.start,
        "seed": args.seed, "per_deal": mean, "ci95": [mean - half, mean + half],
        "kinds": {k: {"n": len(v), "sum": sum(v), "mean": sum(v) / len(v),
                      "better": sum(1 for x in v if x > 0), "worse": sum(1 for x in v if x < 0)}
                  for k, v in sorted(by_kind.items())},
        "raw": per_deal,
    }
    if args.json:
        print(json.dumps(rep))
        return
    print(f"{args.candidate} vs {args.ref}: {n} deals from {args.start}, seed {args.seed}")
    print(f"  estimated points per deal {mean:+.4f} (95% {mean - half:+.4f} .. {mean + half:+.4f})")
    for k, v in rep["kinds"].items():
        print(f"  {k:14s} differ {v['n']:5d}  better {v['better']:4d} worse {v['worse']:4d}"
              f"  sum {v['sum']:+7.1f}  per deal {v['sum'] / 2.0 / n:+.4f}")


if __name__ == "__main__":
    main()
