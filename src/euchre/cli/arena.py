"""``euchre arena A B``: duplicate matches between two computer players.

Each deal is played twice with the same cards and the same dealer, A's side sitting in
seats 0 & 2 the first time and in seats 1 & 3 the second, so the luck of the cards cancels.
Points per deal is A's side's points minus B's side's, averaged over the pair, with a 95%
interval over deals. Games to the target are played the same way in a separate set: game
``j`` is played twice, the ``k``-th hand of both plays dealt from the same deck; the win
rate is A's share of those games. With ``--mixed`` A partners B against two B's.

Work is spread over processes; every deck and every bot decision is a function of
``--seed`` and the deal's number only, so the figures do not depend on ``--workers``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from ..bots import LEVELS, Player, make
from ..game import GameState
from ..hand import HandState
from ..rules import Rules
from ..shuffle import deal_from_deck, shuffled_deck


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``euchre arena``."""
    parser.add_argument("a", metavar="A", help=f"level of player A ({', '.join(LEVELS)})")
    parser.add_argument("b", metavar="B", help="level of player B")
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals (default 1000)")
    parser.add_argument(
        "--games", type=int, default=None,
        help="duplicate games to the target for the win rate (default deals/10, at least 10)",
    )
    parser.add_argument("--preset", default="classic", help="rules preset (default classic)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the decks and bots")
    parser.add_argument(
        "--workers", type=int, default=0, help="processes (default: one per core)"
    )
    parser.add_argument("--mixed", action="store_true", help="A partners B against two B's")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress bar on stderr")


@dataclass
class SideStats:
    """What one side did as makers, over every hand played."""

    made_trump: int = 0
    """Hands in which this side made trump."""
    made: int = 0
    """...and took three tricks or more."""
    euchred: int = 0
    """...and were euchred."""
    marches: int = 0
    """...and took all five."""
    loners: int = 0
    """Lone hands this side played."""
    loner_marches: int = 0
    """Lone hands that took all five tricks."""
    points: int = 0
    """Points this side scored."""

    def add(self, other: SideStats) -> None:
        """Add another tally into this one."""
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def to_json(self) -> dict[str, Any]:
        """The tally and its rates, JSON-ready."""
        n = self.made_trump
        return {
            "made_trump": n,
            "make_rate": self.made / n if n else None,
            "euchre_rate": self.euchred / n if n else None,
            "march_rate": self.marches / n if n else None,
            "loners": self.loners,
            "loner_marches": self.loner_marches,
            "points": self.points,
        }


@dataclass
class Result:
    """The outcome of one task (a duplicate deal or a duplicate game)."""

    kind: str
    """``deal`` or ``game``."""
    value: float
    """Deal: A's side minus B's side, mean of the pair. Game: A's wins in the pair / 2."""
    sides: tuple[SideStats, SideStats] = field(default_factory=lambda: (SideStats(), SideStats()))
    """Tallies for A's side and B's side."""
    hands: int = 0
    """Hands played (both plays)."""
    thrown_in: int = 0
    """Hands thrown in."""
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    """Seconds per decision of A and of B (real choices only, not forced moves)."""


class _TimedPlayer:
    """A player wrapper that records how long each real decision takes."""

    def __init__(self, bot: Player, sink: list[float]) -> None:
        self.bot = bot
        self.sink = sink

    def choose(self, view: Any) -> Any:
        if len(view.legal) == 1:
            return view.legal[0]
        start = time.perf_counter()
        action = self.bot.choose(view)
        self.sink.append(time.perf_counter() - start)
        return action


_WORKER: dict[str, Any] = {}


def _init_worker(a: str, b: str, seed: int, preset: str, mixed: bool) -> None:
    _WORKER.update(
        a=make(a, seed=seed * 2 + 1),
        b=make(b, seed=seed * 2 + 2),
        seed=seed,
        rules=Rules.preset(preset),
        mixed=mixed,
    )


def _seating(play: int, res: Result) -> tuple[list[_TimedPlayer], int]:
    """Players by seat for play 0 or 1 of a pair, and A's side."""
    a = _TimedPlayer(_WORKER["a"], res.times[0])
    b = _TimedPlayer(_WORKER["b"], res.times[1])
    if _WORKER["mixed"]:
        seats = [a, b, b, b] if play == 0 else [b, a, b, b]
    else:
        seats = [a, b, a, b] if play == 0 else [b, a, b, a]
    return seats, play


def _play_hand(state: HandState, seats: list[_TimedPlayer]) -> HandState:
    while not state.is_over:
        seat = state.to_act
        assert seat is not None
        state = state.apply(seats[seat].choose(state.view(seat)), seat)
    return state


def _tally(state: HandState, a_side: int, res: Result) -> None:
    res.hands += 1
    if state.thrown_in:
        res.thrown_in += 1
        return
    for s in (0, 1):
        stats = res.sides[0 if s == a_side else 1]
        stats.points += state.points[s]
    if state.maker < 0:
        return
    maker = res.sides[0 if state.maker % 2 == a_side else 1]
    maker.made_trump += 1
    taken = state.tricks_won[state.maker % 2]
    if taken >= 3:
        maker.made += 1
    else:
        maker.euchred += 1
    if taken == 5:
        maker.marches += 1
    if state.alone:
        maker.loners += 1
        if taken == 5:
            maker.loner_marches += 1


def _deck_rng(*parts: object) -> random.Random:
    return random.Random(":".join(str(p) for p in ("arena", *parts)))


def _run_deal(i: int) -> Result:
    rules: Rules = _WORKER["rules"]
    rng = _deck_rng(_WORKER["seed"], "deal", i)
    dealer = i % 4
    deal = deal_from_deck(shuffled_deck(rules.benny, rng), dealer, rng.choice(("3-2", "2-3")))
    res = Result("deal", 0.0)
    diff = 0
    for play in (0, 1):
        seats, a_side = _seating(play, res)
        state = _play_hand(HandState(rules, dealer, deal), seats)
        _tally(state, a_side, res)
        diff += state.points[a_side] - state.points[1 - a_side]
    res.value = diff / 2
    return res


def _run_game(j: int) -> Result:
    rules: Rules = _WORKER["rules"]
    res = Result("game", 0.0)
    wins = 0
    for play in (0, 1):
        seats, a_side = _seating(play, res)
        game = GameState(rules, first_dealer=j % 4)
        k = 0
        while not game.is_over:
            if game.needs_deal:
                rng = _deck_rng(_WORKER["seed"], "game", j, k)
                game = game.deal(shuffled_deck(rules.benny, rng), rng.choice(("3-2", "2-3")))
                k += 1
                continue
            seat = game.to_act
            assert seat is not None and game.current is not None
            game = game.apply(seats[seat].choose(game.current.view(seat)), seat)
            if game.current is not None and game.current.is_over:
                _tally(game.current, a_side, res)
        wins += game.winner == a_side
    res.value = wins / 2
    return res


def _run_task(task: tuple[str, int]) -> Result:
    kind, index = task
    return _run_deal(index) if kind == "deal" else _run_game(index)


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and 95% normal interval of the mean."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = statistics.fmean(values)
    if n < 2:
        return (mean, mean, mean)
    half = 1.96 * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of some values, nearest rank."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


class _Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, quiet: bool) -> None:
        self.total = total
        self.quiet = quiet
        self.done = 0
        self.start = time.perf_counter()
        self.shown = -1

    def step(self) -> None:
        self.done += 1
        pct = self.done * 100 // max(1, self.total)
        if self.quiet or (pct == self.shown and self.done != self.total):
            return
        self.shown = pct
        width = 30
        fill = self.done * width // max(1, self.total)
        elapsed = time.perf_counter() - self.start
        sys.stderr.write(
            f"\rarena [{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} "
            f"{pct:3d}% {elapsed:6.1f}s"
        )
        if self.done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def match(
    a: str,
    b: str,
    deals: int,
    games: int,
    preset: str = "classic",
    seed: int = 1,
    workers: int = 0,
    mixed: bool = False,
    quiet: bool = True,
) -> dict[str, Any]:
    """Play a duplicate match and return the report (the ``--json`` object)."""
    make(a)  # fail early on an unknown level
    make(b)
    Rules.preset(preset)
    tasks = [("deal", i) for i in range(deals)] + [("game", j) for j in range(games)]
    workers = workers or os.cpu_count() or 1
    init = (a, b, seed, preset, mixed)
    progress = _Progress(len(tasks), quiet)
    results: list[Result] = []
    start = time.perf_counter()
    if workers == 1 or len(tasks) < 2:
        _init_worker(*init)
        for t in tasks:
            results.append(_run_task(t))
            progress.step()
    else:
        ctx = multiprocessing.get_context("fork")
        with ctx.Pool(workers, initializer=_init_worker, initargs=init) as pool:
            for r in pool.imap(_run_task, tasks, chunksize=4):
                results.append(r)
                progress.step()
    seconds = time.perf_counter() - start
    return _report(a, b, preset, seed, mixed, deals, games, results, seconds, workers)


def _report(
    a: str, b: str, preset: str, seed: int, mixed: bool, deals: int, games: int,
    results: list[Result], seconds: float, workers: int,
) -> dict[str, Any]:
    deal_values = [r.value for r in results if r.kind == "deal"]
    game_values = [r.value for r in results if r.kind == "game"]
    ppd, lo, hi = interval(deal_values)
    win, wlo, whi = interval(game_values)
    sides = (SideStats(), SideStats())
    times: tuple[list[float], list[float]] = ([], [])
    hands = thrown = 0
    for r in results:
        sides[0].add(r.sides[0])
        sides[1].add(r.sides[1])
        times[0].extend(r.times[0])
        times[1].extend(r.times[1])
        hands += r.hands
        thrown += r.thrown_in

    def ms(values: list[float]) -> dict[str, float]:
        return {
            "p50": round(percentile(values, 0.5) * 1000, 4),
            "p99": round(percentile(values, 0.99) * 1000, 4),
            "mean": round(statistics.fmean(values) * 1000, 4) if values else math.nan,
            "decisions": len(values),
        }

    report: dict[str, Any] = _clean({
        "a": a,
        "b": b,
        "preset": preset,
        "seed": seed,
        "mixed": mixed,
        "deals": deals,
        "games": games,
        "points_per_deal": ppd,
        "ci95": [lo, hi],
        "game_win_rate": win,
        "game_win_ci95": [max(0.0, wlo), min(1.0, whi)] if game_values else [math.nan, math.nan],
        "decision_ms": ms(times[0]),
        "b_decision_ms": ms(times[1]),
        "sides": {"a": sides[0].to_json(), "b": sides[1].to_json()},
        "hands_played": hands,
        "thrown_in": thrown,
        "seconds": round(seconds, 2),
        "workers": workers,
    })
    return report


def _clean(obj: Any) -> Any:
    """The report with every NaN (nothing measured) replaced by None, for strict JSON."""
    if isinstance(obj, float) and math.isnan(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_clean(v) for v in obj]
    return obj


def _fmt_rate(x: float | None) -> str:
    return "-" if x is None else f"{x:.1%}"


def format_report(rep: dict[str, Any]) -> str:
    """The report as a few lines of text."""
    a, b = rep["a"], rep["b"]
    team = f"{a}+{b} vs {b}+{b}" if rep["mixed"] else f"{a} vs {b}"
    lines = [
        f"arena {team}: {rep['deals']} duplicate deals, {rep['games']} duplicate games, "
        f"preset {rep['preset']}, seed {rep['seed']}",
    ]
    if rep["deals"]:
        lines.append(
            f"  points per deal for {a}: {rep['points_per_deal']:+.3f} "
            f"(95% CI {rep['ci95'][0]:+.3f} .. {rep['ci95'][1]:+.3f})"
        )
    if rep["games"]:
        lines.append(
            f"  game win rate for {a}: {rep['game_win_rate']:.1%} "
            f"(95% CI {rep['game_win_ci95'][0]:.1%} .. {rep['game_win_ci95'][1]:.1%})"
        )
    for key, label in (("a", f"{a}'s side"), ("b", f"{b}'s side")):
        s = rep["sides"][key]
        lines.append(
            f"  {label}: made trump {s['made_trump']} times, made {_fmt_rate(s['make_rate'])}, "
            f"euchred {_fmt_rate(s['euchre_rate'])}, marched {_fmt_rate(s['march_rate'])}; "
            f"loners {s['loners']} ({s['loner_marches']} took all five)"
        )
    for key, label in (("decision_ms", a), ("b_decision_ms", b)):
        d = rep[key]
        if not d["decisions"]:
            continue
        lines.append(
            f"  decision time {label}: median {d['p50']:.3f} ms, p99 {d['p99']:.3f} ms "
            f"({d['decisions']} decisions)"
        )
    lines.append(
        f"  {rep['hands_played']} hands played, {rep['thrown_in']} thrown in, "
        f"{rep['seconds']} s on {rep['workers']} workers"
    )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Play the match and print the report."""
    games = args.games if args.games is not None else max(10, args.deals // 10)
    try:
        rep = match(
            args.a, args.b, args.deals, games, args.preset, args.seed, args.workers,
            args.mixed, quiet=args.quiet,
        )
    except ValueError as e:
        print(f"euchre arena: {e}", file=sys.stderr)
        return 2
    print(json.dumps(rep, indent=2) if args.json else format_report(rep))
    return 0
