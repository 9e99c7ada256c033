"""Delivery's CPU per frame, in this one process: what showing a move to its sockets costs
(snapshots, the fan-out, encoding, queueing to a socket connection), without the table core.

Plays ``--tables`` practice tables' whole games (random computers, memory store, fake clock,
each person subscribed through the server's socket ``Connection``, as
``bench_table_core.py --sockets`` does) and records every batch of events a table showed.
Then replays those batches through fresh ``Fanout``s into fresh connections (a seat, and a
seat with a spectator) and prints the best of ``--repeats`` runs of process time per frame,
garbage collection off:

    .venv/bin/python scripts/bench/bench_delivery.py
    PYTHONPATH=/some/older/tree/src .venv/bin/python scripts/bench/bench_delivery.py   # that tree

``--games FILE`` keeps the recorded games in FILE (pickled) the first time and replays them
from it after, so two trees are timed on the same games. ``--texts`` prints instead how many
texts a seat, a spectator and a computer's seat were queued over those games, and the
SHA-256 of all of them: equal digests for two trees mean the sockets were sent the same
bytes. Uses only the table layer's public names, so it runs
against older trees (from 2d696d7 on).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import importlib.util
import io
import pickle
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from euchre.server.tables.session import Connection
from euchre.table.actor import actor as actor_module
from euchre.table.actor.fanout import Fanout
from euchre.table.actor.snapshot import Snapshots


class _Socket:
    """Stands in for a WebSocket: the connection only queues what it would write."""

    client = None
    application_state = None


class _Kept:
    """What a replay needs of a table's actor: its settings and turn policy."""

    def __init__(self, config: Any, policy: Any) -> None:
        self.config = config
        self.policy = policy


def record(tables: int, seed: int) -> tuple[list[tuple[str, list[Any]]], dict[str, Any]]:
    """Play the games; every (table id, events shown) in order, and each table's actor."""
    spec = importlib.util.spec_from_file_location(
        "bench_table_core", Path(__file__).with_name("bench_table_core.py"))
    assert spec is not None and spec.loader is not None
    core = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(core)
    shown: list[tuple[str, list[Any]]] = []
    actors: dict[str, Any] = {}
    show, init = Fanout.show, actor_module.TableActor.__init__

    def recording_show(self: Fanout, events: list[Any]) -> None:
        if events:
            shown.append((self.table_id, list(events)))
        show(self, events)

    def recording_init(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        actors[self.id] = self

    Fanout.show = recording_show  # type: ignore[method-assign]
    actor_module.TableActor.__init__ = recording_init  # type: ignore[method-assign]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            asyncio.run(core.run(tables, seed, True, 0, "random", True))
    finally:
        Fanout.show = show  # type: ignore[method-assign]
        actor_module.TableActor.__init__ = init  # type: ignore[method-assign]
    return shown, actors


def fanouts(actors: dict[str, Any], seats: tuple[int | None, ...], people_only: bool = False
            ) -> tuple[dict[str, Fanout], list[Connection]]:
    """A fresh fan-out per table (its own ``Snapshots``, the clock at 0) with a connection
    for each of ``seats`` (None: a spectator); ``people_only``: each seat's own part worked
    out for people's seats only, as a table does (else for all four, so a computer's seat
    can be sent its messages for ``--texts``)."""
    out: dict[str, Fanout] = {}
    conns: list[Connection] = []
    for table_id, actor in actors.items():
        snapshots = Snapshots()

        def render(frame: Any, seat: int | None, now: float = 0.0, played: Any = None,
                   actor: Any = actor, snapshots: Snapshots = snapshots) -> Any:
            return snapshots.render(actor.config, frame, seat, actor.policy, 0.0)

        def seat_view(frame: Any, seat: int, snapshots: Snapshots = snapshots) -> Any:
            current = frame.game.current
            return snapshots.private(current, seat) if current is not None else None

        try:  # the fan-out of protocol 2 takes the clock the tables are drawn at, and a
            # seat's own part as the table reads it (``Snapshots.seat_view``)
            plain = getattr(snapshots, "plain_move", None)  # a plain move's view, as a table
            fanout = (Fanout(table_id, render, 100, lambda: 0.0, seat_view,  # type: ignore[call-arg,unused-ignore]
                             plain=plain) if plain is not None else
                      Fanout(table_id, render, 100, lambda: 0.0,  # type: ignore[call-arg,unused-ignore]
                             seat_view))
            if people_only:  # as a table works out only the seats read as (a person's)
                with contextlib.suppress(AttributeError):
                    fanout.observer.seats = {i for i in range(4)
                                             if not actor.config.seats[i].is_bot()}
        except TypeError:  # an older tree's
            try:
                fanout = Fanout(table_id, render, 100, lambda: 0.0)  # type: ignore[call-arg,unused-ignore]
            except TypeError:
                fanout = Fanout(table_id, render, 100)  # type: ignore[call-arg,unused-ignore]
        for seat in seats:
            conn = Connection(_Socket())  # type: ignore[arg-type]
            conn.seat = seat
            fanout.subscribers.append(conn)
            conns.append(conn)
        out[table_id] = fanout
    return out, conns


def replay(shown: list[tuple[str, list[Any]]], actors: dict[str, Any],
           seats: tuple[int | None, ...], people_only: bool = True) -> tuple[float, list[str]]:
    """Show every batch again to ``seats``; process seconds, and the texts queued."""
    fans, conns = fanouts(actors, seats, people_only)
    texts: list[str] = []
    started = time.process_time()
    for table_id, events in shown:
        fans[table_id].show(events)
        for conn in conns:
            while not conn.outbox.empty():
                texts.append(conn.outbox.get_nowait() or "")
    return time.process_time() - started, texts


def render_only(shown: list[tuple[str, list[Any]]], actors: dict[str, Any],
                seats: tuple[int | None, ...]) -> float:
    """Render each batch's frame for ``seats``; process seconds."""
    kept = {table_id: Snapshots() for table_id in actors}
    started = time.process_time()
    for table_id, events in shown:
        actor = actors[table_id]
        for seat in seats:
            kept[table_id].render(actor.config, events[0].frame, seat, actor.policy, 0.0)
    return time.process_time() - started


def main() -> None:
    """Parse the arguments, record, replay, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=25)
    parser.add_argument("--games", type=Path, default=None,
                        help="a file to keep the recorded games in, and replay them from")
    parser.add_argument("--texts", action="store_true",
                        help="print the texts' count and SHA-256 instead of timings")
    args = parser.parse_args()
    if args.games is not None and args.games.exists():
        with args.games.open("rb") as f:
            shown, actors = pickle.load(f)  # a file this script wrote
    else:
        shown, actors = record(args.tables, args.seed)
        if args.games is not None:
            with args.games.open("wb") as f:
                pickle.dump((shown, {table_id: _Kept(a.config, a.policy)
                                     for table_id, a in actors.items()}), f)
    frames = len(shown)
    if args.texts:
        _, texts = replay(shown, actors, (0, None, 2), people_only=False)
        digest = hashlib.sha256("\n".join(texts).encode()).hexdigest()
        print(f"{frames} frames: {len(texts)} texts to seat 0, a spectator and seat 2, "
              f"sha256 {digest}")
        return
    gc.disable()
    figures: list[tuple[str, Callable[[], float]]] = [
        ("render, seat", lambda: render_only(shown, actors, (0,))),
        ("render, seat + spectator", lambda: render_only(shown, actors, (0, None))),
        ("show, seat", lambda: replay(shown, actors, (0,))[0]),
        ("show, seat + spectator", lambda: replay(shown, actors, (0, None))[0]),
    ]
    parts = [f"{name} {min(run() for _ in range(args.repeats)) / frames * 1e6:.1f}"
             for name, run in figures]
    gc.enable()
    print(f"{frames} frames, us per frame (best of {args.repeats}): " + " | ".join(parts))


if __name__ == "__main__":
    main()
