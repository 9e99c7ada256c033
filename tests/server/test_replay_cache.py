"""A finished game's replay is built once and kept; readers at once share one build; the
expensive reads have a rate per address (issue 34, item 8)."""

from __future__ import annotations

import asyncio

import pytest
from starlette.testclient import TestClient
from test_app import Player, join, open_table, settings

from euchre.server import create_app
from euchre.server.core.limit_settings import LimitSettings
from euchre.server.root import root_of
from euchre.server.tables.practice_api import practice_extension
from euchre.server.tables.replay_cache import ReplayCache


def test_a_finished_games_replay_is_built_once_and_a_running_ones_not_kept() -> None:
    with TestClient(create_app(settings(), [practice_extension()])) as client:
        cache = root_of(client.app).replay_cache
        table = open_table(client)
        with join(client, table) as ws:
            player = Player(ws, 3)
            assert player.receive()["type"] == "joined"
            player.play(2)
            assert client.get(f"/api/games/{table['id']}/replay").status_code == 409
            assert (cache.builds, len(cache)) == (0, 0)  # a refusal is not kept
            player.play()
        bodies = {client.get(f"/api/games/{table['id']}/replay").content for _ in range(20)}
        assert len(bodies) == 1 and cache.builds == 1 and len(cache) == 1
        assert client.get("/api/games/nosuch/replay").status_code == 404
        assert cache.builds == 1 and len(cache) == 1


def test_expensive_reads_have_a_rate_per_address() -> None:
    limits = LimitSettings(reads_per_address=5)
    with TestClient(create_app(settings(limits=limits), [practice_extension()])) as client:
        table = open_table(client)
        paths = [f"/api/games/{table['id']}/record", f"/api/games/{table['id']}/replay"]
        answers = [client.get(paths[i % 2]).status_code for i in range(5)]
        assert 429 not in answers
        refused = client.get(paths[1])
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        assert client.get("/api/health").status_code == 200  # cheap reads are not counted


def test_readers_at_once_share_one_build_and_a_failed_build_is_not_kept() -> None:
    async def scenario() -> None:
        cache = ReplayCache(budget=10)
        release = asyncio.Event()
        calls = 0

        async def build() -> bytes:
            nonlocal calls
            calls += 1
            await release.wait()
            return b"replay-A"

        readers = [asyncio.create_task(cache.get("A", build)) for _ in range(24)]
        await asyncio.sleep(0)
        release.set()
        assert set(await asyncio.gather(*readers)) == {b"replay-A"} and calls == 1

        async def refused() -> bytes:
            raise LookupError("no game")

        for _ in range(2):
            with pytest.raises(LookupError):
                await cache.get("B", refused)
        assert len(cache) == 1

        async def other() -> bytes:
            return b"replay-C"

        await cache.get("C", other)  # over the 10-byte budget: the oldest goes
        assert len(cache) == 1 and await cache.get("C", refused) == b"replay-C"

    asyncio.run(scenario())
