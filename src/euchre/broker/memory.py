"""A broker inside one process: publish hands the message straight to the subscribers."""

from __future__ import annotations

from .base import BUFFER, Broker, BrokerUnavailable, as_bytes


class MemoryBroker(Broker):
    """Channels in this process's memory (the one-process default, and tests)."""

    def __init__(self, buffer: int = BUFFER) -> None:
        """Not connected yet; each subscription buffers at most ``buffer`` messages."""
        super().__init__(buffer)
        self.connected = False
        """Whether :meth:`connect` was called (and not :meth:`disconnect` since)."""

    async def connect(self) -> None:
        """Nothing to reach."""
        self.connected = True

    async def disconnect(self) -> None:
        """End every subscription."""
        self.connected = False
        self._end_all()

    async def publish(self, channel: str, message: bytes | str) -> None:
        """Deliver to this process's subscribers at once."""
        if not self.connected:
            raise BrokerUnavailable("the broker is not connected")
        self._deliver(channel, as_bytes(message))

    async def ping(self) -> None:
        """Connected is all it takes."""
        if not self.connected:
            raise BrokerUnavailable("the broker is not connected")
