"""One subscriber's messages: a bounded buffer read as an async iterator."""

from __future__ import annotations

import asyncio
from collections import deque


class SubscriptionOverflow(RuntimeError):
    """A subscriber fell too far behind; its subscription ended (messages were dropped)."""


class Subscription:
    """The messages published on one channel since subscribing, in order.

    ``async for message in subscription`` yields them (bytes) until the subscription ends:
    normally when its ``subscribe`` block exits or the broker disconnects, with the error
    that ended it otherwise (:class:`~euchre.broker.BrokerUnavailable` when the broker lost
    its connection, :class:`~euchre.broker.SubscriptionOverflow` when the subscriber fell
    more than ``limit`` messages behind). Messages buffered before an error come first.
    """

    def __init__(self, channel: str, limit: int) -> None:
        """An open subscription to ``channel`` buffering at most ``limit`` messages."""
        self.channel = channel
        """The channel, as the caller named it."""
        self.limit = limit
        """Messages buffered at most before the subscription ends with an overflow."""
        self._buffer: deque[bytes] = deque()
        self._wake = asyncio.Event()
        self._error: BaseException | None = None
        self._ended = False

    @property
    def pending(self) -> int:
        """Messages delivered to this subscription and not yet read."""
        return len(self._buffer)

    @property
    def ended(self) -> bool:
        """Whether no more messages will be added."""
        return self._ended

    def put(self, message: bytes) -> None:
        """Buffer a message (the broker calls this); ends the subscription on overflow."""
        if self._ended:
            return
        if len(self._buffer) >= self.limit:
            self.end(SubscriptionOverflow(
                f"channel {self.channel}: the subscriber fell {self.limit} messages behind"))
            return
        self._buffer.append(message)
        self._wake.set()

    def end(self, error: BaseException | None = None) -> None:
        """End the subscription (with ``error`` to raise after the buffered messages)."""
        if self._ended:
            return
        self._ended = True
        self._error = error
        self._wake.set()

    def __aiter__(self) -> Subscription:
        """The subscription is its own iterator."""
        return self

    async def __anext__(self) -> bytes:
        """The next message, waiting for one."""
        while not self._buffer:
            if self._ended:
                if self._error is not None:
                    raise self._error
                raise StopAsyncIteration
            self._wake.clear()
            await self._wake.wait()
        return self._buffer.popleft()
