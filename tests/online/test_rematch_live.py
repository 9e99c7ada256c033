"""A rematch end to end on a live server and PostgreSQL, over the table sockets: four signed-in
people play a rated game, all four accept the rematch, and the new table starts with each
person's token opening their new seat (one seat to the left) and rates its game like any
other; a spectator's rematch is refused. At a 500-coin table the two who lost can no longer
cover the stake: the rematch is refused naming them, and no coin moves."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest
from stake_helpers import Person, Players, stake_app
from websockets.sync.client import connect

from live_server import live_server
from testdb import drop_postgres, fresh_postgres, postgres_url


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL database."""
    server = postgres_url()
    if server is None:
        pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
    url = asyncio.run(fresh_postgres(server))
    try:
        yield url
    finally:
        asyncio.run(drop_postgres(url))


def _table(people: list[Person], **options: Any) -> tuple[str, list[str]]:
    """The first person opens an online table (a game to 5), the others sit West, North and
    East, and it starts; (table id, tokens)."""
    r = people[0].post("/api/tables", {"kind": "online", "preset": "short", **options})
    assert r.status_code == 201, r.text
    table_id, tokens = r.json()["id"], [r.json()["token"]]
    for seat, person in enumerate(people[1:], 1):
        r = person.post(f"/api/tables/{table_id}/seats", {"seat": seat})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = people[0].post(f"/api/tables/{table_id}/start", {"token": tokens[0]})
    assert r.status_code == 200, r.text
    return table_id, tokens


def _rematch(players: Players, status: str) -> dict[str, Any]:
    """South offers, everyone else accepts once they see the offer; the offer as each socket
    has it once it stands at ``status`` for all four (they must agree)."""
    players.sockets[0].send(json.dumps({"type": "rematch", "accept": True}))

    def at(state: str) -> bool:
        return all((p.get("rematch") or {}).get("status") == state
                   for p in (players.tables[s] for s in range(4)))

    players.play(lambda p: at("open"))
    for seat in (1, 2, 3):
        players.sockets[seat].send(json.dumps({"type": "rematch", "accept": True}))
    players.play(lambda p: at(status))
    offers = [players.tables[s]["rematch"] for s in range(4)]
    assert all(o == offers[0] for o in offers[1:]) or status != "started", offers
    return offers[0]


def test_a_rated_rematch_starts_with_the_same_people_and_is_rated(pg_url: str) -> None:
    with live_server(stake_app(pg_url)) as base:
        people = [Person(base, name) for name in ("Ann", "Bob", "Cyd", "Dee")]
        table_id, tokens = _table(people, rated=True)
        players = Players(base, table_id, tokens, seed=3)
        try:
            players.play(lambda p: p.over())
            ws = base.replace("http://", "ws://")
            with connect(f"{ws}/ws/tables/{table_id}") as eve:  # a spectator cannot
                eve.send(json.dumps({"type": "watch", "protocol": 2}))
                assert json.loads(eve.recv(timeout=30))["type"] == "joined"
                eve.send(json.dumps({"type": "rematch", "accept": True}))
                while (m := json.loads(eve.recv(timeout=30)))["type"] != "error":
                    pass
                assert m["code"] == "spectator"
            offer = _rematch(players, "started")
        finally:
            players.close()
        assert offer["by"] == 0 and offer["people"] == [0, 1, 2, 3]
        assert sorted(offer["accepted"]) == [0, 1, 2, 3]
        again = offer["table"]
        assert again and again != table_id
        # each token opens its person's new seat: one to the left, partners kept (the
        # players' sockets go by seat: the new South is the old East)
        second = Players(base, again, [tokens[3], *tokens[:3]], seed=4)
        try:
            second.play(lambda p: len(p.tables) == 4 or any(p.errors.values()), rounds=2000)
            assert not any(second.errors.values()), second.errors
            assert [second.tables[i]["seat"] for i in range(4)] == [0, 1, 2, 3]
            names = [s["name"] for s in second.tables[0]["seats"]]
            assert names == ["Dee", "Ann", "Bob", "Cyd"]
            assert second.tables[0]["extra"]["rated"] is True
            second.play(lambda p: p.over())
        finally:
            second.close()
        for person in people:
            stats = person.http.get("/api/me/stats").json()
            assert stats["rating"]["games"] == 2, person.name
        rated = people[0].http.get(f"/api/games/{again}/ratings")
        assert rated.status_code == 200, rated.text
        for p in people:
            p.close()


def test_a_staked_rematch_is_refused_when_someone_cannot_cover_the_stake(pg_url: str) -> None:
    with live_server(stake_app(pg_url)) as base:
        people = [Person(base, name) for name in ("Ann", "Bob", "Cyd", "Dee")]
        table_id, tokens = _table(people, stake=500)
        players = Players(base, table_id, tokens, seed=7)
        try:
            players.play(lambda p: p.over())
            winner = players.tables[0]["winner"]
            before = [p.balance() for p in people]
            offer = _rematch(players, "refused")
        finally:
            players.close()
        losers = [people[i].name for i in range(4) if i % 2 != winner]
        assert [b < 550 for b in before] == [i % 2 != winner for i in range(4)], before
        message = offer["message"]
        assert message.startswith("The rematch could not start: the stake is 500 coins")
        assert all(name in message for name in losers), message
        assert "balance" not in message and offer["table"] is None
        assert [p.balance() for p in people] == before  # nothing moved for anyone
        assert people[0].http.get("/api/online").json()["tables"] == []  # none left behind
        for p in people:
            p.close()
