"""The lease keeper: renews from the time each renewal was sent, and reports a lost lease
once, whether another owner took it or renewals failed until it ran out."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from euchre.leases import Lease, LeaseKeeper, LeaseRenewer, MemoryLeases
from redis_fixtures import REDIS_URL, FakeClock, TimerClock, fresh_prefix, needs_redis


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


TTL = 30.0
"""Seconds of the leases the background tasks keep: on a clock the test moves (a
:class:`TimerClock`), so they tick only when told; on Redis the key lives that long, longer
than any test waits, so only a renewal the test causes (or misses) decides."""


async def test_the_background_task_keeps_a_lease_alive_and_stop_releases_it():
    clock = TimerClock()
    leases = CountedLeases(clock)
    keeper = await LeaseKeeper.acquire(leases, "t", "p1", TTL, now=clock, sleep=clock.sleep)
    assert keeper is not None
    start = clock()
    keeper.start()
    for n in range(1, 5):
        assert await clock.tick() == pytest.approx(TTL / 3)  # one every third of a lease
        await leases.requests(n)
    await clock.sleeping()  # the fourth renewal answered: the task waits for the next
    assert clock() - start > TTL  # renewed past its first time to live
    assert keeper.is_held() and leases.singles == 4
    assert keeper.valid_until == clock() + TTL
    assert await leases.acquire("t", "p2", TTL) is None
    await keeper.stop()
    assert keeper.lost == "released"
    assert (await leases.acquire("t", "p2", TTL)).fence == 2


@needs_redis
async def test_on_real_redis_a_deleted_lease_is_noticed_by_the_next_renewal():
    from euchre.leases.redis import RedisLeases

    assert REDIS_URL
    leases = RedisLeases.from_url(REDIS_URL, prefix=fresh_prefix())
    asked = Asked(leases)
    clock = TimerClock()
    lost = asyncio.Event()
    keeper = await LeaseKeeper.acquire(leases, "t", "p1", TTL, lambda lease, why: lost.set(),
                                       now=clock, sleep=clock.sleep)
    assert keeper is not None
    keeper.start()
    for n in (1, 2):
        await clock.tick()
        await asked.requests(n)
    await clock.sleeping()  # both renewals answered
    assert keeper.is_held() and not lost.is_set()
    await leases.client.delete(leases._key("t"))  # as if it ran out
    taken = await leases.acquire("t", "p2", 30)
    assert taken is not None and taken.fence == 2
    await clock.tick()  # the next renewal is refused
    await asyncio.wait_for(lost.wait(), 30)
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


class Asked:
    """Counts the renewal requests sent to a lease service (one or a batch: one each)."""

    def __init__(self, leases: Any) -> None:
        self.count = 0
        self._asked = asyncio.Event()
        renew, renew_many = leases.renew, leases.renew_many

        async def counted_renew(lease: Lease, ttl: float) -> bool:
            self._note()
            return bool(await renew(lease, ttl))

        async def counted_renew_many(many: list[Lease], ttl: float) -> list[bool]:
            self._note()
            return list(await renew_many(many, ttl))

        leases.renew, leases.renew_many = counted_renew, counted_renew_many

    def _note(self) -> None:
        self.count += 1
        self._asked.set()

    async def requests(self, n: int) -> None:
        """Wait until ``n`` renewal requests have been sent."""
        while self.count < n:
            self._asked.clear()
            await self._asked.wait()


class CountedLeases(MemoryLeases):
    """Memory leases that note every renewal request: how many leases each carried."""

    def __init__(self, now) -> None:
        super().__init__(now=now)
        self.batches: list[int] = []
        self.singles = 0
        self._asked = asyncio.Event()

    async def renew(self, lease: Lease, ttl: float) -> bool:
        self.singles += 1
        self._asked.set()
        return await super().renew(lease, ttl)

    async def renew_many(self, leases: list[Lease], ttl: float) -> list[bool]:
        self.batches.append(len(leases))
        self._asked.set()
        return [await MemoryLeases.renew(self, lease, ttl) for lease in leases]

    async def requests(self, n: int) -> None:
        """Wait until ``n`` renewal requests have come (singles and batches)."""
        while self.singles + len(self.batches) < n:
            self._asked.clear()
            await self._asked.wait()


class Renewing:
    """Keepers of leases ``names`` under one renewer driven by hand, on a fake clock."""

    def __init__(self) -> None:
        self.clock = FakeClock()
        self.leases = CountedLeases(self.clock)
        self.renewer = LeaseRenewer(self.leases, now=self.clock, background=False)
        self.lost: list[tuple[str, str]] = []

    async def keep(self, names: list[str]) -> list[LeaseKeeper]:
        keepers = []
        for name in names:
            keeper = await LeaseKeeper.acquire(
                self.leases, name, "p1", 10,
                lambda lease, why: self.lost.append((lease.name, why)),
                now=self.clock, renewer=self.renewer)
            assert keeper is not None
            keeper.start()  # handed to the renewer: no task of its own
            assert keeper._task is None
            keepers.append(keeper)
        return keepers


async def test_the_renewer_renews_every_lease_in_one_request():
    r = Renewing()
    clock, leases, renewer, lost = r.clock, r.leases, r.renewer, r.lost
    keepers = await r.keep(["a", "b", "c"])
    clock.advance(4)
    await renewer.renew_once()
    assert leases.batches == [3] and leases.singles == 0
    assert all(k.valid_until == clock() + 10 and k.is_held() for k in keepers)
    assert lost == []
    await renewer.close()


async def test_a_lease_taken_over_is_reported_lost_while_the_others_in_the_batch_renew():
    r = Renewing()
    clock, leases, renewer, lost = r.clock, r.leases, r.renewer, r.lost
    keepers = await r.keep(["a", "b", "c"])
    assert len(renewer) == 3
    clock.advance(5)
    assert await leases.release(keepers[1].lease)  # gone from the service, and taken
    assert (await leases.acquire("b", "p2", 10)).fence == 2
    await renewer.renew_once()
    assert lost == [("b", "the lease ran out or another owner holds it")]
    assert [k.is_held() for k in keepers] == [True, False, True]
    assert keepers[0].valid_until == keepers[2].valid_until == clock() + 10
    assert len(renewer) == 2  # the lost one is renewed no more
    await renewer.renew_once()
    assert lost == [("b", "the lease ran out or another owner holds it")]  # once
    assert leases.batches == [3, 2]
    assert (await leases.holder("b")).owner == "p2"
    await keepers[1].stop()  # stopping a lost lease frees nothing
    assert (await leases.holder("b")).owner == "p2"
    await keepers[0].stop()
    assert len(renewer) == 1 and await leases.holder("a") is None  # released
    await renewer.close()


async def test_a_renewer_paused_past_its_leases_gives_them_up_without_asking():
    r = Renewing()
    clock, leases, renewer, lost = r.clock, r.leases, r.renewer, r.lost
    keepers = await r.keep(["a", "b"])
    clock.advance(11)  # paused (SIGSTOP) past the leases, then resumed
    assert not any(k.is_held() for k in keepers)
    assert (await leases.acquire("a", "p2", 10)).fence == 2
    await renewer.renew_once()
    assert leases.batches == []  # nothing asked
    assert sorted(lost) == [("a", "the lease could not be renewed before it ran out"),
                            ("b", "the lease could not be renewed before it ran out")]
    assert len(renewer) == 0 and renewer.due_in() is None
    await renewer.close()


async def test_a_renewer_without_redis_keeps_its_leases_until_their_time_then_loses_them():
    from euchre.leases.redis import RedisLeases

    clock = FakeClock()
    dead = RedisLeases.from_url("redis://127.0.0.1:1/0")  # nothing listens on port 1
    renewer = LeaseRenewer(dead, now=clock, background=False)
    lost: list[str] = []
    keepers = [LeaseKeeper(dead, Lease(name, "p1", 7), 10, clock(),
                           lambda lease, why: lost.append(why), now=clock, renewer=renewer)
               for name in ("a", "b")]
    for k in keepers:
        k.start()
    clock.advance(3)
    await renewer.renew_once()  # failed, but the leases have time left
    assert all(k.is_held() and k.valid_until == clock() + 7 for k in keepers) and lost == []
    assert renewer.due_in() == pytest.approx(10 / 3)  # tried again a third of a lease on
    clock.advance(6)
    await renewer.renew_once()
    assert lost == ["the lease could not be renewed before it ran out"] * 2
    await renewer.close()
    await dead.close()


async def test_the_renewer_in_the_background_keeps_leases_alive_in_batches():
    clock = TimerClock()
    leases = CountedLeases(clock)
    renewer = LeaseRenewer(leases, now=clock, sleep=clock.sleep)
    keepers = []
    start = clock()
    for name in ("a", "b", "c"):
        keeper = await LeaseKeeper.acquire(leases, name, "p1", TTL, now=clock,
                                           renewer=renewer)
        assert keeper is not None
        keeper.start()
        keepers.append(keeper)
    for n in range(1, 5):
        await clock.tick()
        await leases.requests(n)
    await clock.sleeping()  # the fourth batch answered
    assert clock() - start > TTL  # renewed past their first time to live
    assert all(k.is_held() and k.valid_until == clock() + TTL for k in keepers)
    assert await leases.acquire("b", "p2", TTL) is None
    assert leases.batches and set(leases.batches) == {3} and leases.singles == 0
    for k in keepers:
        await k.stop()
    assert len(renewer) == 0
    assert (await leases.acquire("b", "p2", TTL)).fence == 2
    await renewer.close()


@needs_redis
async def test_on_real_redis_a_taken_lease_is_lost_while_the_batch_renews():
    from euchre.leases.redis import RedisLeases

    assert REDIS_URL
    prefix = fresh_prefix()
    leases = RedisLeases.from_url(REDIS_URL, prefix=prefix)
    other = RedisLeases.from_url(REDIS_URL, prefix=prefix)  # another process
    asked = Asked(leases)
    clock = TimerClock()
    renewer = LeaseRenewer(leases, now=clock, sleep=clock.sleep)
    lost = asyncio.Event()
    why: list[str] = []
    keepers = []
    for name in ("a", "b", "c"):
        keeper = await LeaseKeeper.acquire(
            leases, name, "p1", TTL,
            lambda lease, reason: (why.append(f"{lease.name}: {reason}"), lost.set()),
            now=clock, renewer=renewer)
        assert keeper is not None
        keeper.start()
        keepers.append(keeper)
    for n in (1, 2):
        await clock.tick()
        await asked.requests(n)
    await clock.sleeping()  # both batches answered
    assert all(k.is_held() for k in keepers) and not lost.is_set()
    await leases.client.delete(leases._key("b"))  # as if it ran out
    taken = await other.acquire("b", "p2", 30)
    assert taken is not None and taken.fence == 2
    await clock.tick()  # the next batch: b refused
    await asyncio.wait_for(lost.wait(), 30)
    for n in (4, 5):  # more renewals: the others live on
        await clock.tick()
        await asked.requests(n)
    await clock.sleeping()
    assert why == ["b: the lease ran out or another owner holds it"]
    assert [k.is_held() for k in keepers] == [True, False, True]
    for name in ("a", "c"):
        state = await other.holder(name)
        assert state is not None and state.owner == "p1"
    assert (await other.holder("b")).owner == "p2"
    for k in keepers:
        await k.stop()
    await renewer.close()
    await leases.close()
    await other.close()
