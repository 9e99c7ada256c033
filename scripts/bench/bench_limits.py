"""The Redis limits' cost per hit: this project's Lua script, and (when the ``limits``
package is installed) that library's moving window for comparison, on the same Redis.

Usage: python scripts/bench/bench_limits.py [--redis-url redis://127.0.0.1:6390/0] [--hits 4000]
(scripts/start-redis prints a URL.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import time

from euchre.limits.redis import MAX_CONNECTIONS, RedisLimits


async def ours(url: str, hits: int) -> str:
    limits = RedisLimits.from_url(url, prefix=f"bench:{secrets.token_hex(4)}:")
    try:
        t = time.perf_counter()
        for i in range(hits):
            await limits.hit(f"k{i % 50}", 5, 300)
        one_by_one = (time.perf_counter() - t) / hits
        t = time.perf_counter()
        answers = await asyncio.gather(*(limits.hit("burst", 5, 300) for _ in range(hits)))
        at_once = (time.perf_counter() - t) / hits
    finally:
        await limits.close()
    allowed = sum(a.allowed for a in answers)
    return (f"Lua script: {one_by_one * 1e6:.0f} us/hit one by one; {hits} at once "
            f"{at_once * 1e6:.0f} us/hit, {allowed} allowed of a limit of 5")


async def library(url: str, hits: int) -> str:
    try:
        from limits import parse
        from limits.aio.storage import RedisStorage
        from limits.aio.strategies import MovingWindowRateLimiter
    except ImportError:
        return "the limits package is not installed: no comparison"
    from redis.asyncio import BlockingConnectionPool

    pool = BlockingConnectionPool.from_url(url, max_connections=MAX_CONNECTIONS, timeout=10)
    storage = RedisStorage("async+" + url, implementation="redispy", connection_pool=pool)
    limiter = MovingWindowRateLimiter(storage)
    item = parse("5/5 minutes")
    space = secrets.token_hex(4)
    t = time.perf_counter()
    for i in range(hits):
        if not await limiter.hit(item, space, f"k{i % 50}"):
            await limiter.get_window_stats(item, space, f"k{i % 50}")  # for Retry-After
    one_by_one = (time.perf_counter() - t) / hits
    t = time.perf_counter()
    answers = await asyncio.gather(*(limiter.hit(item, space, "burst") for _ in range(hits)))
    at_once = (time.perf_counter() - t) / hits
    return (f"limits MovingWindowRateLimiter: {one_by_one * 1e6:.0f} us/hit one by one "
            f"(with the window's reset when refused); {hits} at once {at_once * 1e6:.0f} "
            f"us/hit, {sum(answers)} allowed")


def main() -> int:
    """Print one line per implementation."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--redis-url", default=os.environ.get("EUCHRE_TEST_REDIS_URL")
                        or "redis://127.0.0.1:6390/0")
    parser.add_argument("--hits", type=int, default=4000)
    args = parser.parse_args()
    print(asyncio.run(ours(args.redis_url, args.hits)))
    print(asyncio.run(library(args.redis_url, args.hits)))
    print(f"machine load average (1 min): {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
