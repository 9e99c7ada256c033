"""The HTTP API and the table socket, in process (Starlette's TestClient), bots at zero delay."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from euchre.record import GameRecord
from euchre.server import Settings, create_app
from euchre.server.tables.practice_api import practice_extension
from table_helpers import cards_in, fixed_bots, seeds


def settings(**changes: Any) -> Settings:
    """Fast settings: no bot delay, no pause, memory store, fixed bots."""
    base: dict[str, Any] = {"bot_delay": 0.0, "hand_pause": 0.0, "database_url": "memory:",
                            "bot_factory": fixed_bots, "seed_source": seeds()}
    base.update(changes)
    return Settings(**base)


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A client of a fresh app."""
    with TestClient(create_app(settings(), [practice_extension()])) as c:
        yield c


def open_table(client: TestClient, **body: Any) -> dict[str, Any]:
    """Open a practice table; returns the 201 body."""
    r = client.post("/api/tables", json={"kind": "practice", **body})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


class Player:
    """Plays the person's seat over a socket with random legal moves."""

    def __init__(self, ws: WebSocketTestSession, seed: int = 0) -> None:
        self.ws = ws
        self.rng = random.Random(seed)
        self.table: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []
        self.waiting = False

    def receive(self) -> dict[str, Any]:
        m: dict[str, Any] = self.ws.receive_json()
        self.messages.append(m)
        if "table" in m:
            self.table = m["table"]
        if m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
            self.waiting = False
        return m

    def my_turn(self, m: dict[str, Any]) -> bool:
        return (not self.waiting and "table" in m and m["version"] == m["table"]["version"]
                and bool(m["table"]["view"]["legal"]))

    def wait_turn(self) -> None:
        """Read until it is the person's turn (a fresh join's snapshot is always followed
        by the presence event of the join, so the turn is taken from that)."""
        last = self.messages[-1] if self.messages else None
        if last is not None and last["type"] == "event" and self.my_turn(last):
            return
        while True:
            m = self.receive()
            assert m["type"] != "error", m
            if m["type"] != "snapshot" and self.my_turn(m):
                return

    def move(self) -> None:
        self.ws.send_json({"type": "action",
                           "action": self.rng.choice(self.table["view"]["legal"])})
        self.waiting = True

    def play(self, moves: int | None = None) -> None:
        """Play ``moves`` moves (or to the end of the game)."""
        made = 0
        while moves is None or made < moves:
            m = self.receive()
            assert m["type"] != "error", m
            if self.table.get("game_over") and m["version"] == self.table["version"]:
                return
            if self.my_turn(m):
                self.move()
                made += 1
        while self.waiting:  # until the last move is seen applied
            assert self.receive()["type"] != "error"


@contextlib.contextmanager
def join(client: TestClient, table: dict[str, Any], since: int | None = None
         ) -> Iterator[WebSocketTestSession]:
    """A socket joined to the table's person seat."""
    with client.websocket_connect(table["ws"]) as ws:
        ws.send_json({"type": "join", "protocol": 2, "token": table["token"], "since": since})
        yield ws


def test_a_whole_game_over_the_socket_then_its_record_and_replay(client: TestClient) -> None:
    table = open_table(client)
    with join(client, table) as ws:
        player = Player(ws, 1)
        assert player.receive()["type"] == "joined"
        player.play()
    assert player.table["game_over"] and player.table["winner"] in (0, 1)
    text = client.get(f"/api/games/{table['id']}/record")
    assert text.status_code == 200 and text.text.startswith("euchre-record 1")
    record = GameRecord.from_text(text.text)
    game = record.replay()
    assert game.is_over and list(game.score) == player.table["score"]
    as_json = client.get(f"/api/games/{table['id']}/record?format=json").json()
    assert GameRecord.from_json(as_json).to_text() == text.text
    replay = client.get(f"/api/games/{table['id']}/replay").json()
    actions = sum(len(h.actions) for h in record.hands)
    assert len(replay["frames"]) == actions + len(record.hands)
    assert replay["frames"][-1]["score"] == player.table["score"]
    assert client.get(f"/api/games/{table['id']}/record?format=xml").status_code == 400


def test_the_record_of_a_running_game_has_no_card_of_the_hand_in_progress(
        client: TestClient) -> None:
    table = open_table(client)
    with join(client, table) as ws:
        player = Player(ws, 2)
        player.play(1)
        r = client.get(f"/api/games/{table['id']}/record?format=json")
        assert r.status_code == 200
        assert r.json()["hands"] == [] or all(h["result"] is not None for h in r.json()["hands"])
        snap = client.get(f"/api/tables/{table['id']}", params={"token": table["token"]}).json()
        hand_now = set(snap["view"]["hand"])
        assert hand_now  # cards are held
        assert cards_in(client.get(f"/api/games/{table['id']}/record").text) == set()
        assert client.get(f"/api/games/{table['id']}/replay").status_code == 409


def test_a_malformed_message_and_an_illegal_move_are_refused_and_change_nothing(
        client: TestClient) -> None:
    table = open_table(client)
    with join(client, table) as ws:
        player = Player(ws, 3)
        player.wait_turn()
        before = player.table
        for raw, code in [("{nope", "bad_message"), ('{"type": "dance"}', "bad_message"),
                          ('{"type": "action", "action": "play XX"}', "illegal"),
                          ('{"type": "action", "action": "renege 1 by 0"}', "illegal"),
                          ('{"type": "join", "protocol": 2, "token": "again"}', "bad_message")]:
            ws.send_text(raw)
            m = player.receive()
            assert m["type"] == "error" and m["code"] == code and m["message"]
        held = set(before["view"]["hand"])
        wrong = next(t for t in ("9C", "TC", "JC", "QC", "KC", "AC", "9D") if t not in held)
        ws.send_json({"type": "action", "action": f"play {wrong}"})
        m = player.receive()
        assert m["type"] == "error" and m["code"] == "illegal"
        now = client.get(f"/api/tables/{table['id']}", params={"token": table["token"]}).json()
        assert now["version"] == before["version"] and now["view"] == before["view"]


def test_join_is_required_and_checked(client: TestClient) -> None:
    table = open_table(client)
    with client.websocket_connect(table["ws"]) as ws:
        ws.send_json({"type": "action", "action": "pass"})
        assert ws.receive_json()["code"] == "not_joined"
        ws.send_json({"type": "join", "protocol": 2, "token": "wrong"})
        assert ws.receive_json()["code"] == "bad_token"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    with client.websocket_connect("/ws/tables/nosuch") as ws:
        assert ws.receive_json()["code"] == "no_table"


def test_a_client_of_the_old_protocol_is_told_to_reload_and_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    from euchre.server.tables.session import CLOSE_OLD_PROTOCOL

    table = open_table(client)
    for hello in ({"type": "join", "token": table["token"]}, {"type": "watch"},
                  {"type": "join", "token": table["token"], "protocol": 1}):
        with client.websocket_connect(table["ws"]) as ws:
            ws.send_json(hello)
            told = ws.receive_json()
            assert told["type"] == "error" and told["code"] == "old_protocol"
            assert "reload" in told["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == CLOSE_OLD_PROTOCOL == 4426
    with join(client, table) as ws:  # the table was not touched: a protocol 2 join plays
        assert ws.receive_json()["type"] == "joined"
        assert ws.receive_json()["type"] == "snapshot"


def test_the_asyncapi_document_says_protocol_2_its_close_codes_and_you(
        client: TestClient) -> None:
    doc = client.get("/asyncapi.json").json()
    schemas = doc["components"]["schemas"]
    for hello in ("Join", "Watch"):
        said = schemas[hello]["properties"]["protocol"]["description"]
        assert "must be 2" in said and "old_protocol" in said and "4426" in said
    assert "4426" in doc["channels"]["table"]["description"]
    for message in ("EventMessage", "Snapshot"):
        you = schemas[message]["properties"]["you"]
        assert {"hand", "legal", "own"} <= set(you["properties"]), you
    assert "paths" in schemas["EventMessage"]["properties"]["changes"]["description"]


def test_every_close_code_the_table_socket_uses_is_documented() -> None:
    # The codes live where each refusal is made; the descriptions are written by hand, so
    # a new code must reach /asyncapi.json and docs/protocol.md's table too.
    import importlib
    import pkgutil
    import re

    import euchre.server
    from euchre.server.core.asyncapi import CLOSE_CODES

    codes = set()
    for info in pkgutil.walk_packages(euchre.server.__path__, "euchre.server."):
        module = importlib.import_module(info.name)
        codes |= {v for k, v in vars(module).items()
                  if k.startswith("CLOSE_") and isinstance(v, int)}
    assert {4401, 4403, 4408, 4426, 4429, 1009, 1012} <= codes
    table = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    documented = {int(c) for c in re.findall(r"^\| (\d{4}) \|", table, re.M)}
    for code in codes | {1013}:
        assert str(code) in CLOSE_CODES, code
        assert code in documented or f"**{code}**" in table, code


def test_reconnecting_with_since_gets_the_missing_events(client: TestClient) -> None:
    table = open_table(client)
    with join(client, table) as ws:
        player = Player(ws, 4)
        player.play(2)
        seen = max(m["version"] for m in player.messages if "version" in m)
    with join(client, table, since=seen) as ws2:
        joined = ws2.receive_json()
        assert joined["type"] == "joined"
        nxt = ws2.receive_json()
        if nxt["type"] == "snapshot":
            # more than one event was missed (a snapshot costs less), or the missed event
            # would show a trick no longer on view (table law 11)
            assert nxt["version"] > seen
            return
        # either the events right after what was seen, or (if nothing was missed) the
        # presence event of this new connection
        assert nxt["type"] == "event" and nxt["version"] == seen + 1


def test_a_rejoin_with_an_old_since_costs_one_snapshot(client: TestClient) -> None:
    table = open_table(client)
    with join(client, table) as ws:
        player = Player(ws, 4)
        player.play(3)
        player.wait_turn()  # the table waits for the person: nothing moves meanwhile
        version = player.table["version"]
    with join(client, table, since=1) as ws2:
        assert ws2.receive_json()["type"] == "joined"
        sent = [ws2.receive_json()]
        while not (sent[-1]["type"] == "event" and sent[-1]["event"]["kind"] == "presence"):
            sent.append(ws2.receive_json())
    # one snapshot of the table as it is now, then this connection's presence event
    assert [m["type"] for m in sent] == ["snapshot", "event"]
    assert sent[0]["version"] >= version


def test_reloading_the_page_resumes_the_same_game(client: TestClient) -> None:
    table = open_table(client)
    with join(client, table) as ws:
        player = Player(ws, 5)
        player.play(3)
    with join(client, table) as ws2:  # a reload: the token from localStorage, no since
        assert ws2.receive_json()["type"] == "joined"
        snap = ws2.receive_json()
        assert snap["type"] == "snapshot"
        assert snap["table"]["id"] == table["id"]
        assert snap["table"]["version"] >= player.table["version"]
        assert len(snap["table"]["view"]["history"]) >= 3 or snap["table"]["hand_number"] > 1


def test_a_restarted_server_resumes_the_table(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/e.db"
    with TestClient(create_app(settings(database_url=url), [practice_extension()])) as c:
        table = open_table(c)
        with join(c, table) as ws:
            player = Player(ws, 6)
            player.play(2)
            player.wait_turn()  # the computers have moved: nothing more happens
        before = c.get(f"/api/tables/{table['id']}", params={"token": table["token"]}).json()
    with TestClient(create_app(settings(database_url=url), [practice_extension()])) as c:
        after = c.get(f"/api/tables/{table['id']}", params={"token": table["token"]}).json()
        assert after["view"] == before["view"]  # the person's turn, exactly as it was
        assert after["version"] >= before["version"]  # (+1 if the leaving was seen later)
        with join(c, table) as ws:
            player = Player(ws, 7)
            player.play()
            assert player.table["game_over"]


def test_opening_tables_checks_the_request(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"kind": "poker"}, "unknown table kind"),
        ({"preset": "nope"}, "unknown preset"),
        ({"partner": "genius"}, "partner must be one of"),
        ({"rules": {"game_to": 8}}, "game_to"),
        ({"rules": {"no_such_rule": True}}, "unknown rule"),
        ({"rules": {"hands_limit": 8}}, "hands_limit is for tournament rounds"),
        ({"colour": "red"}, "unknown field"),
        ({"rules": [1]}, "rules must be an object"),
    ]
    for body, fragment in cases:
        r = client.post("/api/tables", json={"kind": "practice", **body})
        assert r.status_code == 400 and fragment in r.json()["error"], (body, r.text)
    r = client.post("/api/tables", content=b"{oops", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = client.post("/api/tables", json=[1])
    assert r.status_code == 400


def test_practice_defaults_and_choices(client: TestClient) -> None:
    table = open_table(client)
    snap = client.get(f"/api/tables/{table['id']}", params={"token": table["token"]}).json()
    assert snap["preset"] == "classic" and snap["seat"] == 0
    assert [s["level"] for s in snap["seats"]] == [None, "medium", "medium", "medium"]
    other = open_table(client, preset="stick-the-dealer", rules={"game_to": 5},
                       partner="hard", left="easy", right="random")
    snap = client.get(f"/api/tables/{other['id']}", params={"token": other["token"]}).json()
    assert snap["rules"]["stick_the_dealer"] and snap["rules"]["game_to"] == 5
    assert [s["level"] for s in snap["seats"]] == [None, "easy", "hard", "random"]


def test_the_table_snapshot_needs_the_seat_token(client: TestClient) -> None:
    table = open_table(client)
    url = f"/api/tables/{table['id']}"
    assert client.get(url).status_code == 401
    assert client.get(url, params={"token": "bad"}).status_code == 403
    assert client.get("/api/tables/none", params={"token": "x"}).status_code == 404
    assert client.get("/api/games/none/record").status_code == 404


def test_the_seat_token_can_come_in_a_header(client: TestClient) -> None:
    table = open_table(client)
    url = f"/api/tables/{table['id']}"
    assert client.get(url, headers={"X-Seat-Token": table["token"]}).json()["seat"] == 0
    assert client.get(url, headers={"X-Seat-Token": "bad"}).status_code == 403


def test_presets_list_every_rule_with_its_values(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    assert {p["name"] for p in data["presets"]} >= {"classic", "stick-the-dealer"}
    fields = {f["name"]: f for f in data["fields"]}
    assert fields["game_to"]["allowed"] == [5, 7, 10, 11]
    assert fields["stick_the_dealer"]["type"] == "boolean"
    assert all(f["description"] for f in data["fields"])
    assert data["default_level"] == "medium"


def test_pages_and_static_files(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>euchre</title>")
    (tmp_path / "app.js").write_text("export {};")
    with TestClient(create_app(settings(static_dir=tmp_path), [practice_extension()])) as c:
        for path in ("/", "/table/abc", "/replay/abc", "/rules"):
            r = c.get(path)
            assert r.status_code == 200 and "<title>euchre</title>" in r.text
        assert c.get("/static/app.js").text == "export {};"
        assert c.get("/static/missing.js").status_code == 404


async def test_a_hint_is_only_for_the_seats_own_turn() -> None:
    from euchre import GameState, Rules
    from euchre.server.tables.hints import HintUnavailable, hints_for
    from euchre.shuffle import deck_from_seed

    game = GameState(Rules(), 0).deal(deck_from_seed("x"))
    assert game.to_act == 1
    view = game.current.view(0)  # type: ignore[union-attr]
    with pytest.raises(HintUnavailable, match="not your turn"):
        await hints_for(view, 1.0)
    with pytest.raises(HintUnavailable, match="not your turn"):
        await hints_for(None, 1.0)


def test_a_hint_answers_with_legal_actions(client: TestClient) -> None:
    pytest.importorskip("euchre.bots.hints")
    table = open_table(client)
    with join(client, table) as ws:
        player = Player(ws, 9)
        player.wait_turn()
        legal = player.table["view"]["legal"]
        ws.send_json({"type": "hint"})
        while (m := player.receive())["type"] != "hint":
            assert m["type"] != "error", m
        assert m["hints"] and {h["action"] for h in m["hints"]} <= set(legal)
        assert m["version"] == player.table["version"]


def test_practice_speed_and_example_hand(client: TestClient) -> None:
    from euchre.table.kinds.examples import examples

    r = client.post("/api/tables", json={"kind": "practice", "speed": "warp"})
    assert r.status_code == 400 and "speed must be one of" in r.json()["error"]
    r = client.post("/api/tables", json={"kind": "practice", "example": "no-such-hand"})
    assert r.status_code == 400 and "no example hand" in r.json()["error"]

    fast = open_table(client, speed="fast")
    table = client.get(f"/api/tables/{fast['id']}",
                       headers={"X-Seat-Token": fast["token"]}).json()
    assert table["extra"] == {"speed": "fast"}

    for example in examples().values():
        created = open_table(client, example=example.id, speed="slow")
        table = client.get(f"/api/tables/{created['id']}",
                           headers={"X-Seat-Token": created["token"]}).json()
        assert table["extra"] == {"speed": "slow", "example": example.id}
        view = table["view"]
        # The person holds the example's hand (bots may already have bid), the dealer and
        # upcard are the example's, and a set deal has no shuffle commitment.
        assert set(example.hands[0]) <= set(view["hand"])  # the dealer may hold the upcard
        assert view["dealer"] == example.dealer and view["upcard"] == example.kitty[0]
        assert table["commitment"] is None


def test_learn_page_is_served(client: TestClient) -> None:
    r = client.get("/learn")
    assert r.status_code == 200 and "<main" in r.text
    data = client.get("/static/learn/examples.json").json()
    assert data["examples"]
