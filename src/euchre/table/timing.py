"""When a computer's move is published: at the table's pace, never when its thinking ends.

A watcher who sees how long a computer took learns how many legal moves it had: one card
of the led suit, or several (a void shows as a choice). So a computer starts thinking as
soon as its turn starts, and its move is published when the turn's pacing delay has passed,
stretched by a small random jitter drawn the same way whatever the move. The move waits
for the thinking only if that takes longer than the delay (a zero delay, as in tests and
benchmarks, publishes each move as soon as it is worked out).
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..actions import Action
from ..view import HandView

JITTER_STEP = 1 / 1024
"""Jitter comes in steps of about a millisecond that binary floating point holds exactly,
so fake clocks in tests still add up exactly."""


def jittered(delay: float, rng: random.Random, fraction: float) -> float:
    """``delay`` plus a uniform random part of up to ``fraction`` of it (0 stays 0)."""
    if delay <= 0:
        return 0.0
    steps = math.floor(delay * fraction * rng.random() / JITTER_STEP)
    return delay + steps * JITTER_STEP


async def think(bot: Any, view: HandView, in_thread: bool) -> Action:
    """The bot's move for ``view``; in a worker thread if ``in_thread`` and there is a
    choice (so a slow player leaves the event loop free)."""
    if in_thread and len(view.legal) > 1:
        action: Action = await asyncio.to_thread(bot.choose, view)
    else:
        action = bot.choose(view)
    return action


@dataclass
class Thinking:
    """A computer's move being worked out for one step of a table (one seat's turn)."""

    step: int
    """The table's step the move is for (a later step makes it stale)."""
    seat: int
    """The seat that moves."""
    task: asyncio.Future[Action]
    """The thinking, started when the turn started (its move once it is done)."""

    def is_for(self, step: int, seat: int) -> bool:
        """Whether this is the thinking for ``seat``'s turn at ``step``."""
        return self.step == step and self.seat == seat

    def cancel(self) -> None:
        """Drop the move (a thread already thinking finishes, and its answer is ignored)."""
        if not self.task.done():
            self.task.cancel()
        else:
            # Retrieve a stale failure so asyncio does not log it as never retrieved.
            _ = self.task.cancelled() or self.task.exception()


def start_thinking(bot: Any, view: HandView, step: int, seat: int,
                   slow_levels: Collection[str], level: str) -> Thinking:
    """Start working out ``seat``'s move now, in its own task (it runs after the handler
    that started it has published its events)."""
    loop = asyncio.get_running_loop()
    if level in slow_levels and len(view.legal) > 1:
        return Thinking(step, seat, loop.create_task(think(bot, view, True)))
    # A quick player chooses in one callback on the loop's next turn, as its task would,
    # without a task and a coroutine for each move.
    move: asyncio.Future[Action] = loop.create_future()
    loop.call_soon(_choose, bot, view, move)
    return Thinking(step, seat, move)


def _choose(bot: Any, view: HandView, move: asyncio.Future[Action]) -> None:
    """``bot``'s move for ``view`` into ``move`` (nothing if it was dropped meanwhile)."""
    if move.done():
        return
    try:
        action: Action = bot.choose(view)
    except Exception as e:
        move.set_exception(e)
    else:
        move.set_result(action)
