"""Random complete hands: our engine against OpenSpiel's C++ euchre, side by side in one run.

Both games play the same thing: a dealer and a deal drawn at random, then uniformly random
legal actions until the hand is over, under OpenSpiel's default rules (stick the dealer, no
lone defence), each through its public Python API:

- ours: ``euchre.deal(rules, dealer, hands, kitty)``, then ``state.legal_actions()`` and
  ``state = state.apply(action)`` (immutable states) until ``state.is_over``;
- OpenSpiel's: ``game.new_initial_state()``, then at a chance node a random entry of
  ``state.chance_outcomes()``, otherwise a random entry of ``state.legal_actions()``, each
  through ``state.apply_action`` (states mutate in place) until ``state.is_terminal()``.
  With ``--both-loops`` OpenSpiel is also timed with the other driver loop people write, a
  random entry of ``state.legal_actions()`` at chance nodes too (the same uniform deal,
  without building the list of (action, probability) pairs in Python, so OpenSpiel runs
  faster this way), reported as ``openspiel/legal``.

The engines take turns in blocks of ``--block`` hands for ``--rounds`` rounds, so a busy machine
slows both alike; each is timed in CPU seconds of this process (wall seconds are printed too).
``--before REV`` also runs the engine as it was at git revision REV (``git archive`` of
``src/euchre`` loaded under another module name) in the same rounds.

Usage: python scripts/bench/bench_vs_openspiel.py [--install] [--rounds 10] [--block 2000]
       [--before REV] [--both-loops] [--json]
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[2]
OPEN_SPIEL = "open_spiel==2.0.2"


def load_pyspiel(install: bool) -> Any:
    """Import pyspiel, installing open_spiel with pip first when asked."""
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        if not install:
            sys.exit(f"pyspiel is missing: re-run with --install (pip install {OPEN_SPIEL})")
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", OPEN_SPIEL], check=True)
        import pyspiel  # type: ignore[import-not-found, unused-ignore, no-redef]
    return pyspiel


def engine_at(rev: str, into: Path) -> ModuleType:
    """The engine package as it was at ``rev``, imported as ``euchre_<rev>``."""
    blob = subprocess.run(["git", "-C", str(REPO), "archive", rev, "src/euchre"],
                          check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(into, filter="data")
    name = "euchre_" + "".join(ch if ch.isalnum() else "_" for ch in rev)
    pkg = into / "src" / "euchre"
    spec = importlib.util.spec_from_file_location(
        name, pkg / "__init__.py", submodule_search_locations=[str(pkg)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def ours(engine: ModuleType) -> Callable[[int, random.Random], int]:
    """A runner of ``n`` random hands through one copy of our engine; returns the steps."""
    rules = engine.Rules(stick_the_dealer=True)
    deal = engine.deal
    cards = list(range(24))

    def run(n: int, rng: random.Random) -> int:
        steps = 0
        rand = rng.random
        for _ in range(n):
            rng.shuffle(cards)
            state = deal(rules, rng.randrange(4),
                         (cards[0:5], cards[5:10], cards[10:15], cards[15:20]), cards[20:])
            while not state.is_over:
                legal = state.legal_actions()
                state = state.apply(legal[int(rand() * len(legal))])
                steps += 1
        return steps

    return run


def theirs(pyspiel: Any, chance_legal: bool = False) -> Callable[[int, random.Random], int]:
    """A runner of ``n`` random hands through OpenSpiel's euchre; returns the decisions.
    ``chance_legal``: draw chance outcomes from ``legal_actions()``, not ``chance_outcomes()``."""
    game = pyspiel.load_game("euchre")

    def run_legal(n: int, rng: random.Random) -> int:
        steps = 0
        rand = rng.random
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                legal = state.legal_actions()
                if not state.is_chance_node():
                    steps += 1
                state.apply_action(legal[int(rand() * len(legal))])
        return steps

    if chance_legal:
        return run_legal

    def run(n: int, rng: random.Random) -> int:
        steps = 0
        rand = rng.random
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rand() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rand() * len(legal))])
                    steps += 1
        return steps

    return run


def main() -> None:
    """Run the rounds and print hands per CPU second for each engine and the ratios."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--install", action="store_true", help=f"pip install {OPEN_SPIEL} if missing")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--block", type=int, default=2000, help="hands per engine per round")
    ap.add_argument("--before", metavar="REV", help="also time the engine at this git revision")
    ap.add_argument("--both-loops", action="store_true",
                    help="also time OpenSpiel with legal_actions() at chance nodes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    pyspiel = load_pyspiel(args.install)
    sys.path.insert(0, str(REPO / "src"))
    import euchre

    runners: dict[str, Callable[[int, random.Random], int]] = {
        "openspiel": theirs(pyspiel), "ours": ours(euchre)}
    if args.both_loops:
        runners["openspiel/legal"] = theirs(pyspiel, chance_legal=True)
    with tempfile.TemporaryDirectory() as tmp:
        if args.before:
            runners[f"ours@{args.before}"] = ours(engine_at(args.before, Path(tmp)))
        cpu = dict.fromkeys(runners, 0.0)
        wall = dict.fromkeys(runners, 0.0)
        steps = dict.fromkeys(runners, 0)
        per_round: dict[str, list[float]] = {name: [] for name in runners}
        for r in range(args.rounds):
            order = list(runners) if r % 2 == 0 else list(reversed(runners))
            for name in order:
                rng = random.Random(f"{args.seed}:{r}")  # the same hands for each copy of ours
                c0, w0 = time.process_time(), time.perf_counter()
                steps[name] += runners[name](args.block, rng)
                c, w = time.process_time() - c0, time.perf_counter() - w0
                cpu[name] += c
                wall[name] += w
                per_round[name].append(args.block / c)
    hands = args.rounds * args.block
    out: dict[str, Any] = {"rounds": args.rounds, "block": args.block, "engines": {}}
    base = hands / cpu["openspiel"]
    for name in runners:
        rates = sorted(per_round[name])
        out["engines"][name] = {
            "hands_per_cpu_s": round(hands / cpu[name]),
            "hands_per_wall_s": round(hands / wall[name]),
            "median_round": round(rates[len(rates) // 2]),
            "decisions_per_hand": round(steps[name] / hands, 2),
            "vs_openspiel": round(hands / cpu[name] / base, 3),
        }
    if args.both_loops:  # ours against OpenSpiel driven each way
        out["ours_vs_openspiel_legal"] = round(cpu["openspiel/legal"] / cpu["ours"], 3)
    if args.json:
        print(json.dumps(out))
        return
    print(f"{hands} random hands per engine, {args.rounds} interleaved rounds of {args.block}")
    for name, e in out["engines"].items():
        print(f"  {name:<22} {e['hands_per_cpu_s']:>8,} hands/CPU s  "
              f"{e['hands_per_wall_s']:>8,} hands/wall s  median round {e['median_round']:>8,}  "
              f"{e['decisions_per_hand']:>5} decisions/hand  {e['vs_openspiel']:.3f}x OpenSpiel")
    if args.both_loops:
        print(f"  ours against OpenSpiel with legal_actions() at chance nodes: "
              f"{out['ours_vs_openspiel_legal']:.3f}x")


if __name__ == "__main__":
    main()
