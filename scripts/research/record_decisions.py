"""Record every decision of computer players in self-play, for fitting a model of play.

Game ``i`` of seed ``S`` is one hand at 0-0 from ``Random("record:S:deal:i")``, dealer
``i % 4``, played by four players of ``--level`` (seeds ``2S+1`` for seats 0 & 2, ``2S+2``
for 1 & 3, as the arena seats them). Each game is one JSON line: the deal, and every
decision as the seat, its legal actions and the action taken (in the engine's notation).
A decision's view is rebuilt by replaying the deal to it (``replay``), so the features a
model reads come from ``state.view(seat)`` only: what that seat knew.

Each line names the ``level`` that played it. Resumable: output is appended one finished
game a line; games of the same level and seed already in ``--out`` are skipped, and a last
line cut short by an interrupted run is dropped first. ``--time-cap`` lifts the players'
time cap (the budgets count work, so a capped decision is the only one that depends on the
machine's load: the expert's 2 s cap, say), as ``probe_bots.py`` does.

Usage: nice -n 19 python scripts/research/record_decisions.py --games N --seed S --out FILE
       [--level hard] [--start I] [--workers W] [--time-cap SECONDS]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import random
from collections.abc import Iterator
from typing import Any

from euchre.actions import parse_action
from euchre.bots import make
from euchre.bots.base import Player
from euchre.bots.hard import HardBot
from euchre.hand import Deal, HandState
from euchre.rules import Rules
from euchre.shuffle import deal_from_deck, shuffled_deck
from euchre.view import HandView

_W: dict[str, Any] = {}


def _init(level: str, seed: int, time_cap: float = 0.0) -> None:
    players = [make(level, seed=seed * 2 + 1), make(level, seed=seed * 2 + 2)]
    if time_cap > 0:
        for bot in players:
            if isinstance(bot, HardBot):
                bot.budget = dataclasses.replace(bot.budget, time_cap=time_cap)
    _W.update(players=players, seed=seed, level=level)


def play_game(i: int, seed: int, players: list[Player], level: str | None = None
              ) -> dict[str, Any]:
    """Game ``i`` of ``seed`` played by ``players`` (one per side), every decision recorded
    (with ``level``, the players' level, when given)."""
    rules = Rules.preset("classic")
    rng = random.Random(f"record:{seed}:deal:{i}")
    dealer = i % 4
    deal = deal_from_deck(shuffled_deck(rules.benny, rng), dealer, rng.choice(("3-2", "2-3")))
    state = HandState(rules, dealer, deal)
    decisions = []
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        view = state.view(seat)
        action = players[seat % 2].choose(view)
        decisions.append({"seat": seat, "legal": [str(a) for a in view.legal],
                          "taken": str(action)})
        state = state.apply(action, seat)
    named = {"level": level} if level is not None else {}
    return {"game": i, "seed": seed, **named, "dealer": dealer,
            "deal": {"hands": deal.hands, "kitty": deal.kitty, "pattern": deal.pattern},
            "decisions": decisions, "points": state.points}


def _game(i: int) -> str:
    return json.dumps(play_game(i, _W["seed"], _W["players"], _W["level"]),
                      separators=(",", ":"))


def replay(game: dict[str, Any]) -> Iterator[tuple[HandView, int, HandState]]:
    """Each recorded decision as (the seat's view then, index of the action taken, state)."""
    d = game["deal"]
    deal = Deal(tuple(tuple(h) for h in d["hands"]), tuple(d["kitty"]), d["pattern"])
    state = HandState(Rules.preset("classic"), game["dealer"], deal)
    for dec in game["decisions"]:
        seat = dec["seat"]
        view = state.view(seat)
        taken = parse_action(dec["taken"])
        if [str(a) for a in view.legal] != dec["legal"]:
            raise ValueError(f"game {game['game']}: the replay's legal actions differ")
        yield view, list(view.legal).index(taken), state
        state = state.apply(taken, seat)


def read_games(path: str) -> list[dict[str, Any]]:
    """Every complete game in a recording."""
    out: list[dict[str, Any]] = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            if line.endswith("\n"):
                out.append(json.loads(line))
    return out


def games_in(path: str) -> list[dict[str, Any]]:
    """Every complete game in a recording that must have some: a missing or empty file
    stops the script with one line saying so (the readers divide by what they read)."""
    if not os.path.exists(path):
        raise SystemExit(f"{path}: no such recording (make one with "
                         "scripts/research/record_decisions.py --out FILE)")
    games = read_games(path)
    if not games:
        raise SystemExit(f"{path}: the recording holds no complete game")
    return games


def _drop_partial(path: str) -> None:
    """Cut a last line an interrupted run left without its newline."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)


def main() -> None:
    """Record and append."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--level", default="hard")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--time-cap", type=float, default=0.0,
                    help="seconds: every player's time cap (0: the level's own)")
    args = ap.parse_args()
    _drop_partial(args.out)
    # a line without a level is from before lines named it: taken as this run's
    done = {(g["seed"], g["game"]) for g in read_games(args.out)
            if g.get("level", args.level) == args.level}
    todo = [i for i in range(args.start, args.start + args.games) if (args.seed, i) not in done]
    print(f"{len(todo)} games to play ({args.games - len(todo)} already in {args.out})")
    with open(args.out, "a") as out:
        if args.workers > 1:
            with multiprocessing.Pool(args.workers, _init,
                                      (args.level, args.seed, args.time_cap)) as pool:
                for line in pool.imap(_game, todo, chunksize=2):
                    out.write(line + "\n")
                    out.flush()
        else:
            _init(args.level, args.seed, args.time_cap)
            for i in todo:
                out.write(_game(i) + "\n")
                out.flush()


if __name__ == "__main__":
    main()
