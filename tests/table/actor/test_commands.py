"""A table's inputs: which ones share a save, and who waits for each."""

from __future__ import annotations

import asyncio
from typing import Any

from euchre.table.actor.commands import (
    AwayDue,
    BotTurn,
    Close,
    Command,
    Contribute,
    CountSpectators,
    Deadline,
    DealNext,
    Enter,
    GoOn,
    Leave,
    Move,
    PrepareTimeout,
    ReplaceSeat,
    SetSpeed,
    Stop,
    gathers,
    waiter,
)


class _Sub:
    seat: int | None = None

    def send(self, message: dict[str, Any]) -> None:
        pass


async def test_only_peoples_moves_and_seeds_share_a_save() -> None:
    loop = asyncio.get_running_loop()
    people: list[Command] = [Move(0, "p:9H", loop.create_future()),
                             Contribute(0, 1, "ab" * 8, loop.create_future())]
    others: list[Command] = [BotTurn(1), Deadline(0, 1), PrepareTimeout(0, 1, 5.0), DealNext(1),
                             GoOn(0, 1, loop.create_future()),
                             SetSpeed(0, "fast", loop.create_future()),
                             Enter(_Sub(), None, loop.create_future()), Leave(_Sub()),
                             ReplaceSeat(0, "left", loop.create_future()), AwayDue(0, 1),
                             Close("left", loop.create_future()), CountSpectators(), Stop()]
    assert all(gathers(c) for c in people)
    assert not any(gathers(c) for c in others)
    assert not gathers(None)  # an empty queue


async def test_the_waiter_is_the_future_of_each_input_someone_waits_for() -> None:
    loop = asyncio.get_running_loop()
    futures: list[asyncio.Future[Any]] = [loop.create_future() for _ in range(7)]
    waited: list[Command] = [Move(0, "p:9H", futures[0]), GoOn(0, 1, futures[1]),
                             SetSpeed(0, "slow", futures[2]), Enter(_Sub(), 3, futures[3]),
                             Contribute(0, 1, "cd" * 8, futures[4]),
                             ReplaceSeat(2, "away", futures[5]),
                             Close("left", futures[6])]
    for cmd, future in zip(waited, futures, strict=True):
        assert waiter(cmd) is future
    stop = Stop()
    assert waiter(stop) is stop.done and not stop.done.done()
    for cmd in (BotTurn(1), Deadline(0, 1), PrepareTimeout(0, 1, 5.0), DealNext(1),
                Leave(_Sub()), AwayDue(0, 1), CountSpectators()):
        assert waiter(cmd) is None
