"""The computers' CPU per move, in this one process: a medium player's decision alone, and
the whole of a computer's move at a table (its view, the thinking started at its turn, its
callback on the event loop, the move taken; less the loop's own turns), over every
decision of fixed-seed games.

    cd /some/tree && PYTHONPATH=src /path/to/.venv/bin/python \\
        /path/to/scripts/bench/bench_computers.py --games 15 --repeat 5

Prints the best of ``--repeat`` passes in microseconds a decision (CPU time of this
process). Run it in two trees, alternating, to compare them; ``bot_decisions_hash.py``
shows that the decisions stayed the same.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import time
from typing import TYPE_CHECKING, Any

from euchre.bots import make
from euchre.game import GameState
from euchre.rules import PRESETS
from euchre.shuffle import deck_from_seed
from euchre.table.computers import Computers
from euchre.table.kinds import TableObserver
from euchre.table.seats import BOT, Seat

if TYPE_CHECKING:  # annotations only: older trees are measured with this script too
    from euchre.hand import HandState
    from euchre.view import HandView

MOST_HANDS = 40
"""A game that has not ended after this many hands is cut short."""


def positions(games: int) -> list[tuple[Any, Any, int]]:
    """Every decision of medium players over ``games`` games a rules preset: (the bot, the
    hand's state, the seat to act)."""
    out: list[tuple[Any, Any, int]] = []
    for preset in list(PRESETS)[:3]:
        rules = PRESETS[preset]
        for g in range(games):
            bots = [make("medium", g * 10 + i) for i in range(4)]
            game = GameState(rules, g % 4)
            hand = 0
            while not game.is_over and hand < MOST_HANDS:
                if game.needs_deal:
                    game = game.deal(deck_from_seed(f"{preset}-{g}-{hand}", rules.benny))
                    hand += 1
                    continue
                seat = game.to_act
                assert seat is not None and game.current is not None
                out.append((bots[seat], game.current, seat))
                game = game.apply(bots[seat].choose(game.current.view(seat)), seat=seat)
    return out


class _Quiet(TableObserver):
    """Told each decision's time, keeps nothing."""

    def bot_decided(self, level: str, seconds: float) -> None:
        """Nothing to keep."""


async def table_moves(states: list[tuple[Any, Any, int]], repeat: int) -> float:
    """The best pass's CPU seconds for every position as a table's computer moves (less
    the same loop with no computer in it: its turns of the event loop)."""
    seats = [Seat(BOT, f"s{i}", "medium", i) for i in range(4)]
    computers = Computers(make, _Quiet(), seats)
    # A tree whose think_ahead takes the hand's state builds the view itself (when needed).
    takes_hand = "hand" in inspect.signature(Computers.think_ahead).parameters
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for step, (_, state, seat) in enumerate(states):
            bot = computers.bots[seat]
            computers.think_ahead(bot, "medium", state if takes_hand else state.view(seat),
                                  step, seat)
            await asyncio.sleep(0)  # the table's handler returns; the thinking runs

            def view(s: HandState = state, t: int = seat) -> HandView:
                return s.view(t)  # (a def: mypy infers no type for a lambda with defaults)

            await computers.move(bot, "medium", view, step, seat)
        spent = time.process_time() - started
        started = time.process_time()
        for _, state, seat in states:  # the harness alone, to subtract
            await asyncio.sleep(0)
            (lambda s=state, t=seat: (s, t))()
        best = min(best, spent - (time.process_time() - started))
    return best


def main() -> None:
    """Parse the arguments, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=15, help="games per rules preset")
    parser.add_argument("--repeat", type=int, default=5, help="passes; the best is shown")
    args = parser.parse_args()
    states = positions(args.games)
    views = [(bot, state.view(seat)) for bot, state, seat in states]
    decide = float("inf")
    for _ in range(args.repeat):
        started = time.process_time()
        for bot, view in views:
            bot.choose(view)
        decide = min(decide, time.process_time() - started)
    try:
        import uvloop
        table = uvloop.run(table_moves(states, args.repeat))
    except ImportError:
        table = asyncio.run(table_moves(states, args.repeat))
    n = len(states)
    forced = sum(1 for _, view in views if len(view.legal) == 1)
    print(f"{n} computer decisions ({forced} forced): Bot.choose {1e6 * decide / n:.2f} us, "
          f"a table's computer move (view, think ahead, its callback, move) "
          f"{1e6 * table / n:.2f} us")


if __name__ == "__main__":
    main()
