"""The site extension: broker and leases from ``Settings.redis_url``, the site lease
(one active process, standbys, fenced handover), and ``/readyz``; ``euchre serve``
refuses several workers with a one-line reason."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from euchre.broker import MemoryBroker
from euchre.cli.serve import settings_from_env, workers_refusal
from euchre.leases import MemoryLeases
from euchre.server import Extension, Settings, create_app
from euchre.server.practice_api import practice_extension
from euchre.server.site import site_extension
from euchre.storage import StaleFenceError
from redis_fixtures import REDIS_URL, needs_redis, private_redis

PG = "postgresql+asyncpg://u@db/euchre"


def site_only() -> list[Extension]:
    """The site extension and practice tables."""
    return [site_extension(), practice_extension()]


def app(**changes: object) -> TestClient:
    base: dict[str, object] = {"bot_delay": 0.0, "hand_pause": 0.0, "database_url": "memory:"}
    base.update(changes)
    return TestClient(create_app(Settings(**base), site_only()))  # type: ignore[arg-type]


def test_one_process_keeps_broker_and_leases_in_memory_and_is_ready():
    with app() as client:
        assert isinstance(client.app.state.broker, MemoryBroker)
        assert isinstance(client.app.state.leases, MemoryLeases)
        r = client.get("/readyz")
        assert r.status_code == 200
        assert r.json() == {"ready": True, "database": "memory", "saver": "ok", "solver": "ok",
                            "redis": "not used"}
    assert not client.app.state.broker.connected  # shut down with the app


def test_an_sql_database_is_checked(tmp_path: Path):
    with app(database_url=f"sqlite+aiosqlite:///{tmp_path}/s.db") as client:
        assert client.get("/readyz").json()["database"] == "ok"


@needs_redis
def test_with_a_redis_url_the_broker_and_leases_are_in_redis():
    from euchre.broker.redis import RedisBroker
    from euchre.leases.redis import RedisLeases

    with app(redis_url=REDIS_URL) as client:
        assert isinstance(client.app.state.broker, RedisBroker)
        assert isinstance(client.app.state.leases, RedisLeases)
        r = client.get("/readyz")
        assert r.status_code == 200 and r.json()["redis"] == "ok"


def _site_settings(db: Path, redis_url: str, **changes: object) -> Settings:
    base: dict[str, object] = {"bot_delay": 0.0, "hand_pause": 0.0, "lease_ttl": 0.6,
                               "database_url": f"sqlite+aiosqlite:///{db}", "redis_url": redis_url}
    base.update(changes)
    return Settings(**base)  # type: ignore[arg-type]


def test_losing_redis_loses_the_site_lease_stops_the_tables_and_shuts_down(tmp_path: Path):
    with private_redis() as (url, redis_server):
        application = create_app(_site_settings(tmp_path / "s.db", url), site_only())
        lost = threading.Event()
        application.state.site_lost_hook = lost.set  # instead of SIGTERM to this process
        with TestClient(application) as client:
            assert client.get("/readyz").json() == {
                "ready": True, "database": "ok", "saver": "ok", "solver": "ok", "redis": "ok",
                "site_lease": "held"}
            table = client.post("/api/tables", json={"kind": "practice"}).json()
            manager = application.state.manager
            assert len(manager) == 1 and manager.guard()
            redis_server.kill()
            assert lost.wait(30)
            assert not manager.guard()
            assert len(manager) == 0  # every table stopped
            r = client.get("/readyz")
            assert r.status_code == 503
            assert r.json() == {"ready": False, "database": "ok", "saver": "ok", "solver": "ok",
                                "redis": "unavailable: BrokerUnavailable", "site_lease": "lost"}
            stored = client.get(f"/api/tables/{table['id']}",
                                params={"token": table["token"]})
            assert stored.status_code == 200  # reading still works


@needs_redis
def test_a_standby_takes_over_the_site_with_a_higher_fence_and_fences_out_the_old(tmp_path):
    assert REDIS_URL
    db = tmp_path / "s.db"
    first = TestClient(create_app(_site_settings(db, REDIS_URL), site_only()))
    first.__enter__()
    try:
        table = first.post("/api/tables", json={"kind": "practice"}).json()
        keeper = first.app.state.site_keeper
        assert keeper.fence >= 1
        second_app = create_app(_site_settings(db, REDIS_URL), site_only())
        started, stop = threading.Event(), threading.Event()

        def run_second() -> None:
            with TestClient(second_app):
                started.set()
                stop.wait(60)

        thread = threading.Thread(target=run_second)
        thread.start()
        # The first process renews its lease twice while the second waits as a standby.
        for _ in range(2):
            renewed = keeper.valid_until
            while keeper.valid_until == renewed:
                time.sleep(0.05)
        assert not started.is_set()
    finally:
        first.__exit__(None, None, None)  # gives the lease up
    try:
        assert started.wait(30)
        second = second_app.state.site_keeper
        assert second.fence > keeper.fence
        manager = second_app.state.manager
        assert manager.store is manager.retirement.store is second_app.state.store
        assert second_app.state.store.fence == second.fence
        # Claimed at take-over; a practice table then waits in storage until asked for.
        assert table["id"] in manager.retirement.dormant

        async def old_owner_writes() -> None:
            from euchre.storage.fenced import FencedStore
            from euchre.storage.sql import SqlStore

            store = await SqlStore.open(f"sqlite+aiosqlite:///{db}", run_migrations=False)
            try:
                game = await store.get(table["id"])
                assert game is not None and game.fence == second.fence  # claimed
                with pytest.raises(StaleFenceError):
                    await FencedStore(store, keeper.fence).save(game)
            finally:
                await store.close()

        asyncio.run(old_owner_writes())
    finally:
        stop.set()
        thread.join(60)


@pytest.mark.parametrize(("workers", "db", "redis", "says"), [
    (0, PG, None, "--workers must be at least 1, not 0"),
    (2, PG, None, "--workers 2 needs --redis-url (or $EUCHRE_REDIS_URL)"),
    (3, "sqlite+aiosqlite:///x.db", "redis://r", "--workers 3 needs a PostgreSQL --database-url"),
    (2, "memory:", "redis://r", "needs a PostgreSQL"),
    (2, PG, "redis://r", "--workers 2 is not available yet: tables do not run under leases"),
    (2, "postgres://u@db/x", "redis://r", "needs a PostgreSQL"),
])
def test_several_workers_are_refused_with_a_reason(workers, db, redis, says):
    refusal = workers_refusal(workers, db, redis)
    assert refusal is not None and says in refusal and "\n" not in refusal


def test_one_worker_needs_nothing_and_ownership_would_allow_several():
    assert workers_refusal(1, "sqlite+aiosqlite:///x.db", None) is None
    assert workers_refusal(4, PG, "redis://r", table_ownership=True) is None


def test_euchre_serve_refuses_several_workers_before_starting(tmp_path: Path):
    exe = Path(sys.executable).with_name("euchre")
    done = subprocess.run([str(exe), "serve", "--workers", "2", "--database-url",
                           f"sqlite+aiosqlite:///{tmp_path}/x.db"],
                          capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "euchre serve: --workers 2 needs --redis-url (or $EUCHRE_REDIS_URL): the processes "
        "share table ownership and socket relays through Redis"]
    assert not (tmp_path / "x.db").exists()


def test_worker_settings_come_from_the_environment():
    s = settings_from_env({"EUCHRE_DATABASE_URL": PG, "EUCHRE_REDIS_URL": "redis://r:1/0",
                           "EUCHRE_BOT_DELAY": "0.5", "EUCHRE_HAND_PAUSE": "1"})
    assert (s.database_url, s.redis_url, s.bot_delay, s.hand_pause) == (
        PG, "redis://r:1/0", 0.5, 1.0)
    assert settings_from_env({"EUCHRE_DATABASE_URL": PG}).redis_url is None
