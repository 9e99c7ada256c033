"""Limits kept in Redis, shared by every process of a site.

One Lua script per hit: drop the key's attempts older than the window, count the rest, and
add this attempt if there is room, all in one atomic step on the Redis server (a sorted set
per key, scored by time in milliseconds, expiring a window after its last attempt). Time is
the Redis server's own (``TIME``), so processes on machines whose clocks differ agree.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import RedisError

from .base import Decision, Limits, LimitsUnavailable

PREFIX = "euchre:limit:"
"""Every key this module writes starts with this."""

MAX_CONNECTIONS = 32
"""Connections of a client made by :meth:`RedisLimits.from_url`; more hits at once wait for
one (a burst of thousands
of requests must queue, not fail with "too many connections")."""

POOL_TIMEOUT = 10.0
"""Seconds a hit waits for a free connection before it fails."""

_HIT = """
local now
if ARGV[3] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[3])
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], window)
  return {1, 0, limit - n - 1}
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local wait = window
if oldest[2] then wait = tonumber(oldest[2]) + window - now end
return {0, wait, 0}
"""

_COUNT = """
local now
if ARGV[2] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[2])
end
return redis.call('ZCOUNT', KEYS[1], '(' .. (now - tonumber(ARGV[1])), '+inf')
"""


class RedisLimits(Limits):
    """Sliding logs in Redis sorted sets, updated by a Lua script; a Redis that cannot be
    reached raises :class:`~euchre.limits.base.LimitsUnavailable` (the caller refuses)."""

    def __init__(self, client: Redis, now: Callable[[], float] | None = None,
                 prefix: str = PREFIX, *, owned: bool = False) -> None:
        """Limits on ``client``; ``now`` (seconds) replaces the Redis server's clock in
        tests; ``owned``: the client is theirs alone, closed by :meth:`close` (else it is
        the process's shared one)."""
        self.client = client
        """The asyncio Redis client."""
        self.owned = owned
        """Whether :meth:`close` closes the client."""
        self.now = now
        """A clock to use instead of the server's (tests only)."""
        self.prefix = prefix
        """Prepended to every key."""
        self._hit = client.register_script(_HIT)
        self._count = client.register_script(_COUNT)

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> RedisLimits:
        """Limits on a client of their own for the Redis at ``url`` (tests and scripts; the
        server hands every part one shared client, :mod:`euchre.server.core.redis_client`)."""
        pool = BlockingConnectionPool.from_url(url, max_connections=MAX_CONNECTIONS,
                                               timeout=POOL_TIMEOUT)
        return cls(Redis.from_pool(pool), owned=True, **kwargs)  # closing it closes the pool

    def _now(self) -> str:
        return "" if self.now is None else str(int(self.now() * 1000))

    async def hit(self, key: str, limit: int, window: float) -> Decision:
        """Count one attempt unless ``limit`` were counted in the last ``window`` seconds."""
        ticket = secrets.token_hex(8)
        window_ms = max(1, int(window * 1000))
        try:
            allowed, wait_ms, remaining = await self._hit(
                keys=[self.prefix + key], args=[limit, window_ms, self._now(), ticket])
        except RedisError as e:
            raise LimitsUnavailable(f"Redis: {e}") from e
        if allowed:
            return Decision(True, 0.0, int(remaining), ticket)
        return Decision(False, max(0.0, int(wait_ms) / 1000), 0)

    async def give_back(self, key: str, ticket: str) -> None:
        """Uncount the attempt counted with ``ticket``."""
        if ticket:
            try:
                await self.client.zrem(self.prefix + key, ticket)
            except RedisError as e:
                raise LimitsUnavailable(f"Redis: {e}") from e

    async def count(self, key: str, window: float) -> int:
        """The attempts counted at ``key`` in the last ``window`` seconds."""
        n = await self._count(keys=[self.prefix + key],
                              args=[max(1, int(window * 1000)), self._now()])
        return int(n)

    async def ping(self) -> None:
        """Raise if Redis cannot be reached."""
        await self.client.ping()

    async def close(self) -> None:
        """Close the client's connections if the client is their own (the process's
        shared client is closed by whoever made it)."""
        if self.owned:
            await self.client.aclose()
