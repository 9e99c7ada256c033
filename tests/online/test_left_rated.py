"""A person who leaves a rated stake game stays on their side: their rating takes their side's
result and their statistics count the game (live server, HTTP and sockets)."""

from __future__ import annotations

from stake_helpers import Person, Players, stake_app

from live_server import live_server


def test_a_person_who_left_keeps_their_side_in_ratings_and_statistics(tmp_path: object) -> None:
    with live_server(stake_app(f"sqlite+aiosqlite:///{tmp_path}/rated.db")) as base:
        people = [Person(base, name) for name in ("Ann", "Bob", "Cyd", "Dee")]
        r = people[0].post("/api/tables", {"kind": "online", "rated": True, "stake": 10})
        assert r.status_code == 201, r.text
        table_id, tokens = r.json()["id"], [r.json()["token"]]
        for seat, person in enumerate(people[1:], 1):
            tokens.append(person.post(f"/api/tables/{table_id}/seats",
                                      {"seat": seat}).json()["token"])
        assert people[0].post(f"/api/tables/{table_id}/start",
                              {"token": tokens[0]}).status_code == 200
        players = Players(base, table_id, tokens, seed=5)
        try:
            players.play(lambda p: p.moves[1] >= 2)
            left = people[1].http.post(f"/api/online/{table_id}/leave-game",
                                       json={"token": tokens[1]})
            assert left.status_code == 200 and left.json()["fee"] == 1
            players.play(lambda p: p.over(), idle=frozenset({1}))
            winner = players.tables[0]["winner"]
        finally:
            players.close()
        stats = {p.name: p.http.get("/api/me/stats").json() for p in people}
        for seat, p in enumerate(people):
            mine = stats[p.name]
            assert mine["rating"]["games"] == 1, p.name  # Bob too: he stays on his side
            assert mine["stats"]["all"]["games"] == 1
            assert mine["stats"]["all"]["wins"] == (1 if seat % 2 == winner else 0)
        # Bob's rating moved with West & East's result, as his partner Dee's did
        bob, dee = stats["Bob"]["rating"], stats["Dee"]["rating"]
        ann = stats["Ann"]["rating"]
        assert (bob["mu"] > ann["mu"]) == (winner == 1) and (dee["mu"] > ann["mu"]) == (winner == 1)
        for p in people:
            p.close()
