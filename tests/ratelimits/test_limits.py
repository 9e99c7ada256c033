"""The limits interface, the same tests for memory and for real Redis (with a fake clock)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from euchre.limits import Decision, Limits, MemoryLimits, open_limits, retry_seconds
from euchre.server.root import root_of
from limits_helpers import REDIS_URL, FakeClock, fresh_prefix, needs_redis


@pytest.fixture(params=["memory", pytest.param("redis", marks=needs_redis)])
async def made(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Limits, FakeClock]]:
    clock = FakeClock()
    limits: Limits
    if request.param == "memory":
        limits = MemoryLimits(now=clock)
    else:
        from euchre.limits.redis import RedisLimits

        assert REDIS_URL
        limits = RedisLimits.from_url(REDIS_URL, now=clock, prefix=fresh_prefix())
    yield limits, clock
    await limits.close()


async def test_allows_up_to_the_limit_then_refuses_with_retry_after(made):
    limits, clock = made
    answers = []
    for _ in range(5):
        answers.append(await limits.hit("user:ann", 5, 300))
        clock.advance(10)
    assert [a.allowed for a in answers] == [True] * 5
    assert [a.remaining for a in answers] == [4, 3, 2, 1, 0]
    refused = await limits.hit("user:ann", 5, 300)
    assert refused == Decision(False, pytest.approx(250.0), 0)
    assert retry_seconds(refused) == 250
    # Refused attempts are not counted: the oldest leaves the window on time.
    clock.advance(250)
    assert (await limits.hit("user:ann", 5, 300)).allowed
    assert not (await limits.hit("user:ann", 5, 300)).allowed


async def test_keys_and_windows_are_separate(made):
    limits, clock = made
    for _ in range(2):
        assert (await limits.hit("a", 2, 60)).allowed
    assert not (await limits.hit("a", 2, 60)).allowed
    assert (await limits.hit("b", 2, 60)).allowed
    assert await limits.count("a", 60) == 2
    assert await limits.count("b", 60) == 1
    clock.advance(60)
    assert await limits.count("a", 60) == 0
    assert (await limits.hit("a", 2, 60)).allowed


async def test_concurrent_hits_never_pass_the_limit(made):
    limits, _ = made
    answers = await asyncio.gather(*(limits.hit("user:bob", 5, 300) for _ in range(40)))
    assert sum(a.allowed for a in answers) == 5
    assert await limits.count("user:bob", 300) == 5


async def test_give_back_uncounts_one_attempt(made):
    limits, _ = made
    first = await limits.hit("k", 2, 60)
    await limits.hit("k", 2, 60)
    assert not (await limits.hit("k", 2, 60)).allowed
    await limits.give_back("k", first.ticket)
    await limits.give_back("k", first.ticket)  # twice changes nothing more
    assert await limits.count("k", 60) == 1
    assert (await limits.hit("k", 2, 60)).allowed
    assert not (await limits.hit("k", 2, 60)).allowed


async def test_memory_forgets_keys_whose_window_passed():
    clock = FakeClock()
    limits = MemoryLimits(now=clock)
    for i in range(3000):
        await limits.hit(f"ip:{i}", 1, 10)
    clock.advance(11)
    for _ in range(1100):
        await limits.hit("one", 10_000, 10)
    assert len(limits) == 1  # only "one" is left


@needs_redis
async def test_two_processes_sharing_redis_share_the_counts():
    """Two clients (as two server processes would hold) draw from one count."""
    from euchre.limits.redis import RedisLimits

    assert REDIS_URL
    prefix = fresh_prefix()
    one = RedisLimits.from_url(REDIS_URL, prefix=prefix)
    two = RedisLimits.from_url(REDIS_URL, prefix=prefix)
    try:
        answers = await asyncio.gather(*(
            (one if i % 2 else two).hit("user:cat", 5, 300) for i in range(40)))
        assert sum(a.allowed for a in answers) == 5
        refused = await one.hit("user:cat", 5, 300)
        assert not refused.allowed and 299 <= retry_seconds(refused) <= 300
    finally:
        await one.close()
        await two.close()


async def test_open_limits_picks_by_url():
    from euchre.limits.redis import RedisLimits
    from euchre.server.core.redis_client import open_redis

    assert isinstance(open_limits(None), MemoryLimits)
    client = open_redis("redis://127.0.0.1:1/0")  # not connected until used
    assert isinstance(open_limits(client), RedisLimits)
    with pytest.raises(ValueError, match="not a Redis URL"):
        open_redis("http://example.invalid")


@needs_redis
def test_a_server_given_a_redis_url_keeps_its_limits_there() -> None:
    from starlette.testclient import TestClient

    from euchre.limits.redis import RedisLimits
    from euchre.server import Settings, create_app

    app = create_app(Settings(redis_url=REDIS_URL), [])
    with TestClient(app) as client:
        limits = root_of(app).limits
        assert isinstance(limits, RedisLimits)
        key = fresh_prefix() + "probe"
        assert client.portal.call(limits.hit, key, 1, 60).allowed
        assert client.portal.call(limits.count, key, 60) == 1
