"""Choose the broker's implementation from a URL."""

from __future__ import annotations

from .base import Broker
from .memory import MemoryBroker


def open_broker(redis_url: str | None) -> Broker:
    """A Redis broker for a ``redis://`` URL, a memory broker for None or "" (call
    ``connect`` before use)."""
    if not redis_url:
        return MemoryBroker()
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"not a Redis URL: {redis_url!r} (redis://host:port/db)")
    from .redis import RedisBroker

    return RedisBroker(redis_url)
