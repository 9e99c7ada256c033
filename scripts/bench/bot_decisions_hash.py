"""Play whole games among computer players and print one hash of every decision they made,
and the CPU it took: run it in two trees to show a speed-up left every choice the same.

    cd /some/tree && PYTHONPATH=src /path/to/.venv/bin/python \\
        /path/to/scripts/bench/bot_decisions_hash.py --games 40 --levels medium,medium,medium,medium

Each game is dealt from fixed seeds (the first three rules presets, ``--games`` games each)
and every bot is seeded from the game and its seat, so the same tree always prints the same
hash.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from euchre.bots import make
from euchre.game import GameState
from euchre.rules import PRESETS
from euchre.shuffle import deck_from_seed

MOST_HANDS = 40
"""A game that has not ended after this many hands is cut short (none should need it)."""


def play(games: int, levels: list[str]) -> tuple[int, str]:
    """Play the games: (decisions made, the hash of every seat and action in order)."""
    digest = hashlib.sha256()
    decisions = 0
    for preset in list(PRESETS)[:3]:
        rules = PRESETS[preset]
        for g in range(games):
            bots = [make(level, g * 10 + i) for i, level in enumerate(levels)]
            game = GameState(rules, g % 4)
            hand = 0
            while not game.is_over and hand < MOST_HANDS:
                if game.needs_deal:
                    game = game.deal(deck_from_seed(f"{preset}-{g}-{hand}", rules.benny))
                    hand += 1
                    continue
                seat = game.to_act
                assert seat is not None and game.current is not None
                action = bots[seat].choose(game.current.view(seat))
                digest.update(f"{seat}{action};".encode())
                decisions += 1
                game = game.apply(action, seat=seat)
    return decisions, digest.hexdigest()[:16]


def main() -> None:
    """Parse the arguments and play."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per preset")
    parser.add_argument("--levels", default="medium,medium,medium,medium",
                        help="the four seats' levels, comma-separated")
    args = parser.parse_args()
    levels = args.levels.split(",")
    if len(levels) != 4:
        parser.error("--levels names four levels")
    started = time.process_time()
    decisions, digest = play(args.games, levels)
    print(f"{decisions} decisions, hash {digest}, "
          f"{time.process_time() - started:.2f} s CPU")


if __name__ == "__main__":
    main()
