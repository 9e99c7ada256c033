"""Play the same practice games every time, through the table layer, on a fake clock: for
counting instructions (``valgrind --tool=callgrind``), which a busy machine does not move.

N tables (random computers, or ``--level``'s; no jitter, every deal's seed from a fixed
sequence, the person's moves from a seeded generator of each table) are played to their
ends through a :class:`TableManager` with a memory store and the server's Prometheus
metrics as observer;
each table's person is subscribed through the server's own socket connection (its messages
encoded, then dropped). Prints the person moves made::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        .venv/bin/python scripts/bench/play_fixed_games.py --tables 4

Instructions per person move are then (Ir of this run - Ir of ``--tables 0``) / person moves;
two trees compared on the same games (uses only the table layer's public names).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import hashlib
import itertools
import random
from collections.abc import Callable
from typing import Any

from euchre.server.ops.metrics import Metrics
from euchre.storage import MemoryStore
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.seats import Seat
from euchre.table.hosting.manager import TableManager
from euchre.table.kinds.practice import PracticeOptions, practice_table


class _Socket:
    """Stands in for a WebSocket: the connection only queues what it would write."""

    client = None
    application_state = None


def _connection() -> Any:
    """The server's socket connection (wherever this tree keeps it), on no network."""
    try:
        from euchre.server.tables.session import Connection
    except ImportError:  # an older tree
        try:
            from euchre.server.tables.ws import Connection  # type: ignore[attr-defined]
        except ImportError:
            from euchre.server.ws import Connection  # type: ignore[import-not-found,no-redef]
    return Connection(_Socket())  # type: ignore[arg-type]


def fixed_manager(seed: int) -> TableManager:
    """A manager on a memory store and a fake clock, every deal's seed from a fixed sequence,
    the computers with no jitter (the same order every time)."""
    counter = itertools.count()

    def seeds() -> str:
        return hashlib.sha256(f"{seed}:{next(counter)}".encode()).hexdigest()

    pacing = Pacing(0.05, 0.2, trick_pause=0.09, jitter=0.0)  # no jitter: the same order
    return TableManager(MemoryStore(), ManualScheduler(), pacing, seed_source=seeds,
                        observer=Metrics())


@dataclasses.dataclass
class FixedTables:
    """The open tables, each with its person's connection (seat 0) and move generator."""

    actors: list[Any]
    connections: list[Any]
    people: dict[str, random.Random]


def _seeded(seat: Seat, rng: random.Random) -> Seat:
    """A computer's seat with a seed from ``rng``; any other seat as it is."""
    return dataclasses.replace(seat, bot_seed=rng.getrandbits(62)) if seat.is_bot() else seat


async def open_tables(manager: TableManager, tables: int, seed: int,
                      level: str = "random") -> FixedTables:
    """Open ``tables`` practice tables of computers of ``level`` with fixed seeds, the
    person's seat subscribed through the server's socket connection."""
    rng = random.Random(seed)
    opened = FixedTables([], [], {})
    for i in range(tables):
        options = PracticeOptions(partner=level, left=level, right=level)
        config, _ = practice_table(options, table_id=f"t{i}", first_dealer=i % 4)
        s0, s1, s2, s3 = config.seats  # fixed computers' seeds, drawn in seat order
        config = dataclasses.replace(config, seats=(
            _seeded(s0, rng), _seeded(s1, rng), _seeded(s2, rng), _seeded(s3, rng)))
        actor = await manager.open(config)
        conn = _connection()
        conn.seat = 0
        await actor.join(conn)
        opened.actors.append(actor)
        opened.people[actor.id] = random.Random(rng.random())  # this table's person's moves
        opened.connections.append(conn)
    return opened


async def play(manager: TableManager, opened: FixedTables,
               after_move: Callable[[int], None] | None = None) -> int:
    """Play the tables to their ends on the fake clock (each connection's messages encoded,
    then dropped); ``after_move`` is called with the count after each person move. The
    person moves made."""
    sched = manager.scheduler
    assert isinstance(sched, ManualScheduler)
    actors, connections, people = opened.actors, opened.connections, opened.people
    moves = 0
    while True:
        while True:
            for a in actors:
                await a.settle()
            for conn in connections:
                while not conn.outbox.empty():
                    out = conn.outbox.get_nowait()
                    getattr(out, "text", None)  # encoded, as the socket writes it
            waiting = [a for a in actors if not a.game.is_over and a.game.to_act != 0]
            due = sched.next_due()
            if not waiting or due is None:
                break
            sched.advance(max(0.0, due - sched.now()))
        movers = [a for a in actors if not a.game.is_over and a.game.to_act == 0]
        if not movers:
            return moves
        for a in movers:
            view = a.view(0)
            assert view is not None
            await a.act(0, str(people[a.id].choice(view.legal)))
            moves += 1
            if after_move is not None:
                after_move(moves)


async def run(tables: int, seed: int, level: str) -> None:
    """Play ``tables`` games to their ends; print the person moves made."""
    manager = fixed_manager(seed)
    moves = await play(manager, await open_tables(manager, tables, seed, level))
    await manager.close()
    print(f"tables {tables}: {moves} person moves")


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="random",
                        help="the computers' level (bench_load.py's tables play medium)")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.seed, args.level))


if __name__ == "__main__":
    main()
