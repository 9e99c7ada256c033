"""The fair queue: round robin across people, one job per person, the same ask coalesced,
a bounded line that a person served long ago can still enter. Jobs are futures the test
resolves, so order is asserted, never time."""

from __future__ import annotations

import asyncio

import pytest

from euchre.limits.fair import FairQueue, QueueFull


class Jobs:
    """Jobs that finish when the test says so; records who started."""

    def __init__(self) -> None:
        self.gates: dict[str, asyncio.Event] = {}

    def job(self, name: str) -> object:
        gate = self.gates.setdefault(name, asyncio.Event())

        async def work() -> str:
            await gate.wait()
            return name

        return work

    def finish(self, name: str) -> None:
        self.gates[name].set()


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def test_the_next_to_start_is_the_person_served_longest_ago() -> None:
    queue: FairQueue[str] = FairQueue(concurrent=1, waiting=10)
    jobs = Jobs()
    tasks = [asyncio.create_task(queue.run("a", "a1", jobs.job("a1")))]  # type: ignore[arg-type]
    await settle()
    for person in ("b", "c"):
        tasks.append(asyncio.create_task(queue.run(person, f"{person}1",
                                                   jobs.job(f"{person}1"))))  # type: ignore[arg-type]
    await settle()
    jobs.finish("a1")
    assert await tasks[0] == "a1"
    # a asks again at once, then d for the first time: b and c (never served, first in
    # line) go first, then d (never served) before a's second ask, though d asked later.
    tasks.append(asyncio.create_task(queue.run("a", "a2", jobs.job("a2"))))  # type: ignore[arg-type]
    await settle()
    tasks.append(asyncio.create_task(queue.run("d", "d1", jobs.job("d1"))))  # type: ignore[arg-type]
    await settle()
    for name in ("b1", "c1", "d1", "a2"):
        assert queue.started[-1] == name[0]
        jobs.finish(name)
        await settle()
    assert queue.started == ["a", "b", "c", "d", "a"]  # d before a's second, though later
    assert [t.result() for t in tasks] == ["a1", "b1", "c1", "a2", "d1"]


async def test_one_job_per_person_the_same_ask_coalesced() -> None:
    queue: FairQueue[str] = FairQueue(concurrent=1, waiting=10)
    jobs = Jobs()
    first = asyncio.create_task(queue.run("a", "seat", jobs.job("x")))  # type: ignore[arg-type]
    await settle()
    again = asyncio.create_task(queue.run("a", "seat", jobs.job("y")))  # type: ignore[arg-type]
    with pytest.raises(QueueFull) as other:
        await queue.run("a", "another seat", jobs.job("z"))  # type: ignore[arg-type]
    assert other.value.own
    jobs.finish("x")
    assert await first == "x" and await again == "x"  # one job, two answers
    assert queue.started == ["a"] and not queue.holds("a")


async def test_a_full_line_lets_in_someone_served_longer_ago() -> None:
    queue: FairQueue[str] = FairQueue(concurrent=1, waiting=2)
    jobs = Jobs()
    left: list[str] = []
    running = asyncio.create_task(queue.run("a", 1, jobs.job("a")))  # type: ignore[arg-type]
    await settle()
    jobs.finish("a")
    await running  # a has been served
    running = asyncio.create_task(queue.run("b", 1, jobs.job("b")))  # type: ignore[arg-type]
    await settle()
    waiting = [asyncio.create_task(queue.run(p, 1, jobs.job(p + "2"),  # type: ignore[arg-type]
                                             lambda p=p: left.append(p)))  # type: ignore[misc]
               for p in ("a", "c")]
    await settle()
    # The line is a (served) and c (never): e, never served, takes a's place.
    e = asyncio.create_task(queue.run("e", 1, jobs.job("e")))  # type: ignore[arg-type]
    await settle()
    with pytest.raises(QueueFull) as put_out:
        await waiting[0]
    assert not put_out.value.own and left == ["a"] and not queue.holds("a")
    # Now c and e, neither served, came before f: f is refused.
    with pytest.raises(QueueFull) as full:
        await queue.run("f", 1, jobs.job("f"))  # type: ignore[arg-type]
    assert not full.value.own
    for name in ("b", "c2", "e"):
        jobs.finish(name)
        await settle()
    assert await e == "e" and await waiting[1] == "c2"
    assert queue.started == ["a", "b", "c", "e"] and left == ["a", "c"]


async def test_an_ask_nobody_waits_for_leaves_the_line() -> None:
    queue: FairQueue[str] = FairQueue(concurrent=1, waiting=5)
    jobs = Jobs()
    left: list[str] = []
    running = asyncio.create_task(queue.run("a", 1, jobs.job("a")))  # type: ignore[arg-type]
    await settle()
    gone = asyncio.create_task(queue.run("b", 1, jobs.job("b"),  # type: ignore[arg-type]
                                         lambda: left.append("b")))
    await settle()
    assert queue.queued() == 1
    gone.cancel()
    await settle()
    assert queue.queued() == 0 and left == ["b"] and not queue.holds("b")
    jobs.finish("a")
    assert await running == "a" and queue.started == ["a"]


async def test_a_jobs_error_reaches_every_waiter_and_frees_the_place() -> None:
    queue: FairQueue[str] = FairQueue(concurrent=1, waiting=5)

    async def broken() -> str:
        raise ValueError("no")

    with pytest.raises(ValueError):
        await queue.run("a", 1, broken)
    assert not queue.holds("a") and queue.running() == 0
