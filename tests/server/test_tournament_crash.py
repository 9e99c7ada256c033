"""A round's table owner killed mid-round (SIGKILL): another process of the site takes the
tables over, finishes the round, seats the next round and finishes the tournament.

Two real ``euchre serve`` processes on one PostgreSQL and one Redis; a tournament of eight
computers (two tables a round) started by its creator on the first process, which opens and
owns round 1's tables; the first process is killed while they play (its computers take
0.3 s a move, so the kill lands mid-round; the survivor's 0.05 s, so the rest is played
quickly). Nothing asserts on time: the test waits (with a generous deadline) for what the
survivor reports.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from site_helpers import STARTED, serving, site_urls, wait_until

pytestmark = pytest.mark.xdist_group("live_tournaments")  # one live tournament at a time

WAIT = 180.0
"""Longest wait for the surviving process (a failure, never a pace)."""


def test_a_killed_round_owner_the_round_finished_by_another_process() -> None:
    with site_urls() as (db_url, redis_url), \
            serving(2, db_url, redis_url, bot_delay=(0.3, 0.05)) as servers:
        for s in servers:
            wait_until([s], STARTED)
        first, second = servers
        with httpx.Client(base_url=first.base) as host:
            r = host.post("/api/accounts", json={"username": "host1",
                                                 "password": "correct horse"})
            assert r.status_code == 201, r.text
            csrf = {"X-CSRF-Token": r.json()["csrf"]}
            r = host.post("/api/tournaments", headers=csrf, json={
                "name": "Crash night", "hands": 2, "rounds": 2, "fill_to": 8})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            r = host.post(f"/api/tournaments/{tid}/start", headers=csrf, json={})
            assert r.status_code == 200, r.text
            started = r.json()
        assert started["status"] == "playing" and started["field"] == 8
        assert started["filled"] == "0 registered; 8 computers fill the count to 8"
        first_round = [t["table_id"] for t in started["round_tables"][0]["tables"]]
        first.proc.kill()  # SIGKILL while round 1's tables play (0.3 s a move there)
        first.proc.wait()
        with httpx.Client(base_url=second.base) as other:
            state = other.get(f"/api/tournaments/{tid}").json()
            # the kill landed mid-round: round 1 was not over
            assert state["current_round"] == 1 and not all(
                t["over"] for t in state["round_tables"][0]["tables"])
            state = until_finished(other, tid)
            assert [len(r["tables"]) for r in state["round_tables"]] == [2, 2]
            assert all(t["over"] for r in state["round_tables"] for t in r["tables"])
            assert len(state["standings"]) == 8
            for table_id in first_round:  # finished by the survivor, recorded whole
                record = other.get(f"/api/games/{table_id}/record").text
                assert "\nend " in record, record


def until_finished(client: httpx.Client, tid: str) -> dict[str, Any]:
    """The tournament once it is finished."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        state: dict[str, Any] = client.get(f"/api/tournaments/{tid}").json()
        if state["status"] == "finished":
            return state
        time.sleep(0.2)
    raise AssertionError(f"not finished: {state}")
