"""A team event's match owner killed mid-match (SIGKILL): another process of the site takes
the table over, keeps the match's result, seats the bracket's next round and finishes the
event.

Two real ``euchre serve`` processes on one PostgreSQL and one Redis; a double elimination of
two computer pairs (no pair registered: the format needs two, so two computer pairs fill it)
started by its creator on the first process, which opens and owns the first match; the first
process is killed while it plays (its computers take 0.3 s a move, so the kill lands
mid-match; the survivor's 0.05 s, so the rest of the bracket is played quickly). Nothing
asserts on time.
"""

from __future__ import annotations

import httpx
from site_helpers import STARTED, serving, site_urls, wait_until
from test_tournament_crash import until_finished


def test_a_killed_match_owner_the_bracket_finished_by_another_process() -> None:
    with site_urls() as (db_url, redis_url), \
            serving(2, db_url, redis_url, bot_delay=(0.3, 0.05)) as servers:
        for s in servers:
            wait_until([s], STARTED)
        first, second = servers
        with httpx.Client(base_url=first.base) as host:
            r = host.post("/api/accounts", json={"username": "host2",
                                                 "password": "correct horse"})
            assert r.status_code == 201, r.text
            csrf = {"X-CSRF-Token": r.json()["csrf"]}
            r = host.post("/api/tournaments", headers=csrf, json={
                "name": "Crash pairs", "format": "double_elimination", "hands": 2})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            r = host.post(f"/api/tournaments/{tid}/start", headers=csrf, json={})
            assert r.status_code == 200, r.text
            started = r.json()
        assert started["filled"] == "0 pairs; 2 computer pairs fill the count to 2"
        (match,) = started["round_tables"][0]["tables"]
        assert match["match"] == "W1.1"
        first.proc.kill()  # SIGKILL while the first match plays (0.3 s a move there)
        first.proc.wait()
        with httpx.Client(base_url=second.base) as other:
            state = other.get(f"/api/tournaments/{tid}").json()
            assert state["current_round"] == 1 and not state["round_tables"][0]["tables"][0][
                "over"]  # the kill landed mid-match
            state = until_finished(other, tid)
            names = [t["match"] for r in state["round_tables"] for t in r["tables"]]
            assert names[:2] == ["W1.1", "GF"] and len(names) in (2, 3)
            assert all(t["over"] and t["winner"] in (0, 1)
                       for r in state["round_tables"] for t in r["tables"])
            lines = state["team_standings"]
            assert [(x["place"], x["status"]) for x in lines] == [(1, "champion"), (2, "out")]
            record = other.get(f"/api/games/{match['table_id']}/record").text
            assert "\nend " in record, record
