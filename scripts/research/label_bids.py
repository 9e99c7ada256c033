"""Close calls and passes played out by the hard player itself: labels for bid corrections.

The bidding tables (:mod:`euchre.bots.policy`) are fitted on open-handed play-outs. This
script measures how they err when the hand is played by the hard player, who sees only
its own cards. Deals (``Random("labels:S:deal:i")``, dealer ``i % 4``, 0-0, classic
rules) are played by four ``hard`` players (seeds as the arena seats them). At every
bidding decision with a choice that the clear-cut rules do not settle, where the tables'
best call and passing are within ``--margin`` points of utility, the line not taken is
played on by the same four players from the same deal; the two lines' points for the
bidder's side give the label ``played`` = points after calling − points after passing,
beside the tables' ``table`` = utility of calling − utility of passing.

One JSON object per labelled decision on standard output (or ``--out``, appended):
``deal``, ``round``, ``pos``, ``alone``, ``chosen`` ("call" or "pass"), ``table``,
``played``, ``features`` (:func:`~euchre.bots.policy.bid_features` of the call).
``scripts/research/fit_bid_corrections.py`` measures what corrections fitted to them would gain.

Usage: python scripts/research/label_bids.py [--deals N] [--start I] [--seed S] [--margin M]
       [--workers W] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
from typing import Any

from euchre import actions as A
from euchre.actions import Action
from euchre.bots import make
from euchre.bots.base import Player
from euchre.bots.clear_cut import clear_bids
from euchre.bots.policy import bid_estimates, bid_features, hand_for, position
from euchre.cards import card_suit
from euchre.hand import HandState
from euchre.rules import Rules
from euchre.shuffle import deal_from_deck, shuffled_deck
from euchre.view import HandView

_W: dict[str, Any] = {}


def _init(seed: int, margin: float) -> None:
    _W.update(players=[make("hard", seed=seed * 2 + 1), make("hard", seed=seed * 2 + 2)],
              seed=seed, margin=margin, rules=Rules())


def _finish(state: HandState) -> HandState:
    players: list[Player] = _W["players"]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state = state.apply(players[seat % 2].choose(state.view(seat)), seat)
    return state


def _suit(view: HandView, action: Action) -> int:
    return card_suit(view.upcard) if action.kind == A.ORDER else action.suit


def _close(view: HandView, chosen: Action) -> tuple[Action, float, bool] | None:
    """(the rival line's action, table utility of call − pass, whether the call is alone)."""
    if view.phase not in ("order", "call") or A.PASS not in view.legal:
        return None
    if clear_bids(view) is not None:
        return None
    est = bid_estimates(view)
    by_action = {e.action: e for e in est}
    passing = by_action[A.PASS].utility
    calls = [e for e in est if e.action != A.PASS and e.utility > -50.0]
    if not calls:
        return None
    if chosen == A.PASS:
        best = max(calls, key=lambda e: e.utility)
        call, rival = best.action, best.action
    else:
        call, rival = chosen, A.PASS
    diff = by_action[call].utility - passing
    if abs(diff) > _W["margin"]:
        return None
    return rival, diff, call.alone


def _deal(i: int) -> list[dict[str, Any]]:
    rules: Rules = _W["rules"]
    rng = random.Random(f"labels:{_W['seed']}:deal:{i}")
    dealer = i % 4
    deal = deal_from_deck(shuffled_deck(rules.benny, rng), dealer, rng.choice(("3-2", "2-3")))
    state = HandState(rules, dealer, deal)
    players: list[Player] = _W["players"]
    pending: list[tuple[dict[str, Any], int, HandState]] = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = players[seat % 2].choose(view)
        if len(view.legal) > 1:
            close = _close(view, action)
            if close is not None:
                rival, diff, alone = close
                call = rival if action == A.PASS else action
                round_ = 1 if view.phase == "order" else 2
                suit = _suit(view, call)
                row = {
                    "deal": i, "round": round_, "pos": position(view), "alone": alone,
                    "chosen": "pass" if action == A.PASS else "call", "table": diff,
                    "features": bid_features(hand_for(view, suit, round_), suit,
                                             position(view), round_, view.upcard),
                }
                pending.append((row, seat, state.apply(rival, seat)))
        state = state.apply(action, seat)
    out = []
    for row, seat, alt in pending:
        end = _finish(alt)
        side = seat % 2
        rival_pts = end.points[side] - end.points[1 - side]
        main_pts = state.points[side] - state.points[1 - side]
        call_pts, pass_pts = ((main_pts, rival_pts) if row["chosen"] == "call"
                              else (rival_pts, main_pts))
        row["played"] = float(call_pts - pass_pts)
        out.append(row)
    return out


def main() -> None:
    """Label and print."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin", type=float, default=0.6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="-")
    args = ap.parse_args()
    sink = sys.stdout if args.out == "-" else open(args.out, "a")  # noqa: SIM115
    indices = range(args.start, args.start + args.deals)
    with multiprocessing.Pool(args.workers, _init, (args.seed, args.margin)) as pool:
        for rows in pool.imap(_deal, indices, chunksize=8):
            for row in rows:
                sink.write(json.dumps(row) + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
