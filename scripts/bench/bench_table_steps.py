"""The table core's CPU per person move on the real event loop: tables, their computers,
one seated socket connection each, no pauses, in this one process.

Like ``bench_table_core.py``, but on uvloop (``--loop asyncio``: the standard library's
loop) with the real :class:`~euchre.table.actor.pacing.LoopScheduler` and the real computer
pacing path (each computer move thinks ahead in its own callback, then is taken by its
turn), and with a :class:`~euchre.storage.MemoryStore` by default, so what is measured is
the actor, its computers and its delivery rather than the database. Each table's person
plays random legal moves until every game is over; prints the process's CPU per person
move and per event (every move and deal a table shows). Compare trees side by side:

    cd /some/tree && PYTHONPATH=src /path/to/.venv/bin/python \\
        /path/to/scripts/bench/bench_table_steps.py
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from typing import Any

from euchre.storage import MemoryStore
from euchre.table.actor.pacing import LoopScheduler, Pacing
from euchre.table.hosting.manager import TableManager
from euchre.table.kinds.practice import PracticeOptions, practice_table


class _Socket:
    """Stands in for a WebSocket: the connection only queues what it would write."""

    client = None
    application_state = None


def _connection() -> Any:
    """The server's socket connection, on no network."""
    from euchre.server.tables.session import Connection

    return Connection(_Socket())  # type: ignore[arg-type]


async def run(tables: int, seed: int, level: str) -> tuple[float, int, int]:
    """Play ``tables`` games to the end: (CPU seconds, events shown, person moves)."""
    rng = random.Random(seed)
    manager = TableManager(MemoryStore(), LoopScheduler(),
                           Pacing(0.0, 0.0, jitter=0.0, trick_pause=0.0))
    actors, connections = [], []
    for i in range(tables):
        options = PracticeOptions(partner=level, left=level, right=level)
        config, _ = practice_table(options, table_id=f"t{i}", first_dealer=i % 4)
        actor = await manager.open(config)
        conn = _connection()
        conn.seat = 0
        await actor.join(conn)
        actors.append(actor)
        connections.append(conn)
    first = sum(a.version for a in actors)
    started = time.process_time()
    moves = 0
    while True:
        await asyncio.gather(*(a.settle() for a in actors))
        for conn in connections:
            while not conn.outbox.empty():
                conn.outbox.get_nowait()
        movers = [a for a in actors if not a.game.is_over and a.game.to_act == 0]
        if not movers:
            if all(a.game.is_over for a in actors):
                break
            await asyncio.sleep(0)
            continue
        await asyncio.gather(*(a.act(0, str(rng.choice(a.view(0).legal)))  # type: ignore[union-attr]
                               for a in movers))
        moves += len(movers)
    cpu = time.process_time() - started
    events = sum(a.version for a in actors) - first
    await manager.close()
    return cpu, events, moves


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="medium", help="the computers' level")
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), default="uvloop")
    args = parser.parse_args()
    if args.loop == "uvloop":
        import uvloop

        cpu, events, moves = uvloop.run(run(args.tables, args.seed, args.level))
    else:
        cpu, events, moves = asyncio.run(run(args.tables, args.seed, args.level))
    print(f"tables {args.tables} on {args.loop}: {moves} person moves, {events} events; "
          f"CPU per person move {cpu / moves * 1000:.3f} ms, per event "
          f"{cpu / events * 1e6:.0f} us")


if __name__ == "__main__":
    main()
