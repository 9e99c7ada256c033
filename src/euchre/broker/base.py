"""The broker interface: connect, disconnect, publish, subscribe, ping.

Delivery is at most once and in order: every subscriber of a channel gets the messages
published on it after its ``subscribe`` returned, in the order ``publish`` was called
(within one process; across processes, in the order the broker received them, the same
order for every subscriber). A message published while a subscriber's connection was
broken may be lost: the subscription then ends with :class:`BrokerUnavailable`, or, if
the client reconnected by itself, the consumer notices the gap (table events carry
versions, and a socket rejoins with ``since``).
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator

from .subscription import Subscription

BUFFER = 1000
"""Messages a subscriber may fall behind before its subscription ends with an overflow."""


class BrokerUnavailable(ConnectionError):
    """The broker cannot be reached, or is not connected."""


class Broker(ABC):
    """Channels of messages between processes; the local fan-out is shared here."""

    def __init__(self, buffer: int = BUFFER) -> None:
        """No subscriptions yet; each buffers at most ``buffer`` messages."""
        self.buffer = buffer
        """Messages each subscription buffers at most."""
        self._subs: dict[str, set[Subscription]] = {}
        self._ready: dict[str, asyncio.Future[None]] = {}

    @abstractmethod
    async def connect(self) -> None:
        """Connect (again after :meth:`disconnect`); calling it when connected is harmless."""

    @abstractmethod
    async def disconnect(self) -> None:
        """Send what was published, end every subscription and close the connections."""

    @abstractmethod
    async def publish(self, channel: str, message: bytes | str) -> None:
        """Send ``message`` to every subscriber of ``channel`` (in every process); messages
        go out in the order of the calls. :class:`BrokerUnavailable` if it cannot."""

    @contextlib.asynccontextmanager
    async def subscribe(self, channel: str) -> AsyncIterator[Subscription]:
        """Subscribe to ``channel`` for the block: every message published after this
        returned is yielded, in order, by the subscription."""
        if not channel:
            raise ValueError("a channel needs a name")
        sub = Subscription(channel, self.buffer)
        local = self._subs.setdefault(channel, set())
        local.add(sub)
        try:
            ready = self._ready.get(channel)
            if ready is not None:  # another local subscriber is subscribing: wait for it
                await asyncio.shield(ready)
            elif len(local) == 1:
                ready = self._ready[channel] = asyncio.get_running_loop().create_future()
                try:
                    await self._listen(channel)
                except BaseException as e:
                    ready.set_exception(BrokerUnavailable(f"subscribing to {channel} failed: "
                                                          f"{e!r}"))
                    ready.exception()  # retrieved: whoever waits raises it, or nobody
                    raise
                else:
                    ready.set_result(None)
                finally:
                    del self._ready[channel]
        except BaseException:
            self._drop(sub)
            raise
        try:
            yield sub
        finally:
            sub.end()
            if self._drop(sub):
                with contextlib.suppress(Exception):  # the connection may be gone already
                    await self._unlisten(channel)

    @abstractmethod
    async def ping(self) -> None:
        """Check the broker works end to end; :class:`BrokerUnavailable` if not."""

    async def _listen(self, channel: str) -> None:  # noqa: B027 - memory needs nothing
        """Start receiving ``channel`` (its first local subscriber came)."""

    async def _unlisten(self, channel: str) -> None:  # noqa: B027 - memory needs nothing
        """Stop receiving ``channel`` (its last local subscriber left)."""

    def _drop(self, sub: Subscription) -> bool:
        """Forget a subscription; whether it was its channel's last one here."""
        local = self._subs.get(sub.channel)
        if local is None:
            return False
        local.discard(sub)
        if local:
            return False
        del self._subs[sub.channel]
        return True

    def _deliver(self, channel: str, message: bytes) -> None:
        """Hand a received message to this process's subscribers of ``channel``."""
        for sub in list(self._subs.get(channel, ())):
            sub.put(message)

    def _end_all(self, error: BaseException | None = None) -> None:
        """End every local subscription (with ``error``, or normally)."""
        for local in self._subs.values():
            for sub in local:
                sub.end(error)
        self._subs.clear()

    def subscribers(self, channel: str) -> int:
        """How many subscriptions to ``channel`` this process holds."""
        return len(self._subs.get(channel, ()))


def as_bytes(message: bytes | str) -> bytes:
    """A message as bytes (text is UTF-8)."""
    return message.encode() if isinstance(message, str) else bytes(message)
