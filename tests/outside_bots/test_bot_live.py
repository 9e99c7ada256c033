"""An outside bot lists its live games and leaves them with its bot token alone (issue 34,
item 7): a bridge killed while it waited left the bot seated, every Play now refused 409
for up to an hour, and ``/api/me/live`` refused bot tokens. In process, on SQLite and
PostgreSQL (with ``EUCHRE_TEST_DATABASE_URL``)."""

from __future__ import annotations

from typing import Any

from bot_helpers import bot_app, bot_call, changing, make_token, sign_up
from starlette.testclient import TestClient


def _live(client: TestClient, token: str) -> list[dict[str, Any]]:
    r = bot_call(client, "GET", "/api/me/live", token)
    assert r.status_code == 200, r.text
    games: list[dict[str, Any]] = r.json()["games"]
    return games


def test_a_bot_lists_its_games_and_leaves_them_with_its_bot_token(db_url: str) -> None:
    with TestClient(bot_app(db_url)) as client:
        ann = sign_up(client, "ann")
        annbot = make_token(client, ann, "annbot")["token"]
        client.cookies.clear()
        cyd = sign_up(client, "cyd")
        cydbot = make_token(client, cyd, "cydbot")["token"]
        # Play now, then the seat token is lost (a bridge killed): the bot still finds it.
        waiting = bot_call(client, "POST", "/api/online/quick", annbot, {})
        assert waiting.status_code == 201, waiting.text
        table_id = waiting.json()["id"]
        [game] = _live(client, annbot)
        assert (game["id"], game["seat"], game["status"], game["quick"]) == (
            table_id, 0, "waiting", True)
        assert _live(client, cydbot) == []  # another bot's list is its own
        assert client.get("/api/me/live").json()["games"] == []  # cyd, signed in: not hers
        refused = bot_call(client, "POST", f"/api/online/{table_id}/leave", cydbot,
                           {"token": None})
        assert refused.status_code == 403
        left = bot_call(client, "POST", f"/api/online/{table_id}/leave", annbot,
                        {"token": None})
        assert left.status_code == 200 and left.json()["seat"] == 0, left.text
        assert _live(client, annbot) == []
        # A started game: Bob's invite table, the bot at West, Bob starts (computers fill).
        client.cookies.clear()
        bob = sign_up(client, "bob")
        made = client.post("/api/tables", json={"kind": "online"}, headers=changing(bob))
        assert made.status_code == 201
        bobs = made.json()
        sat = bot_call(client, "POST", f"/api/tables/{bobs['id']}/seats", annbot, {"seat": 1})
        assert sat.status_code == 201, sat.text
        started = client.post(f"/api/tables/{bobs['id']}/start",
                              json={"token": bobs["token"]}, headers=changing(bob))
        assert started.status_code == 200, started.text
        [game] = _live(client, annbot)
        assert (game["id"], game["seat"], game["status"]) == (bobs["id"], 1, "playing")
        gone = bot_call(client, "POST", f"/api/online/{bobs['id']}/leave-game", cydbot,
                        {"token": None})
        assert gone.status_code == 403
        gone = bot_call(client, "POST", f"/api/online/{bobs['id']}/leave-game", annbot,
                        {"token": None})
        assert gone.status_code == 200 and gone.json()["seat"] == 1, gone.text
        assert _live(client, annbot) == []
        # The bot is free to Play now again.
        client.cookies.clear()
        assert bot_call(client, "POST", "/api/online/quick", annbot, {}).status_code == 201


def test_a_bot_leaves_its_practice_table_with_its_bot_token(db_url: str) -> None:
    with TestClient(bot_app(db_url)) as client:
        ann = sign_up(client, "ann")
        annbot = make_token(client, ann, "annbot")["token"]
        client.cookies.clear()
        cyd = sign_up(client, "cyd")
        cydbot = make_token(client, cyd, "cydbot")["token"]
        client.cookies.clear()
        made = bot_call(client, "POST", "/api/tables", annbot, {"kind": "practice"})
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        [game] = _live(client, annbot)
        assert (game["id"], game["kind"], game["status"]) == (table_id, "practice", "playing")
        # Another bot's token, or no identity at all, leaves nothing.
        refused = bot_call(client, "POST", f"/api/tables/{table_id}/leave", cydbot, {})
        assert refused.status_code == 404, refused.text
        assert refused.json()["code"] == "no_table"
        assert client.post(f"/api/tables/{table_id}/leave", json={}).status_code == 401
        assert [g["id"] for g in _live(client, annbot)] == [table_id]
        left = bot_call(client, "POST", f"/api/tables/{table_id}/leave", annbot, {})
        assert left.status_code == 200, left.text
        assert (left.json()["left"], left.json()["fee"], left.json()["stake"]) == (True, 0, 0)
        assert _live(client, annbot) == []
        # A second press (a retry after a lost answer) says the same and changes nothing.
        again = bot_call(client, "POST", f"/api/tables/{table_id}/leave", annbot, {})
        assert again.status_code == 200 and again.json()["left"] is True, again.text
        assert _live(client, annbot) == []
