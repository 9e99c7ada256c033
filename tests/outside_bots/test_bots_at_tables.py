"""Outside bots at real tables, in process (SQLite, and PostgreSQL with
``EUCHRE_TEST_DATABASE_URL``): a bot opens and joins online and practice tables with its
bearer token and plays under its own name, marked as a bot in the list, the seats and the
snapshots; rated tables refuse bots unless their people allowed them, stake tables always;
a revoked token is refused at once (over HTTP, and its open socket is closed); and the
table socket gives a bot's messages the same answers a person's get."""

from __future__ import annotations

import random
from typing import Any

from bot_helpers import bot_app, bot_call, changing, make_token, sign_up
from starlette.testclient import TestClient, WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from addressed import Addressed, at
from euchre.server.root import root_of
from euchre.server.tables.socket_guard import SocketLimits
from euchre.server.tables.socket_rate import MessageRate
from euchre.table.kinds.online import BOT_OWNER_REFUSED, BOT_RATED_REFUSED, BOT_STAKE_REFUSED


def _open_online(client: TestClient, token: str, **options: Any) -> dict[str, Any]:
    r = bot_call(client, "POST", "/api/tables", token, {"kind": "online", **options})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def _join(ws: WebSocketTestSession, token: str) -> dict[str, Any]:
    """Join a seat; the first snapshot."""
    ws.send_json({"type": "join", "protocol": 2, "token": token})
    assert ws.receive_json()["type"] == "joined"
    snapshot: dict[str, Any] = ws.receive_json()
    assert snapshot["type"] == "snapshot"
    return snapshot


def test_a_bot_opens_an_online_table_and_is_marked_everywhere(db_url: str) -> None:
    with TestClient(bot_app(db_url)) as client:
        ann = sign_up(client, "ann")
        token = make_token(client, ann, "annbot")["token"]
        made = _open_online(client, token, name="Whatever", preset="short")
        table_id = made["id"]
        shown = client.get(f"/api/online/{table_id}").json()
        assert shown["seats"][0] | {"rating": None} == {
            "seat": 0, "position": "South", "name": "annbot", "taken": True, "signed_in": True,
            "fill": False, "rating": None, "bot": True}
        r = client.post(f"/api/tables/{table_id}/seats", json={"seat": 1, "name": "Bob"})
        assert r.status_code == 201, r.text
        bob = r.json()["token"]
        listed = client.get("/api/online").json()["tables"]
        marks = [[s.get("bot", False) for s in t["seats"]] for t in listed]
        assert marks == [[True, False, False, False]]

        r = client.post(f"/api/tables/{table_id}/start", json={"token": made["token"]})
        assert r.status_code == 200, r.text
        with client.websocket_connect(f"/ws/tables/{table_id}") as person, \
                client.websocket_connect(f"/ws/tables/{table_id}") as bot:
            seen_by_bob = _join(person, bob)["table"]["seats"]
            seen_by_bot = _join(bot, made["token"])["table"]
        assert seen_by_bob[0]["name"] == "annbot" and seen_by_bob[0]["outside_bot"] is True
        assert seen_by_bob[0]["kind"] == "human"
        assert not any(s.get("outside_bot") for s in seen_by_bob[1:])
        assert seen_by_bot["seat"] == 0 and seen_by_bot["seats"][0]["outside_bot"] is True
        # The bot gets its own seat's view: its own cards only.
        assert len(seen_by_bot["view"]["hand"]) in (5, 6)


def test_a_bot_opens_a_practice_table_under_its_name(db_url: str) -> None:
    with TestClient(bot_app(db_url)) as client:
        ann = sign_up(client, "ann")
        token = make_token(client, ann, "annbot")["token"]
        r = bot_call(client, "POST", "/api/tables", token, {"kind": "practice"})
        assert r.status_code == 201, r.text
        made = r.json()
        with client.websocket_connect(f"/ws/tables/{made['id']}") as ws:
            seats = _join(ws, made["token"])["table"]["seats"]
        assert (seats[0]["name"], seats[0]["outside_bot"]) == ("annbot", True)


def test_rated_and_stake_tables_take_bots_only_where_allowed(db_url: str) -> None:
    # Addressed: Bob plays from his own home (a rated table seats one per address)
    with TestClient(Addressed(bot_app(db_url))) as client:
        ann = sign_up(client, "ann")
        token = make_token(client, ann, "annbot")["token"]
        # A rated table its people did not open to bots: the bot cannot sit or open one.
        r = client.post("/api/tables", json={"kind": "online", "rated": True},
                        headers={"X-CSRF-Token": ann})
        assert r.status_code == 201, r.text
        rated = r.json()["id"]
        r = bot_call(client, "POST", f"/api/tables/{rated}/seats", token, {"seat": 1})
        assert (r.status_code, r.json()["error"]) == (403, BOT_RATED_REFUSED)
        r = bot_call(client, "POST", "/api/tables", token, {"kind": "online", "rated": True})
        assert (r.status_code, r.json()["error"]) == (403, BOT_RATED_REFUSED)
        r = bot_call(client, "POST", "/api/online/quick", token, {"rated": True})
        assert (r.status_code, r.json()["error"]) == (403, BOT_RATED_REFUSED)
        assert [s["taken"] for s in client.get(f"/api/online/{rated}").json()["seats"]] == [
            True, False, False, False]
        # A stake: never (bots hold no coins).
        r = client.post("/api/tables", json={"kind": "online", "stake": 10},
                        headers={"X-CSRF-Token": ann})
        staked = r.json()["id"]
        r = bot_call(client, "POST", f"/api/tables/{staked}/seats", token, {"seat": 2})
        assert (r.status_code, r.json()["error"]) == (403, BOT_STAKE_REFUSED)
        # A rated table that allows bots takes one, shows the choice, and the bot is rated
        # as itself; but never with its owner.
        r = bot_call(client, "POST", "/api/tables", token,
                     {"kind": "online", "rated": True, "allow_bots": True})
        assert r.status_code == 201, r.text
        allowed = r.json()["id"]
        shown = client.get(f"/api/online/{allowed}").json()
        assert shown["allow_bots"] is True and shown["seats"][0]["bot"] is True
        r = client.post(f"/api/tables/{allowed}/seats", json={"seat": 1},
                        headers={"X-CSRF-Token": ann})
        assert (r.status_code, r.json()["error"]) == (409, BOT_OWNER_REFUSED)
        client.delete("/api/session", headers=changing(ann))
        bob = sign_up(client, "bob")
        r = client.post(f"/api/tables/{allowed}/seats", json={"seat": 1},
                        headers={"X-CSRF-Token": bob, **at("10.60.0.2")})
        assert r.status_code == 201, r.text


def test_a_revoked_token_is_refused_at_once_and_its_socket_closed(db_url: str) -> None:
    with TestClient(bot_app(db_url)) as client:
        ann = sign_up(client, "ann")
        made_token = make_token(client, ann, "annbot")
        token = made_token["token"]
        made = _open_online(client, token)
        table_id = made["id"]
        bob = client.post(f"/api/tables/{table_id}/seats",
                          json={"seat": 1, "name": "Bob"}).json()["token"]
        assert client.post(f"/api/tables/{table_id}/start",
                           json={"token": made["token"]}).status_code == 200
        with client.websocket_connect(f"/ws/tables/{table_id}") as person, \
                client.websocket_connect(f"/ws/tables/{table_id}") as bot:
            _join(person, bob)
            _join(bot, made["token"])
            bot.send_json({"type": "ping"})
            # The pong, after whatever the table sent meanwhile (the person's presence event
            # can come first when the table's task is slow to run: under load it did).
            while (message := bot.receive_json()) != {"type": "pong"}:
                assert message["type"] in ("event", "snapshot"), message
            r = client.delete(f"/api/me/bots/{made_token['id']}",
                              headers=changing(ann))
            assert r.status_code == 200
            # At once: told why, then closed, without sending anything.
            while (message := bot.receive_json())["type"] != "error":
                assert message["type"] in ("event", "snapshot")
            assert message["code"] == "revoked"
            try:
                while True:
                    bot.receive_json()
            except WebSocketDisconnect as closed:
                assert closed.code == 4401
            # The person's socket goes on.
            person.send_json({"type": "ping"})
            while person.receive_json()["type"] != "pong":
                pass
        # A new socket with the seat's token is refused; so is every request as the bot.
        with client.websocket_connect(f"/ws/tables/{table_id}") as again:
            again.send_json({"type": "join", "protocol": 2, "token": made["token"]})
            while (message := again.receive_json())["type"] != "error":
                pass
            assert message["code"] == "revoked"
        # A socket that shows the revoked token (or a made-up one) is refused, not let in as
        # a guest to watch.
        for shown in (token, "eb_made_up", "not-a-bearer"):
            headers = {"Authorization": f"Bearer {shown}" if shown != "not-a-bearer"
                       else "Basic abc"}
            with client.websocket_connect(f"/ws/tables/{table_id}", headers=headers) as bad:
                message = bad.receive_json()
                assert (message["type"], message["code"]) == ("error", "bad_bot_token")
                try:
                    while True:
                        bad.receive_json()
                except WebSocketDisconnect as closed:
                    assert closed.code == 4401
        for method, path, body in (("GET", "/api/bot", None),
                                   ("POST", "/api/tables", {"kind": "practice"}),
                                   ("POST", "/api/tables", {"kind": "online"}),
                                   ("POST", "/api/online/quick", {})):
            r = bot_call(client, method, path, token, body)
            assert (r.status_code, r.json()["code"]) == (401, "bad_bot_token"), path
        assert client.get("/api/online").json()["tables"] == []


SAME_ANSWERS = [
    "not json",
    '{"type": "dance"}',
    '{"type": "action", "action": "dance"}',
    '{"type": "action"}',
    '{"type": "hint"}',
    '{"type": "seed", "hand_number": 1, "seed": "zz"}',
    '{"type": "join", "protocol": 2, "token": "again"}',
    '{"type": "watch", "protocol": 2}',
]
"""Messages a person and a bot both send; they must get the same answers."""


def _answers(ws: WebSocketTestSession, sends: list[str]
             ) -> list[tuple[str, str | int | None]]:
    """Send each text; the (type, code) of the answer to each (events are skipped), and
    ("closed", code) if the server closes the socket."""
    out: list[tuple[str, str | int | None]] = []
    for text in sends:
        try:
            ws.send_text(text)
            while (m := ws.receive_json())["type"] in ("event", "snapshot"):
                pass
        except WebSocketDisconnect as closed:  # the socket's message rate
            out.append(("closed", closed.code))
            break
        out.append((m["type"], m.get("code")))
    return out


def test_a_bot_gets_the_answers_a_person_gets(db_url: str) -> None:
    still = SocketLimits(table_rate=MessageRate(burst=20, per_second=0.0))
    with TestClient(bot_app(db_url, socket_limits=still)) as client:
        ann = sign_up(client, "ann")
        token = make_token(client, ann, "annbot")["token"]
        made = _open_online(client, token)
        table_id = made["id"]
        bob = client.post(f"/api/tables/{table_id}/seats",
                          json={"seat": 1, "name": "Bob"}).json()["token"]
        client.post(f"/api/tables/{table_id}/start", json={"token": made["token"]})
        with client.websocket_connect(f"/ws/tables/{table_id}") as person, \
                client.websocket_connect(f"/ws/tables/{table_id}") as bot:
            _join(person, bob)
            _join(bot, made["token"])
            by_person = _answers(person, SAME_ANSWERS)
            by_bot = _answers(bot, SAME_ANSWERS)
            assert by_bot == by_person
            assert {code for _, code in by_bot} >= {"bad_message", "hint_unavailable",
                                                      "bad_seed", "illegal"}
        # A flood, each on a new socket: the same answers, message for message (the socket
        # rate's tokens do not come back here: a burst is answered, then the one refusal).
        with client.websocket_connect(f"/ws/tables/{table_id}") as person, \
                client.websocket_connect(f"/ws/tables/{table_id}") as bot:
            _join(person, bob)
            _join(bot, made["token"])
            flood = ['{"type": "ping"}'] * 60
            by_bot = _answers(bot, flood)
            assert by_bot == _answers(person, flood)
            assert by_bot[-2:] == [("error", "rate_limited"), ("closed", 4429)]


def test_a_rated_bot_is_marked_on_the_leaderboard(db_url: str) -> None:
    app = bot_app(db_url)
    with TestClient(app) as client:
        ids = {}
        people = ("ann", "bob", "cyd", "dee", "eve", "fay", "gus")
        for name in people:
            csrf = sign_up(client, name)
            ids[name] = client.portal.call(root_of(app).accounts.accounts.authenticate, name,
                                           "correct horse").id
        token = make_token(client, csrf, "cydbot")["token"]
        bot = client.portal.call(root_of(app).bots.identify, token)
        assert bot is not None
        # Rated games where its people allowed bots: the bot is rated as itself, and listed
        # once established (10 games against 6 different people), like anyone. Its owner
        # (gus) is not a different person for it, nor it for its owner (issue 34): so more
        # rounds, until everyone has met all six others.
        ratings = root_of(app).ratings.ratings
        everyone = [bot.account_id, *(ids[n] for n in people)]
        for r in range(30):
            order = list(everyone)
            random.Random(r).shuffle(order)
            for t in (0, 4):
                client.portal.call(ratings.register, f"g{r}-{t}", order[t:t + 4])
                assert client.portal.call(ratings.apply, f"g{r}-{t}", r % 2)
        leaders = client.get("/api/leaders").json()["leaders"]
        marks = {x["username"]: x.get("bot", False) for x in leaders}
        assert marks == {"cydbot": True, **{n: False for n in people}}
