"""Choose the broker's implementation: over the site's Redis, or in this process's memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Broker
from .memory import MemoryBroker

if TYPE_CHECKING:
    from redis.asyncio import Redis


def open_broker(redis: Redis | None) -> Broker:
    """A broker over ``redis`` (the process's client: its pub/sub takes one connection of
    it, and the client is not closed with the broker), a memory broker for None (call
    ``connect`` before use)."""
    if redis is None:
        return MemoryBroker()
    from .redis import RedisBroker

    return RedisBroker.on(redis)
