"""A subscriber in its own process: ``python broker_subscriber.py URL PREFIX CHANNEL N``.

Subscribes, prints ``ready``, then prints the next N messages as one JSON list and exits
(status 2 if they do not come within a minute)."""

from __future__ import annotations

import asyncio
import json
import sys

from euchre.broker.redis import RedisBroker


async def main(url: str, prefix: str, channel: str, n: int) -> int:
    broker = RedisBroker(url, prefix=prefix, buffer=n + 1)
    await broker.connect()
    try:
        async with broker.subscribe(channel) as sub:
            print("ready", flush=True)

            async def read() -> list[str]:
                return [(await anext(sub)).decode() for _ in range(n)]

            try:
                got = await asyncio.wait_for(read(), 60)
            except TimeoutError:
                return 2
            print(json.dumps(got), flush=True)
            return 0
    finally:
        await broker.disconnect()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))))
