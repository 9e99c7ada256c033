"""The inputs a table's actor handles, one type per input.

Everything that happens at a table arrives as one of these values in the actor's
:class:`~euchre.table.inbox.Inbox`: a person's move or seed, a computer's turn, a clock
deadline, the next deal, a connection opening or closing, a seat taken over, the table
closing. The actor dispatches on their types with ``match``. An input that someone waits
for carries the future that answers them (``done``).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .fanout import Subscriber


@dataclass
class Act:
    """A person's move, in notation, from ``seat``."""

    seat: int
    text: str
    done: asyncio.Future[None]


@dataclass
class BotTurn:
    """A computer's move is due (void unless the table is still at ``step``)."""

    step: int


@dataclass
class Deadline:
    """``seat``'s clock ran out (void unless the table is still at ``step``)."""

    seat: int
    step: int


@dataclass
class PrepareTimeout:
    """``seat``'s clock runs out at ``deadline``: the computer that moves for it starts
    thinking now (void unless the table is still at ``step``)."""

    seat: int
    step: int
    deadline: float


@dataclass
class DealNext:
    """The next hand is due to be dealt (void unless the table is still at ``step``)."""

    step: int


@dataclass
class GoOn:
    """The person at ``seat`` has read hand ``hand_number``'s result."""

    seat: int
    hand_number: int
    done: asyncio.Future[None]


@dataclass
class Pace:
    """The person at ``seat`` chose the computers' ``speed``."""

    seat: int
    speed: str
    done: asyncio.Future[None]


@dataclass
class Say:
    """The person at ``seat`` says quick message ``message`` (an id) to the table."""

    seat: int
    message: str
    done: asyncio.Future[None]


@dataclass
class Join:
    """A connection subscribes, having seen the events up to ``since`` (None: none)."""

    subscriber: Subscriber
    since: int | None
    done: asyncio.Future[None]


@dataclass
class Leave:
    """A connection closed."""

    subscriber: Subscriber


@dataclass
class Seed:
    """A person's shuffle seed for hand ``hand_number``."""

    seat: int
    hand_number: int
    seed: str
    done: asyncio.Future[None]


@dataclass
class Replace:
    """A computer is to play ``seat`` for the rest of the game, and why (answers whether
    it was taken over now)."""

    seat: int
    reason: str
    done: asyncio.Future[bool]


@dataclass
class AwayDue:
    """``seat``'s grace ran out (void unless its away spell is still ``generation``)."""

    seat: int
    generation: int


@dataclass
class Close:
    """The table is to end before its game is over, and why."""

    reason: str
    done: asyncio.Future[None]


@dataclass
class CountSpectators:
    """Time to publish the spectator count that was held back."""


def _future() -> asyncio.Future[None]:
    return asyncio.get_running_loop().create_future()


@dataclass
class Stop:
    """The actor's task is to end (answered once it has)."""

    done: asyncio.Future[None] = field(default_factory=_future)


Command = (Act | BotTurn | Deadline | PrepareTimeout | DealNext | Join | Leave | Close | Stop
           | Seed | Replace | AwayDue | CountSpectators | GoOn | Pace | Say)
"""Any input of a table."""

GATHER_MOST = 32
"""The most inputs handled before one save."""


def gathers(cmd: Command | None) -> bool:
    """Whether ``cmd`` is a person's input that may share one save with others queued
    behind it (they came while a save was in flight)."""
    return isinstance(cmd, (Act, Seed))


def waiter(cmd: Command) -> asyncio.Future[Any] | None:
    """The future that answers whoever waits for ``cmd``, if anyone does."""
    match cmd:
        case Act(done=done) | GoOn(done=done) | Pace(done=done) | Join(done=done) \
                | Seed(done=done) | Close(done=done) | Stop(done=done) | Say(done=done):
            return done
        case Replace(done=replaced):
            return replaced
    return None
