"""What the garbage collector must walk for the tables a server holds: a census of the
tracked objects that live tables keep, and of what is left once their games end.

N practice tables (the same games every time, played by ``play_fixed_games.py``'s own
functions: fixed seeds, a fake clock, each person's moves from a seeded generator, the
server's socket connection subscribed) are played to their ends through a
:class:`TableManager` on a memory store.
Every ``--every`` person moves, the tracked objects are counted (after a full collection,
everything imported and set up before the first table frozen out of the count), by type,
with the references they hold: the work one full collection does for those tables. The
collector is off meanwhile, so the objects made since the census before and still alive
are counted too, per person move: the work young collections do for each move. At the
end the tables are closed and dropped and a last full collection says how many objects it
freed as cyclic garbage (a table's life leaving reference cycles) and how many tracked
objects are left over the count before the first table (what a closed table leaves
behind)::

    .venv/bin/python scripts/bench/gc_census.py --tables 40 --every 200

Compare two trees on the same games (uses only the table layer's public names).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
from typing import Any

from play_fixed_games import _connection, fixed_manager, open_tables, play


def young() -> tuple[int, int]:
    """The tracked objects made since the last census and still alive (the collector is
    off while the games play, so they are all in the youngest generation), and the
    references they hold: what a young collection would walk."""
    objects = gc.get_objects(0)
    YOUNG_KINDS.update(type(o).__qualname__ for o in objects)
    return len(objects), sum(len(gc.get_referents(o)) for o in objects)


YOUNG_KINDS: collections.Counter[str] = collections.Counter()
"""The types of the objects :func:`young` counted, over the censuses."""


def census() -> tuple[int, int, collections.Counter[str]]:
    """Tracked objects (not frozen) after a full collection, the references they hold,
    and the objects by type."""
    gc.collect()
    objects = gc.get_objects()
    refs = sum(len(gc.get_referents(o)) for o in objects)
    kinds = collections.Counter(type(o).__qualname__ for o in objects)
    del objects
    return sum(kinds.values()), refs, kinds


async def run(tables: int, seed: int, every: int, top: int, cycles: bool = False) -> None:
    """Play ``tables`` games to their ends, counting what they keep on the way."""
    manager = fixed_manager(seed)
    _connection()  # imports what a connection needs before the baseline
    gc.collect()
    gc.freeze()
    base, base_refs, _ = census()
    opened = await open_tables(manager, tables, seed)
    samples: list[tuple[int, int]] = []
    fresh: list[tuple[int, int]] = []  # made since the census before, and alive
    kinds_sum: collections.Counter[str] = collections.Counter()

    def counted(moves: int) -> None:
        if moves % every == 0:
            fresh.append(young())
            n, refs, kinds = census()
            samples.append((n - base, refs - base_refs))
            kinds_sum.update(kinds)

    gc.disable()
    moves = await play(manager, opened, counted)
    gc.enable()
    ended, ended_refs, ended_kinds = census()
    for a, conn in zip(opened.actors, opened.connections, strict=True):
        a.leave(conn)
    await manager.sweep(0.0)
    await manager.close()
    del opened, a, conn
    if cycles:
        gc.set_debug(gc.DEBUG_SAVEALL)
    garbage = gc.collect()
    if cycles:
        gc.set_debug(0)
        show_cycles(gc.garbage, tables)
        gc.garbage.clear()
    left, _, left_kinds = census()
    print(f"tables {tables}: {moves} person moves; {len(samples)} censuses every {every}")
    if samples:
        objs = sum(s[0] for s in samples) / len(samples) / tables
        refs = sum(s[1] for s in samples) / len(samples) / tables
        print(f"while playing: {objs:,.0f} tracked objects and {refs:,.0f} references a table")
        made = sum(f[0] for f in fresh[1:]) / (every * len(fresh[1:]) or 1)
        made_refs = sum(f[1] for f in fresh[1:]) / (every * len(fresh[1:]) or 1)
        print(f"made since the census before and still alive: {made:,.1f} tracked objects "
              f"and {made_refs:,.1f} references a person move")
        moved = every * len(fresh)
        for kind, count in YOUNG_KINDS.most_common(top):
            print(f"  {count / moved:9.2f} {kind}")
        print("kept a table (after a full collection):")
        for kind, count in kinds_sum.most_common(top):
            print(f"  {count / len(samples) / tables:9.1f} {kind}")
    print(f"games over, tables still open: {(ended - base) / tables:,.0f} tracked objects "
          f"and {(ended_refs - base_refs) / tables:,.0f} references a table")
    for kind, count in ended_kinds.most_common(8):
        print(f"  {count / tables:9.1f} {kind}")
    print(f"tables closed and dropped: cyclic garbage freed {garbage}; tracked objects left "
          f"over the count before the first table: {left - base}")
    for kind, count in left_kinds.most_common(8):
        print(f"  {count:9d} {kind}")


def show_cycles(garbage: list[Any], tables: int) -> None:
    """What the closed tables left as cyclic garbage: by type, and what refers to each
    object of the types that hold the rest (the references that close the cycles)."""
    kinds = collections.Counter(type(o).__qualname__ for o in garbage)
    print(f"cyclic garbage a table: {len(garbage) / tables:,.0f} objects")
    for kind, count in kinds.most_common(30):
        print(f"  {count / tables:9.1f} {kind}")
    inside = {id(o) for o in garbage}
    edges: collections.Counter[str] = collections.Counter()
    for o in garbage:
        if type(o).__qualname__ in ("dict", "list", "tuple", "cell", "function", "method"):
            continue
        for r in gc.get_referrers(o):
            if id(r) in inside:
                holder = type(r).__qualname__
                if holder == "dict":  # name the object whose attributes the dict is
                    for rr in gc.get_referrers(r):
                        if id(rr) in inside and getattr(rr, "__dict__", None) is r:
                            holder = type(rr).__qualname__ + ".__dict__"
                edges[f"{holder} -> {type(o).__qualname__}"] += 1
    print("references to the cycles' objects, from inside the garbage:")
    for edge, count in edges.most_common(40):
        print(f"  {count / tables:9.1f} {edge}")


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--every", type=int, default=200, help="person moves between counts")
    parser.add_argument("--top", type=int, default=25, help="types listed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cycles", action="store_true",
                        help="list the cyclic garbage the closed tables left")
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.seed, args.every, args.top, args.cycles))


if __name__ == "__main__":
    main()
