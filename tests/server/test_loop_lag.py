"""The event loop's lag, watched on a fake clock, and served in ``/metrics``."""

from __future__ import annotations

import asyncio

import pytest
from starlette.testclient import TestClient

from euchre.server import Settings, create_app
from euchre.server.ops.loop_lag import watch_loop_lag
from euchre.server.ops.metrics import Metrics


class LateClock:
    """A clock that each sleep moves on by the time asked plus the next of ``late``."""

    def __init__(self, late: list[float]) -> None:
        self.now = 100.0
        self.late = late
        self.asked: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        if not self.late:
            raise asyncio.CancelledError  # the site stops the watcher by cancelling it
        self.now += seconds + self.late.pop(0)


async def test_each_wake_is_observed_as_how_late_it_came() -> None:
    fake = LateClock([0.0, 0.004, 0.120, 0.0])
    seen: list[float] = []
    with pytest.raises(asyncio.CancelledError):
        await watch_loop_lag(seen.append, every=0.025, clock=fake.clock, sleep=fake.sleep)
    assert seen == pytest.approx([0.0, 0.004, 0.120, 0.0])
    assert fake.asked == [0.025] * 5


async def test_a_clock_that_wakes_early_counts_as_no_lag() -> None:
    fake = LateClock([-0.001])
    seen: list[float] = []
    with pytest.raises(asyncio.CancelledError):
        await watch_loop_lag(seen.append, clock=fake.clock, sleep=fake.sleep)
    assert seen == [0.0]


def test_the_lag_is_a_histogram_in_the_metrics() -> None:
    metrics = Metrics()
    metrics.loop_lagged(0.003)
    metrics.loop_lagged(0.070)
    text = metrics.render().decode()
    assert 'euchre_loop_lag_seconds_bucket{le="0.005"} 1.0' in text
    assert 'euchre_loop_lag_seconds_bucket{le="0.1"} 2.0' in text
    assert "euchre_loop_lag_seconds_count 2.0" in text


def test_a_running_site_watches_its_loop() -> None:
    app = create_app(Settings(database_url="memory:", metrics_token="scrape-me"))
    with TestClient(app) as client:
        def looks() -> float:
            text = client.get("/metrics", headers={"Authorization": "Bearer scrape-me"}).text
            line = next(x for x in text.splitlines()
                        if x.startswith("euchre_loop_lag_seconds_count"))
            return float(line.split()[1])

        # Each request is a round of the loop; the watcher's timers come due meanwhile.
        for _ in range(20_000):
            if looks() >= 2:
                break
        assert looks() >= 2
