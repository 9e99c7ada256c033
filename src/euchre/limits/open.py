"""Choose the limits' implementation: in the site's Redis, or in this process's memory."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Limits
from .memory import MemoryLimits

if TYPE_CHECKING:
    from redis.asyncio import Redis


def open_limits(redis: Redis | None) -> Limits:
    """Limits on ``redis`` (the process's client, which they share and do not close), memory
    limits for None."""
    if redis is None:
        return MemoryLimits()
    from .redis import RedisLimits

    return RedisLimits(redis)
