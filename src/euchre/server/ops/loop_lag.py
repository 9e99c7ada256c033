"""How late the event loop runs what is due: a timer every ``every`` seconds, and how much
later than asked it fired. A move waits for the loop like that timer does, so the lag is the
part of a move's latency that is the loop being busy (or the process not getting a core),
measured inside the server, where a benchmark's client on the same machine cannot add its own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

EVERY = 0.1
"""Seconds between two looks: 10 timers a second. Each look wakes a quiet loop (at 25 ms
they were 40 of an idle process's 50 wakeups a second, about half its CPU); a busy
loop's lag is sampled as well at 10 a second."""


async def watch_loop_lag(observe: Callable[[float], None], every: float = EVERY,
                         clock: Callable[[], float] = time.perf_counter,
                         sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> None:
    """Until cancelled: sleep ``every`` seconds and ``observe`` how many seconds later than
    that the loop woke this task (never negative)."""
    while True:
        asked = clock() + every
        await sleep(every)
        observe(max(0.0, clock() - asked))
