"""The broker interface: the same tests on the memory broker and on real Redis."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from euchre.broker import (
    Broker,
    BrokerUnavailable,
    MemoryBroker,
    Subscription,
    SubscriptionOverflow,
    open_broker,
)
from redis_fixtures import REDIS_URL, fresh_prefix, needs_redis


def make(kind: str, prefix: str, buffer: int = 1000) -> Broker:
    """A broker of ``kind`` (not connected)."""
    if kind == "memory":
        return MemoryBroker(buffer)
    from euchre.broker.redis import RedisBroker

    assert REDIS_URL
    return RedisBroker(REDIS_URL, prefix=prefix, buffer=buffer)


@pytest.fixture(params=["memory", pytest.param("redis", marks=needs_redis)])
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def broker(kind: str) -> AsyncIterator[Broker]:
    b = make(kind, fresh_prefix())
    await b.connect()
    yield b
    await b.disconnect()


async def take(sub: Subscription, n: int) -> list[bytes]:
    """The next ``n`` messages (failing the test if they do not come)."""
    async def read() -> list[bytes]:
        return [await anext(sub) for _ in range(n)]
    return await asyncio.wait_for(read(), 10)


async def test_subscribers_get_what_is_published_after_they_subscribed_in_order(broker):
    await broker.publish("t1", b"before anyone listens")
    async with broker.subscribe("t1") as a, broker.subscribe("t1") as b, \
            broker.subscribe("t2") as other:
        assert broker.subscribers("t1") == 2
        for i in range(200):
            await broker.publish("t1", f"m{i}")
        await broker.publish("t2", b"\x00binary\xff")
        expected = [f"m{i}".encode() for i in range(200)]
        assert await take(a, 200) == expected
        assert await take(b, 200) == expected
        assert await take(other, 1) == [b"\x00binary\xff"]
    assert broker.subscribers("t1") == 0
    assert a.ended


async def test_publishes_started_together_arrive_in_call_order(broker):
    async with broker.subscribe("t") as sub:
        await asyncio.gather(*(broker.publish("t", str(i)) for i in range(300)))
        assert await take(sub, 300) == [str(i).encode() for i in range(300)]


async def test_leaving_the_block_ends_the_iteration(broker):
    got = []
    async with broker.subscribe("t") as sub:
        await broker.publish("t", "one")
        await broker.publish("t", "two")
        got.append(await anext(sub))
        for _ in range(500):  # Redis delivers "two" on its own connection: wait for it
            if sub.pending:
                break
            await asyncio.sleep(0.01)
    got += [m async for m in sub]  # what was buffered, then the end
    assert got == [b"one", b"two"]


async def test_a_subscriber_that_falls_behind_is_ended_with_an_overflow(kind):
    broker = make(kind, fresh_prefix(), buffer=5)
    await broker.connect()
    try:
        async with broker.subscribe("t") as slow, broker.subscribe("t") as fast:
            reader = asyncio.ensure_future(take(fast, 10))
            for i in range(10):
                await broker.publish("t", str(i))
                await asyncio.sleep(0)  # the fast reader keeps up
            assert await reader == [str(i).encode() for i in range(10)]
            got = []
            with pytest.raises(SubscriptionOverflow, match="5 messages behind"):
                async for message in slow:
                    got.append(message)
            assert got == [str(i).encode() for i in range(5)]
    finally:
        await broker.disconnect()


async def test_disconnect_ends_subscriptions_and_refuses_publishing(kind):
    broker = make(kind, fresh_prefix())
    with pytest.raises(BrokerUnavailable):
        await broker.publish("t", "x")
    await broker.connect()
    await broker.connect()  # harmless
    await broker.ping()
    async with broker.subscribe("t") as sub:
        await broker.disconnect()
        assert [m async for m in sub] == []
        with pytest.raises(BrokerUnavailable):
            await broker.publish("t", "x")
        with pytest.raises(BrokerUnavailable):
            await broker.ping()
    await broker.connect()  # and back
    async with broker.subscribe("t") as sub:
        await broker.publish("t", "again")
        assert await take(sub, 1) == [b"again"]
    await broker.disconnect()


async def test_a_channel_needs_a_name(broker):
    with pytest.raises(ValueError, match="needs a name"):
        async with broker.subscribe(""):
            pass


def test_open_broker_picks_the_implementation():
    from euchre.broker.redis import RedisBroker
    from euchre.server.core.redis_client import open_redis

    assert isinstance(open_broker(None), MemoryBroker)
    client = open_redis("redis://127.0.0.1:1/0")  # not connected until used
    assert isinstance(open_broker(client), RedisBroker)
    with pytest.raises(ValueError, match="not a Redis URL"):
        open_redis("http://x")


@needs_redis
async def test_two_brokers_are_two_processes_sharing_channels():
    prefix = fresh_prefix()
    a, b = make("redis", prefix), make("redis", prefix)
    await a.connect()
    await b.connect()
    try:
        # Two local subscribers subscribing at once both wait for Redis's confirmation.
        async with asyncio.TaskGroup() as tg:
            first = tg.create_task(_subscribe_and_take(b, "t", 50))
            second = tg.create_task(_subscribe_and_take(b, "t", 50))
            await asyncio.sleep(0)
            while b.subscribers("t") < 2:
                await asyncio.sleep(0.01)
            await a.ping()
            await b.ping()
            for i in range(50):
                await a.publish("t", str(i))
        assert first.result() == second.result() == [str(i).encode() for i in range(50)]
    finally:
        await a.disconnect()
        await b.disconnect()


async def _subscribe_and_take(broker: Broker, channel: str, n: int) -> list[bytes]:
    async with broker.subscribe(channel) as sub:
        return await take(sub, n)


@needs_redis
async def test_a_killed_pubsub_connection_ends_subscriptions_and_the_broker_reconnects():
    from redis.asyncio import Redis

    prefix = fresh_prefix()
    broker = make("redis", prefix)
    await broker.connect()
    admin = Redis.from_url(REDIS_URL)
    try:
        async with broker.subscribe("t") as sub:
            await broker.publish("t", "before")
            assert await take(sub, 1) == [b"before"]
            killed = 0
            for client in await admin.client_list(_type="pubsub"):
                if client["name"] == broker.name:
                    await admin.client_kill_filter(_id=client["id"])
                    killed += 1
            assert killed == 1
            with pytest.raises(BrokerUnavailable, match="lost the Redis pub/sub connection"):
                await take(sub, 1)
        async with broker.subscribe("t") as sub:  # connects again by itself
            await broker.publish("t", "after")
            assert await take(sub, 1) == [b"after"]
        await broker.ping()
    finally:
        await broker.disconnect()
        await admin.aclose()


async def test_an_unreachable_redis_is_a_clear_error():
    from euchre.broker.redis import RedisBroker

    broker = RedisBroker("redis://127.0.0.1:1/0")
    with pytest.raises(BrokerUnavailable, match="cannot reach Redis"):
        await broker.connect()
    with pytest.raises(BrokerUnavailable):
        await broker.publish("t", "x")
    await broker.disconnect()
