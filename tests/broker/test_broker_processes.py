"""Real processes on real Redis: two subscriber processes see every message of two
publishers (two event loops), each publisher's in its order, and both the same order."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from pathlib import Path

from euchre.broker.redis import RedisBroker
from redis_fixtures import REDIS_URL, fresh_prefix, needs_redis

SUBSCRIBER = Path(__file__).with_name("broker_subscriber.py")
PER_PUBLISHER = 400


async def _publish(prefix: str, tag: str) -> None:
    assert REDIS_URL
    broker = RedisBroker(REDIS_URL, prefix=prefix)
    await broker.connect()
    try:
        for i in range(0, PER_PUBLISHER, 50):
            # Fifty at a time without waiting in between: call order is send order.
            await asyncio.gather(*(broker.publish("table:1", f"{tag}{j}")
                                   for j in range(i, i + 50)))
    finally:
        await broker.disconnect()


@needs_redis
def test_two_subscriber_processes_receive_two_publishers_in_order():
    assert REDIS_URL
    prefix = fresh_prefix()
    total = 2 * PER_PUBLISHER
    subscribers = [
        subprocess.Popen([sys.executable, str(SUBSCRIBER), REDIS_URL, prefix, "table:1",
                          str(total)], stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    try:
        for proc in subscribers:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "ready"
        # One publisher in this thread's event loop, one in another thread's.
        other = threading.Thread(target=asyncio.run, args=(_publish(prefix, "b"),))
        other.start()
        asyncio.run(_publish(prefix, "a"))
        other.join(60)
        results = []
        for proc in subscribers:
            out, _ = proc.communicate(timeout=60)
            assert proc.returncode == 0
            results.append(json.loads(out))
    finally:
        for proc in subscribers:
            if proc.poll() is None:
                proc.kill()
    first, second = results
    assert len(first) == total
    assert first == second  # Redis gives every subscriber the same order
    for tag in "ab":
        assert [m for m in first if m[0] == tag] == [f"{tag}{i}" for i in range(PER_PUBLISHER)]
