"""Leases: the same tests for memory (fake clock) and real Redis (time passed by moving each
lease key's time to live on: Redis itself lets a key go whose time ran out)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from euchre.leases import Lease, LeaseError, Leases, MemoryLeases, open_leases
from redis_fixtures import REDIS_URL, FakeClock, fresh_prefix, needs_redis

TTL = 10.0
"""Seconds: long, so only the time a test lets pass (``made.wait``) counts, never how late
a busy machine runs it (and shorter than the tests' 30 s renewals)."""


class Made:
    """Two handles on one lease service (two processes), and a way to let time pass."""

    def __init__(self, a: Leases, b: Leases, wait: Callable[[float], Any]) -> None:
        self.a, self.b, self.wait = a, b, wait


@pytest.fixture(params=["memory", pytest.param("redis", marks=needs_redis)])
async def made(request: pytest.FixtureRequest) -> AsyncIterator[Made]:
    if request.param == "memory":
        clock = FakeClock()
        shared = MemoryLeases(now=clock)

        async def advance(seconds: float) -> None:
            clock.advance(seconds)

        yield Made(shared, shared, advance)
        return
    from euchre.leases.redis import RedisLeases

    assert REDIS_URL
    prefix = fresh_prefix()
    a = RedisLeases.from_url(REDIS_URL, prefix=prefix)
    b = RedisLeases.from_url(REDIS_URL, prefix=prefix)  # its own connections, as another process

    async def later(seconds: float) -> None:
        """Every lease key's time to live less ``seconds`` (a key out of time expires now)."""
        async for key in a.client.scan_iter(match=f"{prefix}*"):
            left = await a.client.pttl(key)
            if left < 0:
                continue  # no time to live: not a lease
            rest = left - int(seconds * 1000)
            if rest > 0:
                await a.client.pexpire(key, rest)
            else:
                await a.client.pexpireat(key, 1)  # long past: Redis deletes it at once

    yield Made(a, b, later)
    await a.close()
    await b.close()


async def test_two_owners_race_for_each_table_and_exactly_one_wins(made):
    names = [f"table:{i}" for i in range(40)]
    tries = [made.a.acquire(n, "p1", 30) for n in names] + \
            [made.b.acquire(n, "p2", 30) for n in names]
    results = await asyncio.gather(*tries)
    for i, name in enumerate(names):
        first, second = results[i], results[i + len(names)]
        winners = [r for r in (first, second) if r is not None]
        assert len(winners) == 1, name
        assert winners[0].fence == 1
        state = await made.a.holder(name)
        assert state is not None and state.owner == winners[0].owner
        assert state.fence == 1 and 0 < state.ttl <= 30


async def test_expiry_hands_the_lease_over_with_a_higher_fence(made):
    first = await made.a.acquire("table:x", "p1", TTL)
    assert first == Lease("table:x", "p1", 1)
    assert await made.b.acquire("table:x", "p2", TTL) is None
    await made.wait(TTL + 0.1)
    assert await made.a.holder("table:x") is None
    second = await made.b.acquire("table:x", "p2", 30)
    assert second is not None and second.owner == "p2" and second.fence == 2
    assert (await made.a.holder("table:x")).owner == "p2"


async def test_a_lost_lease_cannot_be_renewed_or_released(made):
    first = await made.a.acquire("table:y", "p1", TTL)
    assert first is not None
    assert await made.a.renew(first, TTL)  # still ours
    await made.wait(TTL + 0.1)
    # Ran out, nobody took it: still not ours to renew.
    assert not await made.a.renew(first, 30)
    assert await made.a.holder("table:y") is None
    second = await made.b.acquire("table:y", "p2", 30)
    assert second is not None and second.fence > first.fence
    assert not await made.a.renew(first, 30)
    assert not await made.a.release(first)
    state = await made.b.holder("table:y")
    assert state is not None and (state.owner, state.fence) == ("p2", second.fence)


async def test_the_same_owner_acquiring_again_gets_a_new_fence(made):
    first = await made.a.acquire("t", "p1", 30)
    assert first is not None
    assert await made.a.acquire("t", "p1", 30) is None  # held, even by itself
    assert await made.a.release(first)
    again = await made.a.acquire("t", "p1", 30)
    assert again is not None and again.fence == first.fence + 1
    assert not await made.a.renew(first, 30)  # the old acquisition is not this one
    assert await made.a.renew(again, 30)


async def test_renewal_keeps_the_lease_past_its_first_ttl(made):
    lease = await made.a.acquire("t", "p1", TTL)
    for _ in range(3):
        await made.wait(TTL / 2)
        assert await made.a.renew(lease, TTL)
    assert await made.b.acquire("t", "p2", TTL) is None
    assert (await made.b.holder("t")).fence == lease.fence


async def test_release_frees_at_once_and_at_least_raises_the_floor(made):
    lease = await made.a.acquire("t", "p1", 30)
    assert await made.a.release(lease)
    assert not await made.a.release(lease)
    assert await made.a.holder("t") is None
    # The store remembers fence 41 (say Redis lost its counters): the next fence is above.
    raised = await made.b.acquire("t", "p2", 30, at_least=41)
    assert raised is not None and raised.fence == 42
    assert await made.b.release(raised)
    assert (await made.a.acquire("t", "p1", 30, at_least=5)).fence == 43


async def test_bad_requests_are_refused_and_change_nothing(made):
    for name, owner, ttl in [("", "p1", 1), ("t", "", 1), ("t", "a b", 1), ("t", "p1", 0),
                             ("t", "p1", -1)]:
        with pytest.raises(LeaseError):
            await made.a.acquire(name, owner, ttl)
    assert await made.a.holder("t") is None
    assert (await made.a.acquire("t", "p1", 30)).fence == 1


def test_open_leases_picks_the_implementation():
    from euchre.leases.redis import RedisLeases
    from euchre.server.core.redis_client import open_redis

    assert isinstance(open_leases(None), MemoryLeases)
    assert open_redis("") is None
    client = open_redis("redis://127.0.0.1:1/0")  # not connected until used
    assert isinstance(open_leases(client), RedisLeases)
    with pytest.raises(ValueError, match="not a Redis URL"):
        open_redis("postgresql://x")


async def test_renewing_many_extends_those_still_held_and_reports_the_others_lost(made):
    mine = [await made.a.acquire(f"t{i}", "p1", TTL) for i in range(4)]
    assert all(mine)
    # t1 taken over by another owner; t2 released (nobody holds it): both lost to p1.
    assert await made.a.release(mine[1])
    other = await made.b.acquire("t1", "p2", 30)
    assert other is not None and other.fence == 2
    assert await made.a.release(mine[2])
    assert await made.a.renew_many(mine, 30) == [True, False, False, True]
    await made.wait(TTL + 0.1)  # past the first time to live: the renewed ones live on
    for i in (0, 3):
        state = await made.b.holder(f"t{i}")
        assert state is not None and (state.owner, state.fence) == ("p1", 1)
    state = await made.a.holder("t1")
    assert state is not None and (state.owner, state.fence) == ("p2", 2)  # untouched
    assert await made.a.holder("t2") is None  # not brought back
    assert await made.a.renew_many([], 30) == []


async def test_renewing_many_refuses_a_bad_ttl_and_changes_nothing(made):
    lease = await made.a.acquire("t", "p1", TTL)
    assert lease is not None
    with pytest.raises(LeaseError):
        await made.a.renew_many([lease], 0)
    await made.wait(TTL + 0.1)
    assert await made.a.holder("t") is None  # it was not extended


async def test_renewing_more_leases_than_one_batch(made):
    from euchre.leases.redis import BATCH

    names = [f"t{i}" for i in range(BATCH * 2 + 7)]
    leases = [await made.a.acquire(n, "p1", 30) for n in names]
    assert all(leases)
    taken = leases[BATCH + 3]
    assert taken is not None and await made.a.release(taken)
    answers = await made.a.renew_many([x for x in leases if x is not None], 30)
    assert answers == [i != BATCH + 3 for i in range(len(names))]
