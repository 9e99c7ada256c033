"""Leases in Redis, shared by every process of a site.

Each lease is a key holding its acquisition's token (``"{owner} {fence}"``) with the time
to live as the key's expiry, so Redis itself ends a lease nobody renews. The fencing
number of a name is a counter beside it. Acquiring, renewing and releasing are each one Lua
script, so check and change are one atomic step on the Redis server: set-if-absent with
the next fence; extend only if the token is still ours; delete only if it is still ours.
:meth:`RedisLeases.renew_many` extends many leases in one script call (each one only if its
token is still there), so a process renews every table it holds in one round trip.

The counters expire a long while after their last acquisition (a table unseen for a month
needs no counter); the ``at_least`` floor, which the caller reads from the table store,
keeps the numbers rising if a counter is gone or Redis lost its data.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis

from .base import Lease, Leases, LeaseState, check_request

PREFIX = "euchre:lease:"
"""Every key this module writes starts with this."""

FENCE_KEEP = 30 * 24 * 3600
"""Seconds a name's fence counter outlives its last acquisition."""

MAX_CONNECTIONS = 16
"""Connections of a client made by :meth:`RedisLeases.from_url`; more calls at once wait
for one."""

POOL_TIMEOUT = 5.0
"""Seconds a call waits for a free connection before it fails."""

_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local fence = tonumber(redis.call('GET', KEYS[2]) or '0')
local floor = tonumber(ARGV[3])
if fence < floor then fence = floor end
fence = fence + 1
redis.call('SET', KEYS[2], fence, 'PX', ARGV[4])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. fence, 'PX', ARGV[2])
return fence
"""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

_RENEW_MANY = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    out[i] = redis.call('PEXPIRE', key, ARGV[1])
  else
    out[i] = 0
  end
end
return out
"""

BATCH = 500
"""Leases renewed by one script call at most (a longer script would hold Redis up)."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


class RedisLeases(Leases):
    """Leases as expiring Redis keys, changed only by Lua scripts."""

    def __init__(self, client: Redis, prefix: str = PREFIX, *, owned: bool = False) -> None:
        """Leases on ``client``, every key starting with ``prefix``; ``owned``: the client
        is theirs alone, closed by :meth:`close` (else it is the process's shared one)."""
        self.client = client
        """The asyncio Redis client."""
        self.owned = owned
        """Whether :meth:`close` closes the client."""
        self.prefix = prefix
        """Prepended to every key."""
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._renew_many = client.register_script(_RENEW_MANY)
        self._release = client.register_script(_RELEASE)

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> RedisLeases:
        """Leases on a client of their own for the Redis at ``url`` (tests and scripts; the
        server hands every part one shared client, :mod:`euchre.server.core.redis_client`)."""
        pool = BlockingConnectionPool.from_url(url, max_connections=MAX_CONNECTIONS,
                                               timeout=POOL_TIMEOUT)
        return cls(Redis.from_pool(pool), owned=True, **kwargs)  # closing it closes the pool

    def _key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def _fence_key(self, name: str) -> str:
        return f"{self.prefix}{name}:fence"

    async def acquire(self, name: str, owner: str, ttl: float, *,
                      at_least: int = 0) -> Lease | None:
        """Take the lease if free, with the next fencing number."""
        check_request(name, owner, ttl)
        fence = await self._acquire(
            keys=[self._key(name), self._fence_key(name)],
            args=[owner, _ms(ttl), max(0, int(at_least)), FENCE_KEEP * 1000])
        return Lease(name, owner, int(fence)) if int(fence) else None

    async def renew(self, lease: Lease, ttl: float) -> bool:
        """Extend the lease if this acquisition still holds it."""
        check_request(lease.name, lease.owner, ttl)
        done = await self._renew(keys=[self._key(lease.name)], args=[lease.token, _ms(ttl)])
        return bool(int(done))

    async def renew_many(self, leases: list[Lease], ttl: float) -> list[bool]:
        """Renew every lease still held by its acquisition, :data:`BATCH` per script call
        (one round trip for a process's usual count)."""
        out: list[bool] = []
        for lease in leases:
            check_request(lease.name, lease.owner, ttl)
        for start in range(0, len(leases), BATCH):
            batch = leases[start:start + BATCH]
            done = await self._renew_many(keys=[self._key(lease.name) for lease in batch],
                                          args=[_ms(ttl), *(lease.token for lease in batch)])
            out += [bool(int(d)) for d in done]
        return out

    async def release(self, lease: Lease) -> bool:
        """Give the lease up if this acquisition still holds it."""
        done = await self._release(keys=[self._key(lease.name)], args=[lease.token])
        return bool(int(done))

    async def holder(self, name: str) -> LeaseState | None:
        """The holder now, or None."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.get(self._key(name))
            pipe.pttl(self._key(name))
            value, pttl = await pipe.execute()
        if value is None or int(pttl) < 0:
            return None
        owner, fence = (value.decode() if isinstance(value, bytes) else value).rsplit(" ", 1)
        return LeaseState(owner, int(fence), int(pttl) / 1000)

    async def holders(self, names: list[str]) -> dict[str, str | None]:
        """The owner of each lease now, in one round trip (``MGET``)."""
        if not names:
            return {}
        values = await self.client.mget([self._key(n) for n in names])
        out: dict[str, str | None] = {}
        for name, value in zip(names, values, strict=True):
            text = value.decode() if isinstance(value, bytes) else value
            out[name] = text.rsplit(" ", 1)[0] if text else None
        return out

    async def ping(self) -> None:
        """Raise if Redis cannot be reached."""
        await self.client.ping()

    async def close(self) -> None:
        """Close the client's connections if the client is their own (the process's
        shared client is closed by whoever made it)."""
        if self.owned:
            await self.client.aclose()
