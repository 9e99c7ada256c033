"""Choose the leases' implementation: in the site's Redis, or in this process's memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Leases
from .memory import MemoryLeases

if TYPE_CHECKING:
    from redis.asyncio import Redis


def open_leases(redis: Redis | None) -> Leases:
    """Leases on ``redis`` (the process's client, which they share and do not close), memory
    leases for None."""
    if redis is None:
        return MemoryLeases()
    from .redis import RedisLeases

    return RedisLeases(redis)
