"""Outside bots in a tournament, over the table socket (SQLite, and PostgreSQL with
``EUCHRE_TEST_DATABASE_URL``): a bot registers only where the creator allows bots, never
beside its owner; it plays its seat with its seat token, and the seat carries its bot token,
so when its owner revokes the token its tournament socket is closed at once (``revoked``,
4401), a computer plays the seat for the rest of the round, the next round seats a computer
under the bot's name, and the tournament plays to its end. Progressive events are unrated."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from test_tournament_online import cookies_of, sign_up, site

from euchre.server.root import Site, root_of
from euchre.table.actor.seats import BOT, HUMAN, TableConfig

WAIT = 120.0
"""Longest wait for the site to do a thing (a failure, never a pace)."""


def _site(client: TestClient) -> Site:
    return root_of(client.app)


def _config(client: TestClient, table_id: str) -> TableConfig:
    stored = client.portal.call(_site(client).store.get, table_id)  # type: ignore[union-attr]
    assert stored is not None
    return TableConfig.from_json(stored.meta["config"])


def _as_bot(client: TestClient, path: str, token: str) -> Any:
    """A POST as the bot holding ``token``, with no cookie (a program has none)."""
    with cookies_of(client, {}):
        return client.post(path, json={}, headers={"Authorization": f"Bearer {token}"})


def _state(client: TestClient, tid: str) -> dict[str, Any]:
    state: dict[str, Any] = client.get(f"/api/tournaments/{tid}").json()
    return state


def test_a_revoked_bots_tournament_socket_is_closed_and_a_computer_plays_its_seat(
        db_url: str) -> None:
    with TestClient(site(db_url)) as client:
        jars: dict[str, dict[str, str]] = {"ann": {}, "dan": {}}
        with cookies_of(client, jars["ann"]):
            ann = sign_up(client, "ann")
            r = client.post("/api/tournaments", headers=ann, json={
                "name": "Bots welcome", "hands": 2, "rounds": 2, "seconds_per_move": 600,
                "allow_bots": True, "level": "easy"})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            r = client.post("/api/tournaments", headers=ann, json={"name": "People"})
            closed_to_bots = r.json()["id"]
        with cookies_of(client, jars["dan"]):
            dan = sign_up(client, "dan")
            r = client.post("/api/me/bots", json={"name": "danbot"}, headers=dan)
            assert r.status_code == 201, r.text
            token, token_id = r.json()["token"], r.json()["id"]

        # Only where the creator allows bots; never beside its owner.
        r = _as_bot(client, f"/api/tournaments/{closed_to_bots}/register", token)
        assert (r.status_code, r.json()["code"]) == (403, "forbidden"), r.text
        assert "does not allow outside bots" in r.json()["error"]
        r = _as_bot(client, f"/api/tournaments/{tid}/register", token)
        assert r.status_code == 201, r.text
        seat_token = r.json()["token"]
        with cookies_of(client, jars["dan"]):
            r = client.post(f"/api/tournaments/{tid}/register", headers=dan, json={})
        assert r.status_code == 403 and "its owner" in r.json()["error"], r.text
        assert [p["name"] for p in _state(client, tid)["people_in"]] == ["danbot"]

        with cookies_of(client, jars["ann"]):
            r = client.post(f"/api/tournaments/{tid}/start", headers=ann, json={})
        assert r.status_code == 200, r.text
        state = r.json()
        assert state["rated"] is False and state["field"] == 4
        table = state["round_tables"][0]["tables"][0]
        seat = table["seats"].index("danbot (bot)")
        config = _config(client, table["table_id"])
        assert config.seats[seat].kind == HUMAN and config.seats[seat].bot_token == token_id
        assert not config.extra.get("rated")  # never rated against anyone

        with client.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": seat_token})
            while True:  # the table waits for the bot: it is to act
                m = ws.receive_json()
                assert m["type"] != "error", m
                t = m.get("table")
                if t is not None and t["view"] and t["view"]["legal"] \
                        and t["to_act"] == seat:
                    break
            with cookies_of(client, jars["dan"]):
                r = client.delete(f"/api/me/bots/{token_id}", headers={
                    **dan, "Content-Type": "application/json"})
            assert r.status_code == 200, r.text
            # At once: told why, then closed.
            while (m := ws.receive_json())["type"] != "error":
                assert m["type"] in ("event", "snapshot"), m
            assert m["code"] == "revoked"
            try:
                while True:
                    ws.receive_json()
            except WebSocketDisconnect as closed:
                assert closed.code == 4401

        # The seat token opens nothing more: the gate knows the seat's bot token.
        with client.websocket_connect(f"/ws/tables/{table['table_id']}") as again:
            again.send_json({"type": "join", "protocol": 2, "token": seat_token})
            while (m := again.receive_json())["type"] != "error":
                pass
            assert m["code"] == "revoked"

        deadline = time.monotonic() + WAIT
        while (state := _state(client, tid))["status"] != "finished":
            assert time.monotonic() < deadline, state
            time.sleep(0.02)
        # Round 1: a computer played the bot's seat from the revocation, as for a leaver.
        stored = client.portal.call(_site(client).store.get,  # type: ignore[union-attr]
                                    table["table_id"])
        assert stored.meta["replaced"] == {str(seat): "left"}
        # Round 2: a computer under the bot's name, the same on the page and at the table.
        second = state["round_tables"][1]["tables"][0]
        at = second["seats"].index("danbot (bot)")
        config = _config(client, second["table_id"])
        assert config.seats[at].kind == BOT and config.seats[at].name == "danbot (bot)"
        assert config.seats[at].bot_token is None
        line = next(s for s in state["standings"] if s["name"] == "danbot (bot)")
        assert line["kind"] == "bot" and len(line["rounds"]) == 2
        assert sorted(s["name"] for s in state["standings"]) == sorted(
            [*second["seats"]])
