"""Bytes a table socket sends per person move: a four-person online table with one
spectator, whole games, in this one process (a real ``TableActor`` on a fake clock, each
reader a subscriber that keeps the JSON text a socket would send).

Sums the text of every message each of the four seats and the spectator is sent, from its
join to the game's end, and divides by the moves the four people made (a person who does
not move in time has the clock play for them: those count no moves, their messages count)::

    .venv/bin/python scripts/bench/bench_bytes.py --games 20

Prints the bytes and messages per person move, and per message. Uses only the table
layer's public names and the socket's messages, so it runs against older trees too.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
from typing import Any

from euchre.table.actor.actor import TableActor
from euchre.table.actor.deps import TableDeps
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.seats import hash_token, new_token
from euchre.table.kinds.online import (
    ONLINE_KIND,
    OnlineOptions,
    OpenTable,
    online_policy,
)


class Reader:
    """A subscriber that counts what a socket would send it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.bytes = 0
        self.messages = 0

    def send(self, message: Any) -> None:
        text = message.text
        self.bytes += len(text.encode())
        self.messages += 1


async def one_game(seed: int) -> tuple[int, int, int]:
    """(bytes, messages, person moves) of one whole game."""
    opened = OpenTable(f"b{seed}", OnlineOptions(seconds_per_move=30.0, name="Ann"), 0.0,
                       [("Ann", hash_token(new_token())), None, None, None])
    for seat, name in ((1, "Bob"), (2, "Cy"), (3, "Di")):
        opened.take_seat(seat, name, new_token(), None)
    opened.begin(0.0)
    config = opened.config()
    sched = ManualScheduler()
    counter = itertools.count()
    actor = TableActor(config, TableDeps(
        scheduler=sched, pacing=Pacing(bot_delay=0.5, hand_pause=2.0),
        policy=online_policy(config), kind=ONLINE_KIND,
        seed_source=lambda: f"bytes-{seed}-{next(counter)}"))
    readers = [Reader(s) for s in range(4)] + [Reader(None)]
    actor.start()
    for reader in readers[:4]:
        await actor.join(reader)
    await actor.watch(readers[4])
    rng = random.Random(seed)
    moves = 0
    while not actor.game.is_over:
        await actor.settle()
        to_act = actor.game.to_act
        view = actor.view(to_act) if to_act is not None else None
        if to_act is not None and view is not None and view.legal \
                and not actor.game.needs_deal:
            await actor.act(to_act, str(rng.choice(view.legal)))
            moves += 1
            continue
        due = sched.next_due()
        if due is None:
            break
        sched.advance(due - sched.now())
    await actor.settle()
    await actor.stop()
    return sum(r.bytes for r in readers), sum(r.messages for r in readers), moves


def main() -> None:
    """Play the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    per_move: list[float] = []
    total = messages = moves = 0
    for i in range(args.games):
        b, n, m = asyncio.run(one_game(args.seed + i))
        total, messages, moves = total + b, messages + n, moves + m
        per_move.append(b / max(1, m))
    print(f"{args.games} games, {moves} person moves, {messages} messages, {total} bytes")
    print(f"bytes per person move: {total / max(1, moves):.0f} (median game "
          f"{statistics.median(per_move):.0f}, most {max(per_move):.0f}); messages per "
          f"person move: {messages / max(1, moves):.1f}; bytes per message: "
          f"{total / max(1, messages):.0f}")


if __name__ == "__main__":
    main()
