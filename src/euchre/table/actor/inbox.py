"""A table's queue of inputs: first in, first out, with a look at the next one.

The actor takes one input at a time; while a save is in flight, people's inputs queue up,
and the actor looks at the next one (:meth:`Inbox.peek`) to see whether it may share the
save. Like :class:`asyncio.Queue` it counts inputs taken but not yet handled, so
:meth:`Inbox.join` waits until everything queued has been handled.

The table's parts post what they want done later (a computer's turn, a grace run out, a
held-back spectator count) to the inbox too (:meth:`Inbox.post`), never to the actor: what a
part posts while the table's loop is not running (before it starts, once it stopped) is
dropped.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Inbox(Generic[T]):
    """An unbounded first-in, first-out queue for one reader, whose next item can be
    looked at without taking it."""

    def __init__(self) -> None:
        """An empty inbox (it needs no running loop until someone waits on it)."""
        self._items: deque[T] = deque()
        # The reader waiting for an item, and whoever waits in join(): futures made only
        # when someone waits (an item put or handled while nobody waits wakes nothing).
        self._reader: asyncio.Future[None] | None = None
        self._joiners: list[asyncio.Future[None]] = []
        self._unfinished = 0
        self.open = False
        """Whether the reader runs (what :meth:`post` is given is queued only then)."""

    def __len__(self) -> int:
        """How many items are queued."""
        return len(self._items)

    def empty(self) -> bool:
        """Whether nothing is queued."""
        return not self._items

    def put(self, item: T) -> None:
        """Queue ``item`` (never blocks)."""
        self._items.append(item)
        self._unfinished += 1
        reader = self._reader
        if reader is not None:
            self._reader = None
            if not reader.done():
                reader.set_result(None)

    def post(self, item: T) -> None:
        """Queue ``item`` if the inbox is :attr:`open`, else drop it (a timer of a table
        whose loop is not running)."""
        if self.open:
            self.put(item)

    def peek(self) -> T | None:
        """The next item, left in the queue, or None if the queue is empty."""
        return self._items[0] if self._items else None

    def take_now(self) -> T:
        """Take the next item; :class:`IndexError` if the queue is empty."""
        return self._items.popleft()

    async def take(self) -> T:
        """Take the next item, waiting for one if the queue is empty."""
        while not self._items:
            reader = self._reader = asyncio.get_running_loop().create_future()
            try:
                await reader
            finally:
                if self._reader is reader:
                    self._reader = None  # cancelled: nobody waits now
        return self._items.popleft()

    def task_done(self) -> None:
        """An item taken has been handled (once per item taken)."""
        if self._unfinished <= 0:
            raise ValueError("task_done() called more times than items were queued")
        self._unfinished -= 1
        if self._unfinished == 0 and self._joiners:
            joiners, self._joiners = self._joiners, []
            for joiner in joiners:
                if not joiner.done():
                    joiner.set_result(None)

    async def join(self) -> None:
        """Wait until every item queued so far has been taken and handled."""
        if self._unfinished == 0:
            return
        joiner = asyncio.get_running_loop().create_future()
        self._joiners.append(joiner)
        await joiner
