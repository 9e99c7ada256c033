"""The lease keeper: renews from the time each renewal was sent, and reports a lost lease
once, whether another owner took it or renewals failed until it ran out."""

from __future__ import annotations

import asyncio

from euchre.leases import Lease, LeaseKeeper, MemoryLeases
from redis_fixtures import REDIS_URL, FakeClock, fresh_prefix, needs_redis


async def test_renewal_extends_from_when_it_was_sent():
    clock = FakeClock()
    leases = MemoryLeases(now=clock)
    keeper = await LeaseKeeper.acquire(leases, "t", "p1", 10, now=clock)
    assert keeper is not None and keeper.fence == 1
    assert keeper.valid_until == clock() + 10
    clock.advance(4)
    assert await keeper.renew_once()
    assert keeper.valid_until == clock() + 10
    assert keeper.is_held()
    clock.advance(9.5)  # inside the safety margin at the end: no longer sure
    assert not keeper.is_held()


async def test_a_lease_taken_by_another_is_reported_lost_once():
    clock = FakeClock()
    leases = MemoryLeases(now=clock)
    lost: list[tuple[Lease, str]] = []
    keeper = await LeaseKeeper.acquire(leases, "t", "p1", 10, lambda lease, why:
                                       lost.append((lease, why)), now=clock)
    assert keeper is not None
    clock.advance(5)
    assert await leases.release(keeper.lease)  # gone from the service (an operator, a bug)
    other = await leases.acquire("t", "p2", 10)
    assert other is not None and other.fence == 2
    assert not await keeper.renew_once()
    assert not await keeper.renew_once()
    assert [(lease.fence, why) for lease, why in lost] == [
        (1, "the lease ran out or another owner holds it")]
    assert not keeper.is_held()
    await keeper.stop()
    assert (await leases.holder("t")).owner == "p2"  # stopping a lost lease frees nothing


async def test_unreachable_redis_keeps_the_lease_until_its_time_then_loses_it():
    from euchre.leases.redis import RedisLeases

    clock = FakeClock()
    dead = RedisLeases.from_url("redis://127.0.0.1:1/0")  # nothing listens on port 1
    lost: list[str] = []
    keeper = LeaseKeeper(dead, Lease("t", "p1", 7), 10, clock(),
                         lambda lease, why: lost.append(why), now=clock)
    clock.advance(3)
    assert await keeper.renew_once()  # failed, but the lease has time left
    assert keeper.valid_until == clock() + 7 and lost == []
    clock.advance(6)
    assert not await keeper.renew_once()
    assert lost == ["the lease could not be renewed before it ran out"]
    await dead.close()


async def test_the_background_task_keeps_a_short_lease_alive_and_stop_releases_it():
    leases = MemoryLeases()  # the real monotonic clock
    keeper = await LeaseKeeper.acquire(leases, "t", "p1", 0.3)
    assert keeper is not None
    keeper.start()
    await asyncio.sleep(1.0)  # more than three times the ttl
    assert keeper.is_held()
    assert await leases.acquire("t", "p2", 0.3) is None
    await keeper.stop()
    assert keeper.lost == "released"
    assert (await leases.acquire("t", "p2", 0.3)).fence == 2


@needs_redis
async def test_on_real_redis_a_deleted_lease_is_noticed_by_the_next_renewal():
    from euchre.leases.redis import RedisLeases

    assert REDIS_URL
    leases = RedisLeases.from_url(REDIS_URL, prefix=fresh_prefix())
    lost = asyncio.Event()
    keeper = await LeaseKeeper.acquire(leases, "t", "p1", 0.3, lambda lease, why: lost.set())
    assert keeper is not None
    keeper.start()
    await asyncio.sleep(0.5)
    assert keeper.is_held() and not lost.is_set()
    await leases.client.delete(leases._key("t"))  # as if it ran out
    taken = await leases.acquire("t", "p2", 30)
    assert taken is not None and taken.fence == 2
    await asyncio.wait_for(lost.wait(), 5)
    assert not keeper.is_held()
    await keeper.stop()
    assert (await leases.holder("t")).owner == "p2"
    await leases.close()


async def test_a_keeper_paused_past_its_lease_gives_it_up_without_asking():
    clock = FakeClock()
    leases = MemoryLeases(now=clock)
    lost: list[str] = []
    keeper = await LeaseKeeper.acquire(leases, "t", "p1", 10, lambda lease, why:
                                       lost.append(why), now=clock)
    assert keeper is not None
    clock.advance(11)  # paused (SIGSTOP) past its lease, then resumed
    assert not keeper.is_held()
    assert (await leases.acquire("t", "p2", 10)).fence == 2
    assert not await keeper.renew_once()
    assert lost == ["the lease could not be renewed before it ran out"]
