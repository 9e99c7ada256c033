"""Every other card played out by the hard player itself: where its card play loses points.

Deals (``Random("labels:S:deal:i")``, dealer ``i % 4``, 0-0, classic rules) are played by
four ``hard`` players. At each card-play decision with a choice in the first
``--tricks`` tricks, every legal card the player did not choose is played instead, and
the hand is played on by the same four players from the same deal (deterministic: one
play-out is exact for that deal). A row per such alternative:

``deal``, ``trick`` (1-5), ``order`` (0 leads … 3 plays last), ``role`` ("maker" or
``defender``), ``alone`` (the makers went alone), ``gap`` (the chosen card's estimated
worth less the alternative's, the player's own sampling), ``chosen`` and ``alt`` (each a
description: ``trump``, ``follows``, ``wins`` (beats the card winning the trick so far),
``boss`` (no unseen card of its suit is higher), ``high`` (the highest of the legal cards
by trick power), ``low`` (the lowest)), and ``played``: the alternative's points less the
chosen card's, for the player's side.

Summed by class (``scripts/research/fit_play_corrections.py``), these show whether the hard
player's card choice errs systematically where a rule could correct it.

Usage: python scripts/research/label_plays.py [--deals N] [--start I] [--seed S] [--tricks T]
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
from euchre.bots import knowledge as K
from euchre.bots import make
from euchre.bots.base import Player, decision_rng
from euchre.bots.hard import HardBot, ranked_plays
from euchre.hand import HandState
from euchre.lookup import EFFECTIVE_SUIT
from euchre.rules import Rules
from euchre.shuffle import deal_from_deck, shuffled_deck
from euchre.view import HandView

_W: dict[str, Any] = {}


def _init(seed: int, tricks: int) -> None:
    _W.update(players=[make("hard", seed=seed * 2 + 1), make("hard", seed=seed * 2 + 2)],
              seed=seed, tricks=tricks, rules=Rules())


def _finish(state: HandState) -> HandState:
    players: list[Player] = _W["players"]
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state = state.apply(players[seat % 2].choose(state.view(seat)), seat)
    return state


def describe(card: int, view: HandView, legal: list[int]) -> dict[str, bool]:
    """What a card is, in this view, among the legal cards."""
    trump = view.trump
    win = K.winning(view)
    led = K.led_suit(view)
    power = [K.power(c, trump) for c in legal]
    return {
        "trump": EFFECTIVE_SUIT[trump][card] == trump,
        "follows": led < 0 or EFFECTIVE_SUIT[trump][card] == led,
        "wins": win is None or K.beats(card, win[1], view),
        "boss": K.is_boss(card, view),
        "high": K.power(card, trump) == max(power),
        "low": K.power(card, trump) == min(power),
    }


def _deal(i: int) -> list[dict[str, Any]]:
    rules: Rules = _W["rules"]
    rng = random.Random(f"labels:{_W['seed']}:deal:{i}")
    dealer = i % 4
    deal = deal_from_deck(shuffled_deck(rules.benny, rng), dealer, rng.choice(("3-2", "2-3")))
    state = HandState(rules, dealer, deal)
    players: list[HardBot] = _W["players"]
    pending: list[tuple[dict[str, Any], int, HandState]] = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        bot = players[seat % 2]
        if view.phase != "play" or len(view.legal) < 2 or len(view.tricks) >= _W["tricks"]:
            state = state.apply(bot.choose(view), seat)
            continue
        est = ranked_plays(view, decision_rng(bot.seed, view), bot.budget)
        chosen = est[0]
        legal = [e.card for e in est]
        common = {
            "deal": i, "trick": len(view.tricks) + 1, "order": len(view.trick),
            "role": "maker" if view.maker % 2 == seat % 2 else "defender",
            "alone": view.alone, "chosen": describe(chosen.card, view, legal),
        }
        for e in est[1:]:
            row = {**common, "gap": chosen.worth - e.worth,
                   "alt": describe(e.card, view, legal)}
            pending.append((row, seat, state.apply(A.PLAYS[e.card], seat)))
        state = state.apply(A.PLAYS[chosen.card], seat)
    out = []
    for row, seat, alt in pending:
        end = _finish(alt)
        side = seat % 2
        row["played"] = float((end.points[side] - end.points[1 - side])
                              - (state.points[side] - state.points[1 - side]))
        out.append(row)
    return out


def main() -> None:
    """Label and print."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tricks", type=int, default=3)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", default="-")
    args = ap.parse_args()
    sink = sys.stdout if args.out == "-" else open(args.out, "a")  # noqa: SIM115
    indices = range(args.start, args.start + args.deals)
    with multiprocessing.Pool(args.workers, _init, (args.seed, args.tricks)) as pool:
        for rows in pool.imap(_deal, indices, chunksize=4):
            for row in rows:
                sink.write(json.dumps(row) + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
