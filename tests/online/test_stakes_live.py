"""A whole stake game against people over HTTP and the table sockets of a live server, one
person leaving mid-game (the leave sent six times at once): charged once, a computer plays
the seat to the end, the pot shared, no coin created or lost (SQLite, and PostgreSQL when
``EUCHRE_TEST_DATABASE_URL`` is set)."""

from __future__ import annotations

import asyncio

from stake_helpers import (
    Person,
    Players,
    check_no_coin_created_or_lost,
    leave_at_once,
    pot_figures,
    stake_app,
    stake_table,
)

from ledger_fixtures import db_url
from live_server import live_server

__all__ = ["db_url"]


def test_a_whole_stake_game_with_one_person_leaving(db_url: str) -> None:
    with live_server(stake_app(db_url)) as base:
        people = [Person(base, name) for name in ("Ann", "Bob", "Cyd", "Dee")]
        table_id, tokens = stake_table(people, 100)
        listed = people[0].http.get("/api/online").json()["tables"]
        assert [(t["id"], t["stake"]) for t in listed] == [(table_id, 100)]
        r = people[0].post(f"/api/tables/{table_id}/start", {"token": tokens[0]})
        assert r.status_code == 200, r.text
        assert r.json()["stake"] == 100 and r.json()["pot"] == 400
        assert [p.balance() for p in people] == [900] * 4

        players = Players(base, table_id, tokens)
        try:
            players.play(lambda p: p.moves[2] >= 3)  # Cyd (North) has made three moves
            answers = leave_at_once(base, table_id, tokens[2], 6)
            assert [a.status_code for a in answers] == [200] * 6, [a.text for a in answers]
            bodies = [a.json() for a in answers]
            assert sorted(b["already"] for b in bodies) == [False] + [True] * 5
            assert {(b["seat"], b["stake_forfeit"], b["fee"]) for b in bodies} == {(2, 100, 10)}
            players.play(lambda p: p.over(), idle=frozenset({2}))
            table = players.tables[0]
        finally:
            players.close()

        # Cyd's seat: a computer to the end, marked as Cyd who left; her token moves no more
        north = table["seats"][2]
        assert (north["name"], north["kind"], north["replaced"]) == ("Cyd", "bot", "left")
        replaced = [e for e in players.events[0] if e["kind"] == "replaced"]
        assert replaced == [{"kind": "replaced", "seat": 2, "reason": "left",
                             "level": "expert"}]
        assert any(e["kind"] == "replaced" for e in players.events[2])  # she was told
        assert not players.errors[0] and not players.errors[1] and not players.errors[3]

        winner = table["winner"]
        figures = asyncio.run(pot_figures(db_url, table_id))
        assert figures["status"] == "settled" and figures["winner"] == winner
        check_no_coin_created_or_lost(figures, 400)
        assert figures["sums"]["fee"] == -10
        # Ann and Cyd (side 0) against Bob and Dee (side 1); Cyd's share goes to nobody
        balances = [p.balance() for p in people]
        if winner == 0:
            assert balances == [1100, 900, 890, 900] and figures["house"] == 200
        else:
            assert balances == [900, 1100, 890, 1100] and figures["house"] == 0
        assert people[2].ledger() == [("fee", -10), ("stake", -100), ("welcome", 1000)]

        # after the end: Cyd's leave again changes nothing; Ann cannot leave a finished game
        again = leave_at_once(base, table_id, tokens[2], 1)[0]
        assert again.status_code == 200 and again.json()["already"]
        late = leave_at_once(base, table_id, tokens[0], 1)[0]
        assert late.status_code == 409 and "already ended" in late.json()["error"]
        assert [p.balance() for p in people] == balances
        for p in people:
            p.close()
