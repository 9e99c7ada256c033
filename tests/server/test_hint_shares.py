"""One person has one hint waiting or being worked out at a time, on the whole site when its
processes share a Redis; others wait their turn (the fair queue: test_hint_queue.py)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from euchre import GameState, Rules
from euchre.server import Settings, create_app
from euchre.server.root import root_of, site_extension
from euchre.server.tables import hints
from euchre.server.tables.practice_api import practice_extension
from euchre.shuffle import deck_from_seed
from redis_fixtures import private_redis


class SlowAnalysis:
    """Stands in for the analysis: each one says it started, then waits to be let go."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import euchre.bots.hints as analysis

        self.release = threading.Event()
        self.started = threading.Semaphore(0)
        monkeypatch.setattr(analysis, "analyse", self.analyse)

    def analyse(self, view: Any, budget: float) -> list[Any]:
        self.started.release()
        self.release.wait(10)
        return []


async def test_a_person_has_one_hint_at_a_time_and_others_wait_their_turn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slow = SlowAnalysis(monkeypatch)
    release, started = slow.release, slow.started
    game = GameState(Rules(), 0).deal(deck_from_seed("x"))
    view = game.current.view(game.to_act)  # type: ignore[union-attr]
    other = GameState(Rules(), 0).deal(deck_from_seed("y"))
    other_view = other.current.view(other.to_act)  # type: ignore[union-attr]
    service = hints.HintService(5.0)  # one process's hints: two at once
    first = asyncio.create_task(service.for_view(view, "10.0.0.1"))
    await asyncio.to_thread(started.acquire)
    with pytest.raises(hints.HintUnavailable, match="already have a hint"):
        await service.for_view(other_view, "10.0.0.1")  # another decision, the same person
    second = asyncio.create_task(service.for_view(view, "10.0.0.2"))
    await asyncio.to_thread(started.acquire)
    third = asyncio.create_task(service.for_view(view, "10.0.0.3"))  # waits its turn
    for _ in range(10):
        await asyncio.sleep(0)
    assert service.queue.queued() == 1 and not third.done()
    release.set()
    assert await first == [] and await second == [] and await third == []
    assert service.queue.started == ["10.0.0.1", "10.0.0.2", "10.0.0.3"]
    assert await service.for_view(view, "10.0.0.1") == []  # the place was given back


def _my_turn(ws: WebSocketTestSession) -> None:
    """Read until the person's seat has legal actions at the latest version."""
    for _ in range(500):
        m = ws.receive_json()
        assert m["type"] != "error", m
        table = m.get("table")
        if table and table["view"] and table["view"]["legal"] \
                and m.get("version", table["version"]) == table["version"]:
            return
    pytest.fail("never the person's turn")


def _hint_answer(ws: WebSocketTestSession) -> dict[str, Any]:
    while (m := ws.receive_json())["type"] not in ("hint", "error"):
        pass
    return m


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps of one site (one database, one Redis of the test's own), as two processes."""
    pytest.importorskip("euchre.bots.hints")
    with private_redis() as (url, _):
        # A lease it never waits out: a renewal late on a busy machine loses no table.
        settings = Settings(bot_delay=0.0, hand_pause=0.0, lease_ttl=30.0, redis_url=url,
                            database_url=f"sqlite+aiosqlite:///{tmp_path}/site.db")
        apps = [create_app(settings, [site_extension(), practice_extension()])
                for _ in range(2)]
        with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
            yield first, second


def test_a_clients_hint_share_holds_across_the_processes_of_a_site(
        site: tuple[TestClient, TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    slow = SlowAnalysis(monkeypatch)
    sockets = []
    with contextlib.ExitStack() as stack:
        for client in site:  # one table at each process, the same client address
            table = client.post("/api/tables", json={"kind": "practice"}).json()
            ws = stack.enter_context(client.websocket_connect(table["ws"]))
            ws.send_json({"type": "join", "protocol": 2, "token": table["token"]})
            _my_turn(ws)
            sockets.append(ws)
        first, second = sockets
        first.send_json({"type": "hint"})
        assert slow.started.acquire(timeout=10)  # worked out at the first process
        second.send_json({"type": "hint"})  # the other process knows
        refused = _hint_answer(second)
        assert refused["type"] == "error" and refused["code"] == "hint_unavailable"
        assert "already have a hint" in refused["message"]
        slow.release.set()
        assert _hint_answer(first)["type"] == "hint"
        second.send_json({"type": "hint"})  # the place was given back, site-wide
        assert _hint_answer(second)["type"] == "hint"
    for client in site:
        assert root_of(client.app).hints.shares is not None


def test_without_redis_the_share_is_the_processs_own(monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(Settings(bot_delay=0.0, hand_pause=0.0, database_url="memory:"),
                     [practice_extension()])
    with TestClient(app):
        assert root_of(app).hints.shares is None


async def test_unreachable_shares_refuse_the_hint_and_give_the_place_back(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from euchre.limits.redis import RedisLimits

    pytest.importorskip("euchre.bots.hints")
    dead = RedisLimits.from_url("redis://127.0.0.1:1/0")  # nothing listens on port 1
    service = hints.HintService(5.0)
    service.share_site_wide(dead)
    game = GameState(Rules(), 0).deal(deck_from_seed("x"))
    view = game.current.view(game.to_act)  # type: ignore[union-attr]
    with pytest.raises(hints.HintUnavailable, match="cannot be given just now"):
        await service.for_view(view, "10.0.0.1")
    assert not service.queue.holds("10.0.0.1")  # nothing held here either
    await dead.close()
