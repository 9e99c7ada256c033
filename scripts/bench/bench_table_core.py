"""The table core's CPU per person move, without sockets: tables, their computers and their
saves to SQLite, on a fake clock, in this one process.

Opens N practice tables (medium computers) through a :class:`TableManager` on a fresh SQLite
file, and plays every table's person with random legal moves, one move per table a round,
until every game is over. Prints the process's CPU time (every thread: the database's
worker too) per person move over the whole games, and over the first and the last third of
the rounds (a save that rewrote the whole record would cost more late in a game than early).
No network and no client in the process, so it varies less with a busy machine than
``bench_load.py``. Uses only the table layer's public names, so it runs against older trees:

    cd /some/older/tree && .venv/bin/python /path/to/scripts/bench/bench_table_core.py --tables 50

``--sockets``: each table's person is also subscribed through the server's own socket
connection (``Connection``, its outbox emptied each round instead of written to a network),
and ``--spectators N`` adds N watching connections a table: so the fan-out, the snapshots
and their encoding are measured as a live table pays for them. ``--level random`` (cheap
computers) and ``--store memory`` (no database) leave the table core and its delivery as most
of what is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import random
import tempfile
import time
from typing import TYPE_CHECKING, Any

from starlette.datastructures import Address
from starlette.websockets import WebSocketState

from euchre.storage import MemoryStore
from euchre.storage.sql import SqlStore
from euchre.table.manager import TableManager
from euchre.table.pacing import ManualScheduler, Pacing
from euchre.table.practice import PracticeOptions, practice_table

if TYPE_CHECKING:
    from euchre.server.tables.session import Connection


class _Socket:
    """Stands in for a WebSocket: the connection only queues what it would write."""

    client: Address | None = None
    application_state = WebSocketState.DISCONNECTED  # never open: nothing is written

    async def send_text(self, data: str) -> None:
        """Never called: the benchmark empties the outboxes itself."""
        raise RuntimeError("the benchmark's socket writes nothing")

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Never called: the socket is never open."""
        raise RuntimeError("the benchmark's socket is never open")


def _connection() -> Connection:
    """The server's socket connection (wherever this tree keeps it), on no network."""
    try:
        from euchre.server.tables.session import Connection
    except ImportError:  # an older tree, with the server in one package
        old: Connection = importlib.import_module("euchre.server.ws").Connection(_Socket())
        return old
    return Connection(_Socket())


def _drain(connections: list[Connection]) -> int:
    """Empty the connections' outboxes (what a writer would send); how many texts."""
    sent = 0
    for conn in connections:
        while not conn.outbox.empty():
            conn.outbox.get_nowait()
            sent += 1
    return sent


async def run(tables: int, seed: int, sockets: bool = False, spectators: int = 0,
              level: str = "medium", memory: bool = False) -> None:
    """Play ``tables`` games to the end; print the CPU per person move."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        store: Any = MemoryStore() if memory else await SqlStore.open(
            f"sqlite+aiosqlite:///{tmp}/core.db", commit_window=0)
        sched = ManualScheduler()
        manager = TableManager(store, sched, Pacing(0.05, 0.2))
        actors = []
        for i in range(tables):
            options = PracticeOptions(partner=level, left=level, right=level)
            config, _ = practice_table(options, table_id=f"t{i}", first_dealer=i % 4)
            actors.append(await manager.open(config))
        connections: list[Connection] = []
        sent = 0
        if sockets or spectators:
            for a in actors:
                if sockets:
                    conn = _connection()
                    conn.seat = 0
                    await a.join(conn)
                    connections.append(conn)
                for _ in range(spectators):
                    conn = _connection()
                    await a.join(conn)  # a spectator: no seat
                    connections.append(conn)
        rounds: list[tuple[float, int]] = []  # (CPU seconds, person moves) per round
        started = time.process_time()
        while True:
            # Run every table's computers until each person is to move or the game is over.
            while True:
                await asyncio.gather(*(a.settle() for a in actors))
                waiting = [a for a in actors if not a.game.is_over and a.game.to_act != 0]
                due = sched.next_due()
                if not waiting or due is None:
                    break
                sched.advance(max(0.0, due - sched.now()))
                sent += _drain(connections)
            movers = [a for a in actors if not a.game.is_over and a.game.to_act == 0]
            if not movers:
                break
            before = time.process_time()
            moves = []
            for a in movers:
                view = a.view(0)
                assert view is not None
                moves.append(a.act(0, str(rng.choice(view.legal))))
            await asyncio.gather(*moves)
            sent += _drain(connections)
            rounds.append((time.process_time() - before, len(movers)))
        total = time.process_time() - started
        await manager.close()
        if not memory:
            await store.close()
    moves_made = sum(n for _, n in rounds)
    # Early against late, over the rounds where nearly every table still plays (so each
    # round's saves share commits alike).
    full = [r for r in rounds if r[1] >= 0.9 * tables]
    third = max(1, len(full) // 3)

    def per_move(part: list[tuple[float, int]]) -> float:
        return sum(c for c, _ in part) / max(1, sum(n for _, n in part)) * 1000

    print(f"tables {tables}: {moves_made} person moves in {len(rounds)} rounds; CPU per "
          f"person move {total / moves_made * 1000:.2f} ms over whole games (with the "
          f"computers' moves between); the person's move and its save alone, over the "
          f"{len(full)} rounds with 90% of the tables playing: first third "
          f"{per_move(full[:third]):.2f} ms, last third {per_move(full[-third:]):.2f} ms"
          + (f"; {sent} socket messages" if connections else ""))


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sockets", action="store_true",
                        help="subscribe each table's person through a socket connection")
    parser.add_argument("--spectators", type=int, default=0,
                        help="watching connections per table")
    parser.add_argument("--level", default="medium", help="the computers' level")
    parser.add_argument("--store", choices=("sqlite", "memory"), default="sqlite")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.seed, args.sockets, args.spectators, args.level,
                    args.store == "memory"))


if __name__ == "__main__":
    main()
