"""The computer players at a table: which seats they play, and each move worked out from
the start of its turn.

A computer starts thinking as soon as its turn starts (:meth:`Computers.think_ahead`), and
its move is taken when the table's pacing says it is due (:meth:`Computers.move`), so the
time a move is shown never tells how long it took to choose. A person out
of time gets a fresh computer of the level their clock says, prepared the same way; a
person who left gets a computer for the rest of the game (:meth:`Computers.take_over`).
Each decision's time is told to the :class:`~euchre.table.actor.kind.TableObserver`.

When a computer's move is published: at the table's pace, never when its thinking ends. A
watcher who sees how long a computer took learns how many legal moves it had: one card of
the led suit, or several (a void shows as a choice). So its move is published when the
turn's pacing delay has passed, stretched by a small random jitter drawn the same way
whatever the move (:func:`jittered`). The move waits for the thinking only if that takes
longer than the delay (a zero delay, as in tests and benchmarks, publishes each move as
soon as it is worked out).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import random
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...bots import Bot
from ...hand import HandState, make_view
from ...view import HandView
from .kind import TableObserver
from .seats import Seat

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


BotFactory = Callable[[str, int | None], Any]
"""``(level, seed) -> bot`` with ``bot.choose(view) -> Action``."""

SLOW_LEVELS = frozenset({"hard", "expert"})
"""Computer levels whose thinking runs in a thread, so the event loop stays free."""


class _Timed:
    """A computer player whose every decision's time is told to a :class:`TableObserver`."""

    __slots__ = ("bot", "forced", "level", "observer")

    def __init__(self, bot: Any, level: str, observer: TableObserver) -> None:
        self.bot = bot
        self.level = level
        self.observer = observer
        self.forced = _answers_forced(bot)  # (asked at every turn: worked out once)

    def choose(self, view: HandView) -> Action:
        started = time.perf_counter()
        action: Action = self.bot.choose(view)
        self.observer.bot_decided(self.level, time.perf_counter() - started)
        return action


def _answers_forced(bot: Any) -> bool:
    """Whether ``bot`` answers a forced move with its one legal action without looking at
    the view (:meth:`euchre.bots.Bot.choose`, not overridden)."""
    return isinstance(bot, Bot) and type(bot).choose is Bot.choose


class Computers:
    """The computers that play a table's seats, and the one move being worked out."""

    def __init__(self, factory: BotFactory, observer: TableObserver,
                 seats: Sequence[Seat]) -> None:
        """A computer for each bot seat of ``seats``, made by ``factory``; decision times
        go to ``observer``."""
        self.factory = factory
        """Makes a computer player of a level, from a seed."""
        self.observer = observer
        """Told how long each decision took."""
        self.bots: dict[int, Any] = {i: factory(s.level or "medium", s.bot_seed)
                                     for i, s in enumerate(seats) if s.is_bot()}
        """The computer playing each seat that a computer plays."""
        self.thinking: Thinking | None = None
        """The move being worked out now, if any."""
        self._timed: dict[int, _Timed] = {}  # each seat's computer as it thinks, kept

    def plays(self, seat: int) -> bool:
        """Whether a computer plays ``seat``."""
        return seat in self.bots

    def take_over(self, table_id: str, seat: int, level: str) -> None:
        """A computer of ``level`` plays ``seat`` from now on (its person left). It is
        seeded from the table and seat, so a resumed table's computer decides the same."""
        digest = hashlib.sha256(f"{table_id}:{seat}".encode()).digest()
        self.bots[seat] = self.factory(level, int.from_bytes(digest[:7], "big"))

    def give_back(self, seat: int) -> None:
        """``seat``'s person plays it again (a take-over that was not stored is undone)."""
        self.bots.pop(seat, None)

    def think_ahead(self, bot: Any, level: str, hand: HandState, step: int,
                    seat: int) -> None:
        """Start working out ``seat``'s move in ``hand`` for the table's ``step`` now, from
        the seat's own view (taken later by :meth:`move`); any other thinking is dropped."""
        self.drop()
        timed = self._timed.get(seat)
        if timed is None or timed.bot is not bot or timed.level != level:
            timed = self._timed[seat] = _Timed(bot, level, self.observer)
        legal = hand.legal_actions()  # once: the view below takes them as they are
        if timed.forced and len(legal) == 1 and hand.to_act == seat:
            # Bot.choose answers a forced move with it, view unseen: no view to build
            # and no turn of the loop to wait for (the move is still taken when due).
            self.observer.bot_decided(level, 0.0)
            move: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
            move.set_result(legal[0])
            self.thinking = Thinking(step, seat, move)
            return
        self.thinking = start_thinking(timed, make_view(hand, seat, legal),
                                       step, seat, SLOW_LEVELS, level)

    def fresh(self, level: str, seed: int | None) -> Any:
        """A new computer of ``level`` (to move for a person out of time)."""
        return self.factory(level, seed)

    def move(self, bot: Any | None, level: str, view: Callable[[], HandView],
             step: int, seat: int, seed: int | None = None) -> Awaitable[Action]:
        """``seat``'s move at ``step`` (to await): the one worked out since its turn
        started, or worked out now from ``view()`` by ``bot`` if none was (``bot`` None: a
        fresh computer of ``level`` from ``seed``, for a person out of time)."""
        thinking, self.thinking = self.thinking, None
        if thinking is not None and thinking.is_for(step, seat):
            return thinking.task  # the future itself: no coroutine a move to await it
        if thinking is not None:
            thinking.cancel()
        if bot is None:
            bot = self.fresh(level, seed)
        return think(_Timed(bot, level, self.observer), view(), level in SLOW_LEVELS)

    def drop(self) -> None:
        """Drop the move being worked out (the turn it was for is over)."""
        if self.thinking is not None:
            self.thinking.cancel()
            self.thinking = None

    async def settled(self) -> None:
        """Wait until the move being worked out (if any) is ready."""
        thinking = self.thinking
        if thinking is not None and not thinking.task.done():
            await asyncio.wait([thinking.task])
