"""A table's queue of inputs: first in, first out, with a look at the next one.

The actor takes one input at a time; while a save is in flight, people's inputs queue up,
and the actor looks at the next one (:meth:`Inbox.peek`) to see whether it may share the
save. Like :class:`asyncio.Queue` it counts inputs taken but not yet handled, so
:meth:`Inbox.join` waits until everything queued has been handled.
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
        self._arrived = asyncio.Event()
        self._unfinished = 0
        self._finished = asyncio.Event()
        self._finished.set()

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
        self._finished.clear()
        self._arrived.set()

    def peek(self) -> T | None:
        """The next item, left in the queue, or None if the queue is empty."""
        return self._items[0] if self._items else None

    def take_now(self) -> T:
        """Take the next item; :class:`IndexError` if the queue is empty."""
        item = self._items.popleft()
        if not self._items:
            self._arrived.clear()
        return item

    async def take(self) -> T:
        """Take the next item, waiting for one if the queue is empty."""
        while not self._items:
            self._arrived.clear()
            await self._arrived.wait()
        return self.take_now()

    def task_done(self) -> None:
        """An item taken has been handled (once per item taken)."""
        if self._unfinished <= 0:
            raise ValueError("task_done() called more times than items were queued")
        self._unfinished -= 1
        if self._unfinished == 0:
            self._finished.set()

    async def join(self) -> None:
        """Wait until every item queued so far has been taken and handled."""
        await self._finished.wait()
