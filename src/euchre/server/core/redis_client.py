"""The one Redis client of a process: the site's leases, rate limits and broker share it.

``open_redis(url)`` is the only place a Redis URL is checked and a client made; the leases
(:func:`euchre.leases.open_leases`), the limits (:func:`euchre.limits.open_limits`) and the
broker (:func:`euchre.broker.open_broker`) are each handed the client, or None to keep
their state in this process's memory. Its pool is bounded: a burst of calls waits for a
free connection rather than failing; the broker's pub/sub holds one connection of it.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from redis.asyncio import Redis

REDIS_URL_ENV = "EUCHRE_REDIS_URL"
"""Environment variable: the Redis URL of ``euchre serve`` (``--redis-url``)."""

SCHEMES = ("redis://", "rediss://", "unix://")
"""How a Redis URL starts."""

MAX_CONNECTIONS = 64
"""Connections to Redis per process (leases, limits, the broker's publishing and its one
pub/sub connection); more calls at once wait for one (a burst of thousands of requests must
queue, not fail with "too many connections")."""

POOL_TIMEOUT = 10.0
"""Seconds a call waits for a free connection before it fails."""


def check_redis_url(url: str) -> None:
    """Raise :class:`ValueError` (saying what a Redis URL looks like) unless ``url`` is one."""
    if not url.startswith(SCHEMES):
        raise ValueError(f"not a Redis URL: {url!r} (redis://host:port/db)")


def open_redis(url: str | None) -> Redis | None:
    """The process's client for the Redis at ``url`` (not connected until first used;
    its ``aclose()`` closes every connection it opened), or None for None or "" (everything
    in this process's memory); raises :class:`ValueError` for what is not a Redis URL."""
    if not url:
        return None
    check_redis_url(url)
    from redis.asyncio import BlockingConnectionPool, Redis  # only a site with Redis needs it

    pool = BlockingConnectionPool.from_url(
        url, max_connections=MAX_CONNECTIONS, timeout=POOL_TIMEOUT,
        client_name=f"euchre-{os.getpid()}-{secrets.token_hex(3)}")
    # from_pool: the client owns its pool, so closing it closes the pool's connections
    # (Redis(connection_pool=...) would leave them open after aclose()).
    return Redis.from_pool(pool)


def default_redis_url() -> str | None:
    """``$EUCHRE_REDIS_URL`` or None (limits in memory)."""
    return os.environ.get(REDIS_URL_ENV) or None


def shown_url(url: str) -> str:
    """``url`` with its password, if any, as ``***``."""
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
        client = open_redis(redis_url)
    except ValueError as e:
        return str(e)
    assert client is not None

    async def ping() -> None:
        try:
            async with asyncio.timeout(5):
                await client.ping()
        finally:
            await client.aclose()

    try:
        asyncio.run(ping())
    except Exception as e:
        cause = " ".join(str(e).split()) or type(e).__name__
        return f"redis {shown_url(redis_url)}: cannot connect: {cause}"
    return None
