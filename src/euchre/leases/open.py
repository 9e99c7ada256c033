"""Choose the leases' implementation from a URL."""

from __future__ import annotations

from .base import Leases
from .memory import MemoryLeases


def open_leases(redis_url: str | None) -> Leases:
    """Redis leases for a ``redis://`` URL, memory leases for None or ""."""
    if not redis_url:
        return MemoryLeases()
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"not a Redis URL: {redis_url!r} (redis://host:port/db)")
    from .redis import RedisLeases

    return RedisLeases.from_url(redis_url)
