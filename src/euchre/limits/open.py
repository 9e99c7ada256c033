"""Choose the limits' implementation from a URL."""

from __future__ import annotations

import asyncio
import os
from urllib.parse import urlsplit, urlunsplit

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


def _shown(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit((parts.scheme, f"{parts.username or ''}:***@{host}{port}", parts.path,
                       parts.query, parts.fragment))


def redis_problem(redis_url: str | None) -> str | None:
    """One line saying why the Redis at ``redis_url`` cannot be used, or None (also when
    there is none to use)."""
    if not redis_url:
        return None
    try:
        open_limits(redis_url)  # refuses what is not a Redis URL
    except ValueError as e:
        return str(e)
    from .redis import RedisLimits

    async def ping() -> None:
        limits = RedisLimits.from_url(redis_url)
        try:
            async with asyncio.timeout(5):
                await limits.ping()
        finally:
            await limits.close()

    try:
        asyncio.run(ping())
    except Exception as e:
        cause = " ".join(str(e).split()) or type(e).__name__
        return f"redis {_shown(redis_url)}: cannot connect: {cause}"
    return None
