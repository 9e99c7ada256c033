"""Sign-in and sign-up limits under concurrency: an attempt counts when it starts, so a
burst cannot get more password checks than the limit, in one process or in two sharing Redis."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_helpers import app_for
from starlette.applications import Starlette

from euchre.limits import Limits, MemoryLimits
from euchre.server import Given
from euchre.server.root import root_of
from limits_helpers import REDIS_URL, fresh_prefix, needs_redis


def _limits(kind: str, prefix: str) -> Limits:
    if kind == "memory":
        return MemoryLimits()
    from euchre.limits.redis import RedisLimits

    assert REDIS_URL
    return RedisLimits.from_url(REDIS_URL, prefix=prefix)


@contextlib.asynccontextmanager
async def running(app: Starlette) -> AsyncIterator[httpx.AsyncClient]:
    """The app started (its lifespan) with an HTTP client on it."""
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            yield client


def count_checks(app: Starlette, checks: list[str]) -> None:
    """Count the app's password checks; each takes a moment, so a burst overlaps."""
    passwords = root_of(app).accounts.accounts.passwords
    real = passwords.verify

    async def verify(encoded: str, password: str) -> bool:
        checks.append(password)
        await asyncio.sleep(0.02)
        result: bool = await real(encoded, password)
        return result

    passwords.verify = verify


async def sign_in(client: httpx.AsyncClient, password: str) -> httpx.Response:
    return await client.post("/api/session", json={"username": "victim", "password": password})


@pytest.mark.parametrize("kind", ["memory", pytest.param("redis", marks=needs_redis)])
async def test_a_burst_of_guesses_gets_five_checks_and_no_sign_in(kind: str, tmp_path: Path
                                                                 ) -> None:
    app = app_for(f"sqlite+aiosqlite:///{tmp_path}/burst.db",
                  given=Given(limits=_limits(kind, fresh_prefix())))
    async with running(app) as client:
        r = await client.post("/api/accounts", json={"username": "victim",
                                                     "password": "correct horse"})
        assert r.status_code == 201
        client.cookies.clear()
        checks: list[str] = []
        count_checks(app, checks)
        answers = await asyncio.gather(*(sign_in(client, f"guess {i}") for i in range(40)))
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [401] * 5 + [429] * 35
        assert len(checks) == 5
        for a in answers:
            if a.status_code == 429:
                assert int(a.headers["retry-after"]) > 0 and a.json()["error"]
        # A second burst with the right password last: nothing more is checked or signed in.
        burst = [*(f"again {i}" for i in range(29)), "correct horse"]
        answers = await asyncio.gather(*(sign_in(client, p) for p in burst))
        assert {a.status_code for a in answers} == {429}
        assert len(checks) == 5
        assert all("set-cookie" not in a.headers for a in answers)


@needs_redis
async def test_two_servers_sharing_redis_share_the_sign_in_limit(tmp_path: Path) -> None:
    """Two app instances (as two processes would be) on one database and one Redis."""
    url = f"sqlite+aiosqlite:///{tmp_path}/shared.db"
    prefix = fresh_prefix()
    apps = [app_for(url, given=Given(limits=_limits("redis", prefix))) for _ in range(2)]
    async with running(apps[0]) as one, running(apps[1]) as two:
        r = await one.post("/api/accounts", json={"username": "victim",
                                                  "password": "correct horse"})
        assert r.status_code == 201
        one.cookies.clear()
        checks: list[str] = []
        for app in apps:
            count_checks(app, checks)
        answers: list[Any] = await asyncio.gather(*(
            sign_in(one if i % 2 else two, f"guess {i}") for i in range(40)))
        assert sum(a.status_code == 401 for a in answers) == 5
        assert sum(a.status_code == 429 for a in answers) == 35
        assert len(checks) == 5
        assert (await sign_in(two, "correct horse")).status_code == 429
        assert (await sign_in(one, "correct horse")).status_code == 429


async def test_parallel_sign_ups_from_one_address_stop_at_the_limit(tmp_path: Path) -> None:
    app = app_for(f"sqlite+aiosqlite:///{tmp_path}/signups.db")
    async with running(app) as client:
        answers = await asyncio.gather(*(
            client.post("/api/accounts", json={"username": f"farm{i}", "password":
                                               "correct horse"}) for i in range(60)))
        assert sorted(a.status_code for a in answers) == [201] * 20 + [429] * 40
        ledger = root_of(app).accounts.coins.ledger
        assert await ledger.totals() == (20000, 20000)
