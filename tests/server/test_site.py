"""The site extension: broker and leases from ``Settings.redis_url``, tables under leases
of their own (Redis down and back), a socket relayed to the table's owner, and
``/readyz``; ``euchre serve`` refuses several workers without Redis and PostgreSQL."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from euchre.broker import MemoryBroker
from euchre.cli.serve import settings_from_env, workers_refusal
from euchre.leases import LeaseClock, MemoryLeases
from euchre.server import Extension, Settings, create_app
from euchre.server.root import root_of, site_extension
from euchre.server.tables.practice_api import practice_extension
from redis_fixtures import REDIS_URL, TimerClock, needs_redis, private_redis

PG = "postgresql+asyncpg://u@db/euchre"

KEPT = 30.0
"""Seconds of a lease the test never waits out: a renewal or relay beat late on a busy
machine (over a second at load 20-30) never loses a table the test still plays (a 2 s lease
once stopped the relayed table before its first join: ``table_stopped``)."""



@pytest.fixture
def own_redis() -> Iterator[str]:
    """A Redis of the test's own: the site's rate limits count from nothing, whatever
    other tests (other pytest-xdist workers, other people's runs) did on the shared one."""
    with private_redis() as (url, _):
        yield url

def site_only() -> list[Extension]:
    """The site extension and practice tables."""
    return [site_extension(), practice_extension()]


def app(**changes: object) -> TestClient:
    base: dict[str, object] = {"bot_delay": 0.0, "hand_pause": 0.0, "database_url": "memory:"}
    base.update(changes)
    return TestClient(create_app(Settings(**base), site_only()))  # type: ignore[arg-type]


def test_one_process_keeps_broker_and_leases_in_memory_and_is_ready():
    with app() as client:
        assert isinstance(root_of(client.app).broker, MemoryBroker)
        assert isinstance(root_of(client.app).leases, MemoryLeases)
        r = client.get("/readyz")
        assert r.status_code == 200
        assert r.json() == {"ready": True, "database": "memory", "saver": "ok", "solver": "ok",
                            "redis": "not used"}
    assert not root_of(client.app).broker.connected  # shut down with the app


def test_an_sql_database_is_checked(tmp_path: Path):
    with app(database_url=f"sqlite+aiosqlite:///{tmp_path}/s.db") as client:
        assert client.get("/readyz").json()["database"] == "ok"


@needs_redis
def test_with_a_redis_url_the_broker_and_leases_are_in_redis():
    from euchre.broker.redis import RedisBroker
    from euchre.leases.redis import RedisLeases

    with app(redis_url=REDIS_URL) as client:
        assert isinstance(root_of(client.app).broker, RedisBroker)
        assert isinstance(root_of(client.app).leases, RedisLeases)
        r = client.get("/readyz")
        assert r.status_code == 200 and r.json()["redis"] == "ok"


def _site_settings(db: Path, redis_url: str, **changes: object) -> Settings:
    base: dict[str, object] = {"bot_delay": 0.0, "hand_pause": 0.0, "lease_ttl": 0.6,
                               "database_url": f"sqlite+aiosqlite:///{db}", "redis_url": redis_url}
    base.update(changes)
    return Settings(**base)  # type: ignore[arg-type]


def _restart_redis(url: str) -> subprocess.Popen[bytes]:
    """A fresh redis-server on the port of ``url`` (its data gone, as after a crash)."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    proc = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return proc
        time.sleep(0.02)
    proc.kill()
    pytest.fail("redis-server did not start again")


def _until(check: Callable[[], bool], what: str, tries: int = 600) -> None:
    """Poll ``check`` (bounded, never a time assertion)."""
    for _ in range(tries):
        if check():
            return
        time.sleep(0.05)
    pytest.fail(f"never: {what}")


def test_redis_down_refuses_new_tables_stops_live_ones_and_they_carry_on_after(
        tmp_path: Path):
    clock = TimerClock()  # the leases' clock: the test runs the lease out, not the wall
    with private_redis() as (url, redis_server):
        application = create_app(_site_settings(
            tmp_path / "s.db", url, lease_ttl=KEPT,
            lease_clock=LeaseClock(now=clock, sleep=clock.sleep)), site_only())
        again: subprocess.Popen[bytes] | None = None
        try:
            with TestClient(application) as client:
                assert client.get("/readyz").json() == {
                    "ready": True, "database": "ok", "saver": "ok", "solver": "ok",
                    "redis": "ok", "relays": "ok"}
                table = client.post("/api/tables", json={"kind": "practice"}).json()
                manager = root_of(application).manager
                owners = root_of(application).owners
                assert len(manager) == 1 and table["id"] in owners.held
                with client.websocket_connect(table["ws"]) as ws:
                    ws.send_json({"type": "join", "protocol": 2, "token": table["token"]})
                    joined = ws.receive_json()
                    assert joined["type"] == "joined"
                    redis_server.kill()
                    redis_server.wait()
                    # New tables: refused with a clear 503, nothing opened.
                    r = client.post("/api/tables", json={"kind": "practice"})
                    assert r.status_code == 503
                    assert r.json()["code"] in ("unavailable", "limits_unavailable")
                    assert "try again" in r.json()["error"]
                    # Renewals fail, but the lease has time left: the table plays on.
                    assert client.portal is not None
                    for _ in range(2):
                        assert client.portal.call(clock.tick) == pytest.approx(KEPT / 3)
                    client.portal.call(clock.sleeping)  # the second failure settled
                    assert len(manager) == 1 and table["id"] in owners.held
                    # The live table stops once its lease would have run out; the socket
                    # is closed with the reason, so its client reconnects.
                    client.portal.call(clock.tick)  # to the lease's end, less the margin
                    _until(lambda: len(manager) == 0, "the table stopped")
                    with pytest.raises(WebSocketDisconnect) as closed:
                        while True:
                            ws.receive_json()
                    assert closed.value.code == 1012
                    assert "lease" in closed.value.reason
                r = client.get("/readyz")
                assert r.status_code == 503 and r.json()["redis"].startswith("unavailable")
                # Reconnecting while Redis is down: told to try again, nothing taken.
                with client.websocket_connect(table["ws"]) as ws:
                    m = ws.receive_json()
                    assert m["type"] == "error" and m["code"] == "unavailable"
                assert len(manager) == 0
                # Redis is back (empty): the table is taken again and plays on.
                again = _restart_redis(url)
                _until(lambda: client.post("/api/tables", json={"kind": "practice"})
                       .status_code == 201, "new tables are opened again")
                with client.websocket_connect(table["ws"]) as ws:
                    ws.send_json({"type": "join", "protocol": 2, "token": table["token"],
                                  "since": joined["version"]})
                    assert ws.receive_json()["type"] == "joined"
                    assert table["id"] in owners.held
                    assert owners.held[table["id"]].fence >= 2  # above the stored fence
        finally:
            if again is not None:
                again.kill()
                again.wait()


@needs_redis
def test_relayed_sockets_are_watched_together_and_closed_when_their_table_moves(
        tmp_path: Path, own_redis: str):
    from euchre.server.tables.relay import MOVED

    db = tmp_path / "s.db"
    first = TestClient(create_app(_site_settings(db, own_redis, lease_ttl=KEPT), site_only()))
    second = TestClient(create_app(_site_settings(db, own_redis, lease_ttl=KEPT), site_only()))
    with second, first:
        tables = [first.post("/api/tables", json={"kind": "practice"}).json() for _ in range(2)]
        with contextlib.ExitStack() as stack:
            relayed = []
            for table in tables:  # a person at the owner keeps each table there
                there = stack.enter_context(first.websocket_connect(table["ws"]))
                there.send_json({"type": "join", "protocol": 2, "token": table["token"]})
                assert there.receive_json()["type"] == "joined"
                ws = stack.enter_context(second.websocket_connect(table["ws"]))
                ws.send_json({"type": "join", "protocol": 2, "token": table["token"]})
                assert ws.receive_json()["type"] == "joined"
                relayed.append(ws)
            relays = root_of(second.app).relays.edge
            assert len(relays.edges) == 2
            assert second.portal is not None and first.portal is not None
            second.portal.call(relays.watch_once)  # both still run there: nothing closed
            assert all(e.conn.close_with is None for e in relays.edges.values())
            # The first table's lease goes (as if it ran out): only its socket is closed.
            first.portal.call(root_of(first.app).owners.release, tables[0]["id"])
            second.portal.call(relays.watch_once)
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    relayed[0].receive_json()
            assert (closed.value.code, closed.value.reason) == (1012, MOVED)
            closing = {e.table_id: e.conn.close_with for e in relays.edges.values()}
            assert closing[tables[1]["id"]] is None
            assert closing[tables[0]["id"]] is not None  # ends when its client leaves


@needs_redis
def test_a_socket_at_another_process_is_relayed_to_the_tables_owner(tmp_path: Path, own_redis: str):
    db = tmp_path / "s.db"
    first = TestClient(create_app(_site_settings(db, own_redis, lease_ttl=KEPT), site_only()))
    second = TestClient(create_app(_site_settings(db, own_redis, lease_ttl=KEPT), site_only()))
    with second:
        with first:
            table = first.post("/api/tables", json={"kind": "practice"}).json()
            owner = root_of(first.app).owners
            assert table["id"] in owner.held
            # Reading the table at the other process: from storage, not taken.
            r = second.get(f"/api/tables/{table['id']}", params={"token": table["token"]})
            assert r.status_code == 200
            assert table["id"] not in root_of(second.app).owners.held
            versions: list[int] = []
            # The person is connected at the first process: a second socket at the other
            # process is relayed (nobody connected there would make the table move instead).
            with first.websocket_connect(table["ws"]) as there, \
                    second.websocket_connect(table["ws"]) as ws:
                there.send_json({"type": "join", "protocol": 2, "token": table["token"]})
                answer = there.receive_json()
                assert answer["type"] == "joined", answer
                ws.send_json({"type": "join", "protocol": 2, "token": table["token"]})
                answer = ws.receive_json()
                assert answer["type"] == "joined", answer
                snap = ws.receive_json()
                assert snap["type"] == "snapshot"
                versions.append(snap["version"])
                table_now, made, waiting = snap["table"], 0, False
                while made < 3 or waiting:  # three moves through the relay, in order
                    if table_now["view"]["legal"] and table_now["version"] == versions[-1] \
                            and not waiting:
                        ws.send_json({"type": "action",
                                      "action": table_now["view"]["legal"][0]})
                        made, waiting = made + 1, True
                    m = ws.receive_json()
                    assert m["type"] == "event", m
                    assert m["version"] == versions[-1] + 1  # no gap, no repeat
                    versions.append(m["version"])
                    table_now = m["table"]
                    if m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
                        waiting = False
                assert len(root_of(second.app).manager) == 0  # still run by the first
                assert root_of(first.app).relays.host.remotes  # hosted there
            # Nobody is connected now (once the first process has seen both sockets go): a
            # socket at the second process brings the table over (saved and released by
            # the first, taken with a higher fence).
            actor = root_of(first.app).manager.peek(table["id"])
            _until(lambda: not root_of(first.app).relays.host.remotes and actor.subscribed == 0,
                   "the first process saw both sockets close")
            fence = owner.held[table["id"]].fence
            with second.websocket_connect(table["ws"]) as ws:
                ws.send_json({"type": "join", "token": table["token"], "since": versions[-1],
                              "protocol": 2})
                assert ws.receive_json()["type"] == "joined"
                assert ws.receive_json()["type"] == "snapshot"  # versions jumped: no replay
                assert table["id"] not in owner.held
                assert root_of(second.app).owners.held[table["id"]].fence > fence
            versions.append(root_of(second.app).manager.peek(table["id"]).version)
        # The first process stopped; the second still runs the table.
        with second.websocket_connect(table["ws"]) as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": table["token"],
                          "since": versions[-1]})
            assert ws.receive_json()["type"] == "joined"
            assert table["id"] in root_of(second.app).owners.held


@pytest.mark.parametrize(("workers", "db", "redis", "says"), [
    (0, PG, None, "--workers must be at least 1, not 0"),
    (2, PG, None, "--workers 2 needs --redis-url (or $EUCHRE_REDIS_URL)"),
    (3, "sqlite+aiosqlite:///x.db", "redis://r", "--workers 3 needs a PostgreSQL --database-url"),
    (2, "memory:", "redis://r", "needs a PostgreSQL"),
    (2, "postgres://u@db/x", "redis://r", "needs a PostgreSQL"),
])
def test_several_workers_are_refused_with_a_reason(workers, db, redis, says):
    refusal = workers_refusal(workers, db, redis)
    assert refusal is not None and says in refusal and "\n" not in refusal


def test_one_worker_needs_nothing_and_several_need_redis_and_postgresql():
    assert workers_refusal(1, "sqlite+aiosqlite:///x.db", None) is None
    assert workers_refusal(4, PG, "redis://r") is None


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


@needs_redis
def test_leaving_a_started_online_game_at_another_process_reaches_its_owner(tmp_path: Path):
    from euchre.server.app import site_extensions

    assert REDIS_URL
    db = tmp_path / "s.db"
    from euchre.server.accounts.accounts_api import AccountsOptions

    cheapest = AccountsOptions(password_profile="cheapest")
    apps = [create_app(_site_settings(db, REDIS_URL, lease_ttl=KEPT), site_extensions(cheapest))
            for _ in range(2)]
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        made = first.post("/api/tables", json={"kind": "online", "name": "Ann"}).json()
        r = first.post(f"/api/tables/{made['id']}/start", json={"token": made["token"]})
        assert r.status_code == 200, r.text
        with first.websocket_connect(made["ws"]) as ws:  # connected there: no handover
            ws.send_json({"type": "join", "protocol": 2, "token": made["token"]})
            assert ws.receive_json()["type"] == "joined"
            r = second.post(f"/api/online/{made['id']}/leave-game",
                            json={"token": made["token"]})
            assert r.status_code == 200, r.text
            assert r.json()["left"] is True and r.json()["already"] is False
            actor = root_of(first.app).manager.peek(made["id"])
            assert actor is not None and actor.is_replaced(0)  # at its owner
            assert root_of(second.app).manager.peek(made["id"]) is None
            again = second.post(f"/api/online/{made['id']}/leave-game",
                                json={"token": made["token"]})
            assert again.status_code == 200 and again.json()["already"] is True
