"""The inputs a table's actor handles, one type per input.

Everything that happens at a table arrives as one of these values in the actor's
:class:`~euchre.table.actor.inbox.Inbox`: a person's move or seed, a computer's turn, a clock
deadline, the next deal, a connection opening or closing, a seat taken over, the table
closing. The actor dispatches on their types with ``match``. An input that someone waits
for carries the future that answers them (``done``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .fanout import Subscriber


@dataclass
class Move:
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
class SetSpeed:
    """The person at ``seat`` chose the computers' ``speed``."""

    seat: int
    speed: str
    done: asyncio.Future[None]


@dataclass
class Speak:
    """The person at ``seat`` says quick message ``message`` (an id) to the table."""

    seat: int
    message: str
    done: asyncio.Future[None]


@dataclass
class Enter:
    """A connection subscribes, having seen the events up to ``since`` (None: none)."""

    subscriber: Subscriber
    since: int | None
    done: asyncio.Future[None]


@dataclass
class Leave:
    """A connection closed."""

    subscriber: Subscriber


@dataclass
class Contribute:
    """A person's shuffle seed for hand ``hand_number``."""

    seat: int
    hand_number: int
    seed: str
    done: asyncio.Future[None]


@dataclass
class ReplaceSeat:
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
class LastHand:
    """The table is to end once the hand in play is over (at once between hands), and why
    (a tournament round's time ran out)."""

    reason: str
    done: asyncio.Future[None]


@dataclass
class RematchAnswer:
    """The person at ``seat`` offers or accepts a rematch (``accept``), or declines it;
    ``partners`` is the offer's choice of seats (``keep`` or ``change``)."""

    seat: int
    accept: bool
    partners: str
    done: asyncio.Future[None]


@dataclass
class RematchDue:
    """The rematch offer's minute may be over."""


@dataclass
class CountSpectators:
    """Time to publish the spectator count that was held back."""


def _future() -> asyncio.Future[None]:
    return asyncio.get_running_loop().create_future()


@dataclass
class Stop:
    """The actor's task is to end (answered once it has)."""

    done: asyncio.Future[None] = field(default_factory=_future)


Command = (Move | BotTurn | Deadline | PrepareTimeout | DealNext | Enter | Leave | Close | Stop
           | LastHand | Contribute | ReplaceSeat | AwayDue | CountSpectators | GoOn | SetSpeed
           | RematchAnswer | RematchDue | Speak)
"""Any input of a table."""

Post = Callable[[Command], None]
"""Queues an input at a table (its inbox's :meth:`~euchre.table.actor.inbox.Inbox.post`):
how a part that must wake the table later (a timer) reaches it."""

GATHER_MOST = 32
"""The most inputs handled before one save."""


def gathers(cmd: Command | None) -> bool:
    """Whether ``cmd`` is a person's input that may share one save with others queued
    behind it (they came while a save was in flight)."""
    return isinstance(cmd, (Move, Contribute))


def waiter(cmd: Command) -> asyncio.Future[Any] | None:
    """The future that answers whoever waits for ``cmd``, if anyone does."""
    match cmd:
        case Move(done=done) | GoOn(done=done) | SetSpeed(done=done) | Enter(done=done) \
                | Contribute(done=done) | Close(done=done) | LastHand(done=done) \
                | Stop(done=done) | RematchAnswer(done=done) | Speak(done=done):
            return done
        case ReplaceSeat(done=replaced):
            return replaced
    return None
