"""A table's saver alone: ``TableSaver.save`` over every state of a played game, into a store
that keeps nothing, for counting instructions (``valgrind --tool=callgrind``)::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python scripts/bench_saver.py --games 10

Instructions per save are then (Ir of this run - Ir of ``--games 0``) / the saves printed.
The game is the same every run (a fixed seed); the imports' objects are frozen out of the
cyclic collector first (``gc.freeze``), so when a full collection falls does not move the
count. Uses only the table layer's public names, so it runs against older trees
(``PYTHONPATH=/some/older/tree/src``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
from typing import cast

from euchre.game import GameState
from euchre.rules import Rules
from euchre.shuffle import deck_from_seed
from euchre.storage.base import GameStore, StoredGame
from euchre.table.actor.saving import TableSaver, TableState
from euchre.table.kinds.practice import PracticeOptions, practice_table

_Step = tuple[GameState, list[str], list[dict[int, str]], int, bool]


class _Nowhere:
    """A store that keeps nothing: only the saver's own work is counted."""

    async def save(self, game: StoredGame) -> None:
        """Drop ``game``."""


def _steps(rules: Rules) -> list[_Step]:
    """A game played out at random (seeded): each state with its seeds, version and end."""
    rng = random.Random(3)
    game = GameState(rules, 0)
    seeds: list[str] = []
    clients: list[dict[int, str]] = []
    out: list[_Step] = []
    while not game.is_over:
        if game.needs_deal:
            seeds.append(f"{rng.getrandbits(128):032x}")
            clients.append({})
            game = game.deal(deck_from_seed(seeds[-1], rules.benny))
        else:
            game = game.apply(rng.choice(game.legal_actions()))
        out.append((game, list(seeds), [dict(c) for c in clients], len(out) + 1, game.is_over))
    return out


async def run(games: int) -> None:
    """Save the game's every state, ``games`` times over (a fresh saver each time)."""
    config, _ = practice_table(PracticeOptions(), table_id="t1")
    steps = _steps(config.rules)
    store = cast(GameStore, _Nowhere())  # only save is called
    shuffle = {"next_seed": "ab" * 16, "pending": {}}
    for _ in range(games):
        saver = TableSaver(config, clock=lambda: 1.0)
        for game, seeds, clients, version, finished in steps:
            meta = {"policy": {}, "shuffle": shuffle, "seen": [0]}  # as a table's, afresh
            await saver.save(store, TableState(game, seeds, clients, version, finished, meta))
    print(f"{games * len(steps)} saves")


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    gc.collect()
    gc.freeze()
    asyncio.run(run(args.games))


if __name__ == "__main__":
    main()
