"""A person's lock holds across the processes of a site: two processes' requests for one
person never run their check-and-change at once (Redis leases), and a lock someone holds
too long refuses the waiter with a clear 503 instead of hanging."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from euchre.leases import Leases, MemoryLeases
from euchre.server.core import guards
from euchre.server.core.guards import PersonBusy, PersonLocks
from redis_fixtures import REDIS_URL, fresh_prefix, needs_redis


@pytest.fixture(params=["memory", pytest.param("redis", marks=needs_redis)])
async def two_sites(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Leases, Leases]]:
    if request.param == "memory":
        shared = MemoryLeases()
        yield shared, shared
        return
    from euchre.leases.redis import RedisLeases

    assert REDIS_URL
    prefix = fresh_prefix()
    a = RedisLeases.from_url(REDIS_URL, prefix=prefix)
    b = RedisLeases.from_url(REDIS_URL, prefix=prefix)  # its own connections: another process
    yield a, b
    await a.close()
    await b.close()


async def test_two_processes_never_hold_one_persons_lock_at_once(
        two_sites: tuple[Leases, Leases]) -> None:
    first, second = PersonLocks(two_sites[0], "one"), PersonLocks(two_sites[1], "two")
    inside: list[str] = []
    overlaps = 0
    seats = 0

    async def claim(locks: PersonLocks, who: str) -> None:
        nonlocal overlaps, seats
        async with locks.hold("account:7"):
            overlaps += bool(inside)
            inside.append(who)
            held = seats  # read the cap's count, yield, then change it
            await asyncio.sleep(0.002)
            seats = held + 1
            inside.remove(who)

    await asyncio.gather(*(claim(first if i % 2 else second, f"r{i}") for i in range(12)))
    assert overlaps == 0
    assert seats == 12  # no lost update: each check saw the change before it


async def test_other_people_do_not_wait_for_each_other(two_sites: tuple[Leases, Leases]) -> None:
    first, second = PersonLocks(two_sites[0], "one"), PersonLocks(two_sites[1], "two")
    # Would wait (and fail) if both people shared one lock.
    async with first.hold("account:1"), second.hold("account:2"):
        pass


async def test_a_lock_held_too_long_refuses_the_waiter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(guards, "PERSON_LOCK_WAIT", 0.05)
    shared = MemoryLeases()
    first, second = PersonLocks(shared, "one"), PersonLocks(shared, "two")
    async with first.hold("address:10.0.0.1"):
        with pytest.raises(PersonBusy, match="try again"):
            async with second.hold("address:10.0.0.1"):
                pass
    async with second.hold("address:10.0.0.1"):  # free again once released
        pass


async def test_without_site_leases_the_lock_is_this_process_only() -> None:
    locks = PersonLocks()
    async with locks.hold("account:3"):
        assert locks.leases is None
