"""The table layer's CPU per person move as the server runs it, in one process, no network.

Opens N practice tables (medium computers) through a :class:`TableManager` on a fresh SQLite
file (the server's store, its writer thread and group commits), on the real asyncio loop and
its timers (:class:`LoopScheduler`, bot delay 0.05 s, trick pause 0.09 s, hand pause 0.2 s, as
``bench_load.py``), with the server's Prometheus metrics as the tables' observer. Each
table's person is a subscriber that encodes every message it gets (as a socket does), moves
at random as soon as its snapshot offers a move, and goes on after each hand's result; a
finished game is replaced by a new table. Prints the process's CPU (every thread) per person
move over ``--duration`` seconds after a warm-up, and the share of it in the event-loop
thread::

    .venv/bin/python scripts/bench/bench_moves.py --tables 100 --duration 20

Unlike ``bench_load.py`` there is no HTTP, socket or JSON parsing and no client in the
process's CPU, so more of what it measures is the tables' own work (the actor, its saves,
its fan-out, its computers), and a busy machine moves it less. ``--profile FILE`` writes a
cProfile of the measured seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import random
import tempfile
import threading
import time
from collections.abc import Coroutine
from typing import Any

from euchre.server.ops.metrics import Metrics
from euchre.storage import MemoryStore
from euchre.storage.sql import SqlStore
from euchre.table.actor import TableActor
from euchre.table.fanout import Outgoing
from euchre.table.manager import TableManager
from euchre.table.pacing import LoopScheduler, Pacing
from euchre.table.practice import PracticeOptions, practice_table
from euchre.table.wire import EventMessage, GameOverEvent, HandOverEvent


class Person:
    """Seat 0 of one table: encodes what it is sent, moves when offered a move."""

    def __init__(self, bench: Bench, actor: TableActor, rng: random.Random) -> None:
        self.seat: int | None = 0  # a Subscriber's seat may be None (a spectator)
        self.bench = bench
        self.actor = actor
        self.rng = rng
        self.moving = False
        self.tasks: set[asyncio.Task[None]] = set()  # moves and go-ons under way

    def _start(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def send(self, out: Outgoing) -> None:
        """A message for this seat: encoded (as a socket writes it), then acted on."""
        out.text  # noqa: B018 - the socket's cost: every message is encoded
        message = out.message
        if not isinstance(message, EventMessage):
            return
        if isinstance(message.event, HandOverEvent):
            self._start(self.actor.go_on(0, message.event.summary.hand_number))
        if isinstance(message.event, GameOverEvent):
            self.bench.finished(self)
            return
        legal = (message.you or {}).get("legal")  # the seat's moves, sent when its turn comes
        if self.moving or not legal:
            return
        self.moving = True
        self._start(self.move(self.rng.choice(legal)))

    async def move(self, text: str) -> None:
        try:
            await self.actor.act(0, text)
            self.bench.moves += self.bench.measuring
        finally:
            self.moving = False


class Bench:
    """Tables kept open and played until the time is up."""

    def __init__(self, manager: TableManager, seed: int) -> None:
        self.manager = manager
        self.rng = random.Random(seed)
        self.moves = 0
        self.measuring = False
        self.opened = 0

    async def open(self) -> None:
        """A new practice table with its person subscribed."""
        self.opened += 1
        options = PracticeOptions(partner="medium", left="medium", right="medium")
        config, _ = practice_table(options, table_id=f"b{self.opened}",
                                   first_dealer=self.opened % 4)
        actor = await self.manager.open(config)
        await actor.join(Person(self, actor, random.Random(self.rng.random())))

    def finished(self, person: Person) -> None:
        person._start(self.open())


def _thread_cpu(tid: int) -> float:
    """CPU seconds of one thread of this process so far (Linux /proc)."""
    with open(f"/proc/self/task/{tid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(tables: int, duration: float, warmup: float, seed: int,
              profile: str | None, memory: bool = False) -> None:
    """Play for ``warmup`` + ``duration`` seconds; print the CPU per person move."""
    with tempfile.TemporaryDirectory() as tmp:
        store: Any = MemoryStore() if memory else await SqlStore.open(
            f"sqlite+aiosqlite:///{tmp}/moves.db")
        manager = TableManager(store, LoopScheduler(), Pacing(0.05, 0.2, trick_pause=0.09),
                               observer=Metrics())  # as `euchre serve --bot-delay 0.05`
        bench = Bench(manager, seed)
        for _ in range(tables):
            await bench.open()
        await asyncio.sleep(warmup)
        loop_thread = threading.get_native_id()
        prof = cProfile.Profile() if profile else None
        bench.measuring = True
        cpu, loop_cpu, wall = time.process_time(), _thread_cpu(loop_thread), time.monotonic()
        if prof is not None:
            prof.enable()
        await asyncio.sleep(duration)
        if prof is not None:
            prof.disable()
        cpu = time.process_time() - cpu
        loop_cpu = _thread_cpu(loop_thread) - loop_cpu
        wall = time.monotonic() - wall
        bench.measuring = False
        moves = bench.moves
        await manager.close()
        if not memory:
            await store.close()
    if prof is not None and profile:
        prof.dump_stats(profile)
    print(f"tables {tables}: {moves} person moves in {wall:.1f} s ({moves / wall:.0f}/s); "
          f"CPU {cpu:.2f} s ({cpu / wall:.0%} of a core), {cpu / max(1, moves) * 1000:.3f} ms "
          f"per person move, the event-loop thread {loop_cpu / max(1, moves) * 1000:.3f} ms")


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", choices=("sqlite", "memory"), default="sqlite")
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="write a cProfile of the measured seconds here")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.duration, args.warmup, args.seed, args.profile,
                    args.store == "memory"))


if __name__ == "__main__":
    main()
