"""Three real ``euchre serve`` processes on one PostgreSQL and one Redis: one serves, two
wait as standbys. SIGKILL the active one mid-game: a standby takes over, resumes the table
from PostgreSQL and the game is played to its end through it. Pause the next active one
past its lease (SIGSTOP): the last standby takes over; resumed (SIGCONT), the paused one
writes nothing and shuts itself down.

Real processes, sockets, PostgreSQL and Redis; the test waits for log lines and states,
and asserts nothing about time.
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from collections.abc import Iterator

import httpx
import pytest
from site_helpers import STARTED, persons_turn, quiet, row, serving, site_urls, wait_until
from test_crash import play
from websockets.sync.client import connect

from euchre.record import GameRecord
from euchre.storage.sql import SqlStore
from redis_fixtures import needs_redis


@pytest.fixture
def site() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database and the test Redis."""
    with site_urls() as urls:
        yield urls


@needs_redis
def test_a_killed_active_process_is_replaced_and_a_paused_one_writes_nothing(site):
    db_url, redis_url = site
    rng = random.Random(5)
    with serving(3, db_url, redis_url, bot_delay=0.2) as servers:
        first = wait_until(servers, STARTED)
        standbys = [s for s in servers if s is not first]
        wait_until(standbys, "standby:")
        assert not any(s.has(STARTED) for s in standbys)

        table = httpx.post(f"{first.base}/api/tables", json={"kind": "practice"}).json()
        with connect(f"ws://127.0.0.1:{first.port}{table['ws']}") as ws:
            ws.send(json.dumps({"type": "join", "token": table["token"]}))
            before = play(ws, rng, moves=6)
        version, fence, _ = row(db_url, table["id"])
        assert fence >= 1 and before["version"] >= 1

        # 1. SIGKILL the active process: a standby takes over with a higher fence.
        first.proc.kill()
        first.proc.wait()
        second = wait_until(standbys, STARTED)
        last = next(s for s in standbys if s is not second)
        assert not last.has(STARTED)
        r = httpx.get(f"{second.base}/api/tables/{table['id']}",
                      params={"token": table["token"]})
        assert r.status_code == 200
        after = r.json()
        assert after["version"] >= version  # resumed from the last saved point
        _, fence2, _ = row(db_url, table["id"])
        assert fence2 > fence  # claimed by the new owner

        # 2. Play on through it, stop at the person's turn, and pause it past its lease.
        with connect(f"ws://127.0.0.1:{second.port}{table['ws']}") as ws:
            ws.send(json.dumps({"type": "join", "token": table["token"],
                                "since": after["version"]}))
            middle = play(ws, rng, moves=3)
        assert not middle["game_over"]
        second.proc.send_signal(signal.SIGSTOP)
        third = wait_until([last], STARTED)
        frozen = row(db_url, table["id"])
        assert frozen[1] > fence2  # the third process claimed it
        with connect(f"ws://127.0.0.1:{third.port}{table['ws']}") as ws:
            ws.send(json.dumps({"type": "join", "token": table["token"]}))
            at_turn = persons_turn(ws)
            # Nothing moves now until the person does: once the socket is quiet (our
            # joining is an event too) and the last save is in, keep the row.
            latest = quiet(ws, at_turn["version"])
            frozen = row(db_url, table["id"])
            while frozen[0] < latest:
                with last.changed:
                    last.changed.wait(0.1)
                frozen = row(db_url, table["id"])
            assert frozen[0] == latest

            # 3. Resume the paused one: it notices the lost lease, writes nothing, and
            # shuts down (uvicorn ends by re-raising the SIGTERM it handled).
            second.proc.send_signal(signal.SIGCONT)
            assert second.proc.wait(60) in (0, -signal.SIGTERM)
            assert second.has("lost the site lease")
            assert second.has("Application shutdown complete")
            assert row(db_url, table["id"]) == frozen

            # 4. The game ends through the third process; its record replays.
            end = at_turn
            if not at_turn["game_over"]:
                legal = at_turn["view"]["legal"]
                ws.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
                end = play(ws, rng, moves=None)
        assert end["game_over"] and end["winner"] in (0, 1)
        record = httpx.get(f"{third.base}/api/games/{table['id']}/record").text
        assert record.startswith("euchre-record 1") and "\nend " in record
        # Saves are written behind the events: wait (bounded) for the last one to land.
        for _ in range(300):
            final = asyncio.run(_stored_record(db_url, table["id"]))
            if final.replay().is_over:
                break
            time.sleep(0.1)
        assert final.replay().is_over


async def _stored_record(db_url: str, table_id: str) -> GameRecord:
    store = await SqlStore.open(db_url, run_migrations=False)
    try:
        game = await store.get(table_id)
        assert game is not None
        return GameRecord.from_json(game.record)
    finally:
        await store.close()


@needs_redis
def test_a_standby_stops_at_once_on_sigterm_and_the_active_one_cleanly(site):
    db_url, redis_url = site
    with serving(2, db_url, redis_url, bot_delay=0.0) as servers:
        active = wait_until(servers, STARTED)
        standby = next(s for s in servers if s is not active)
        wait_until([standby], "standby:")
        standby.proc.send_signal(signal.SIGTERM)  # still in start-up: it was never serving
        assert standby.proc.wait(60) == 0
        assert standby.has("standby stopped")
        active.proc.send_signal(signal.SIGTERM)
        assert active.proc.wait(60) == 0
        assert active.has("Application shutdown complete")
