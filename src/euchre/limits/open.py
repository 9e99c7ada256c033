"""Choose the limits' implementation from a URL."""

from __future__ import annotations

import os

from .base import Limits
from .memory import MemoryLimits

REDIS_URL_ENV = "EUCHRE_REDIS_URL"
"""Environment variable: the Redis URL of ``euchre serve`` (``--redis-url``)."""


def open_limits(redis_url: str | None) -> Limits:
    """Redis limits for a ``redis://`` URL, memory limits for None or ""."""
    if not redis_url:
        return MemoryLimits()
    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"not a Redis URL: {redis_url!r} (redis://host:port/db)")
    from .redis import RedisLimits

    return RedisLimits.from_url(redis_url)


def default_redis_url() -> str | None:
    """``$EUCHRE_REDIS_URL`` or None (limits in memory)."""
    return os.environ.get(REDIS_URL_ENV) or None
