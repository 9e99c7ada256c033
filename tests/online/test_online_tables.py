"""Online tables: two people at one table on a fake clock, and the HTTP API that seats them."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from msgspec import to_builtins
from online_helpers import Recorder, Table, cards_in, visible_cards
from starlette.testclient import TestClient

from euchre.cards import card_text
from euchre.server import Settings, create_app
from euchre.server.root import root_of
from euchre.server.wire.common import BadRequest, convert
from euchre.server.wire.online import OnlineTableRequest
from euchre.table.actor.actor import TableError
from euchre.table.kinds.online import (
    OnlineConflict,
    OnlineOptions,
)
from online_registry import MemoryOnlineTables


async def test_two_people_each_get_only_their_own_cards() -> None:
    t = Table()
    assert t.config.seat_of(t.ann) == 0 and t.config.seat_of(t.bob) == 1
    assert [s.kind for s in t.config.seats] == ["human", "human", "bot", "bot"]
    ann, bob = Recorder(0, t.actor), Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    moves = {0: 0, 1: 0}
    while (seat := await t.until_person()) is not None:
        view = t.actor.view(seat)
        assert view is not None
        await t.actor.act(seat, str(view.legal_actions()[0]))
        moves[seat] += 1
    assert t.actor.game.is_over and moves[0] > 5 and moves[1] > 5
    for rec in (ann, bob):
        assert rec.seat is not None
        for message, game in zip(rec.messages, rec.games, strict=True):
            leaked = cards_in(message) - visible_cards(game, rec.seat)
            assert not leaked, (rec.seat, {card_text(c) for c in leaked}, message)
        tables = [m["table"] for m in rec.messages if "table" in m]
        assert tables and all(tb["seat"] == rec.seat for tb in tables)
        assert all(tb["view"] is None or tb["view"]["seat"] == rec.seat for tb in tables)
    await t.actor.stop()


async def test_a_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    t = Table()
    t.actor.start()
    seat = await t.until_person()
    assert seat is not None
    other = 1 - seat
    view = t.actor.view(other)
    assert view is not None and not view.legal_actions()
    before = (t.actor.version, t.actor.game)
    for text in ("pass", "order", f"play {card_text(view.hand[0])}"):
        with pytest.raises(TableError):
            await t.actor.act(other, text)
    with pytest.raises(TableError, match="no seat"):
        await t.actor.act(2, "pass")  # a computer's seat is nobody's to play
    assert (t.actor.version, t.actor.game) == before
    await t.actor.stop()


async def test_a_timeout_plays_for_the_absent_person_with_the_expert_player() -> None:
    t = Table(seconds=30)
    ann = Recorder(0, t.actor)
    t.actor.start()
    await t.actor.join(ann)  # Bob never connects: his clock runs all the same
    while (seat := await t.until_person()) != 1:
        assert seat == 0
        view = t.actor.view(0)
        assert view is not None
        await t.actor.act(0, str(view.legal_actions()[0]))
    clock = to_builtins(t.actor.snapshot(0))["clock"]
    assert clock["seat"] == 1 and clock["deadline_ms_left"] == 30000
    assert clock["seconds_per_move"] == 30
    t.scheduler.advance(29.999)
    await t.actor.settle()
    # not played before the deadline (the expert player may already think, so that its move
    # lands on the deadline whatever it had to choose from)
    assert t.actor.game.to_act == 1 and not [e for e in ann.events() if e.get("timed_out")]
    t.scheduler.advance(0.002)
    await t.actor.settle()
    timed = [e for e in ann.events() if e.get("timed_out")]
    assert [e["seat"] for e in timed] == [1] and "expert" in t.levels
    await t.actor.stop()


def test_open_tables_expire_and_requests_are_checked() -> None:
    now = [0.0]
    reg = MemoryOnlineTables(now=lambda: now[0], open_for=60, limit=1)
    reg.create(OnlineOptions())
    with pytest.raises(OnlineConflict, match="too many"):
        reg.create(OnlineOptions())
    now[0] = 61
    assert reg.open_tables() == []
    reg.create(OnlineOptions())
    bad: list[dict[str, Any]] = [
        {"seconds_per_move": 0}, {"seconds_per_move": "30"}, {"seconds_per_move": True},
        {"seconds_per_move": 601}, {"level": "genius"}, {"name": ""}, {"name": "x" * 25},
        {"preset": "nope"}, {"rules": {"no_such_rule": True}}, {"stake": 7}, {"stake": "10"},
        {"stake": -10}, {"stake": 10**9}, {"stakes": 10},
    ]
    for body in bad:
        with pytest.raises(BadRequest):
            convert({"kind": "online", **body}, OnlineTableRequest)
    options = convert({"kind": "online", "seconds_per_move": 12.5,
                                    "level": "easy", "name": " Ann "}, OnlineTableRequest)
    assert (options.seconds_per_move, options.level, options.name) == (12.5, "easy", "Ann")


@pytest.fixture
def client() -> Iterator[TestClient]:
    """The app with computer players at once and games in memory."""
    settings = Settings(bot_delay=0.0, hand_pause=0.0, database_url="memory:")
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_api_opens_lists_seats_and_starts_an_online_table(client: TestClient) -> None:
    r = client.post("/api/tables", json={"kind": "online", "name": "Ann", "preset": "classic",
                                         "seconds_per_move": 30, "level": "easy"})
    assert r.status_code == 201, r.text
    made = r.json()
    table_id = made["id"]
    assert made["seat"] == 0 and made["token"] and made["invite"].endswith(f"/online/{table_id}")
    listed = client.get("/api/online").json()["tables"]
    assert [t["id"] for t in listed] == [table_id] and listed[0]["free"] == 3
    assert listed[0]["seats"][0]["name"] == "Ann" and "token" not in str(listed)

    seat = client.post(f"/api/tables/{table_id}/seats", json={"seat": 1, "name": "Bob"})
    assert seat.status_code == 201, seat.text
    bob = seat.json()["token"]
    taken = client.post(f"/api/tables/{table_id}/seats", json={"seat": 1, "name": "Cy"})
    assert taken.status_code == 409 and "West is taken" in taken.json()["error"]
    for body in ({"seat": 4, "name": "Cy"}, {"seat": 2}, {"seat": "2", "name": "Cy"}):
        assert client.post(f"/api/tables/{table_id}/seats", json=body).status_code == 400
    assert client.post("/api/tables/nope/seats", json={"seat": 1, "name": "x"}).status_code \
        == 404
    assert client.get(f"/api/online/{table_id}").json()["free"] == 2

    assert client.post(f"/api/tables/{table_id}/start", json={"token": bob}).status_code == 403
    started = client.post(f"/api/tables/{table_id}/start", json={"token": made["token"]})
    assert started.status_code == 200 and started.json()["status"] == "started"
    assert client.post(f"/api/tables/{table_id}/start",
                       json={"token": made["token"]}).status_code == 409
    assert client.get("/api/online").json()["tables"] == []
    assert client.get(f"/api/online/{table_id}").json()["status"] == "started"

    for token, seat_number in ((made["token"], 0), (bob, 1)):
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": token})
            assert ws.receive_json()["seat"] == seat_number
            snap = ws.receive_json()
            assert snap["type"] == "snapshot" and snap["table"]["seat"] == seat_number
            table = snap["table"]
            assert table["kind"] == "online" and table["seats"][1]["name"] == "Bob"
            assert table["seats"][2]["kind"] == "bot" and table["seats"][2]["level"] == "easy"
            hand = table["view"]["hand"] if table["view"] else []
            assert len(hand) in (0, 5, 6)
            assert client.get(f"/api/tables/{table_id}?token={token}").json()["seat"] \
                == seat_number


def test_no_hints_at_an_online_table(client: TestClient) -> None:
    made = client.post("/api/tables", json={"kind": "online", "name": "Ann",
                                            "level": "easy"}).json()
    assert client.post(f"/api/tables/{made['id']}/start",
                       json={"token": made["token"]}).status_code == 200
    with client.websocket_connect(made["ws"]) as ws:
        ws.send_json({"type": "join", "protocol": 2, "token": made["token"]})
        assert ws.receive_json()["type"] == "joined"
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "hint"})
        ws.send_json({"type": "ping"})
        replies = []
        while (m := ws.receive_json())["type"] != "pong":
            if m["type"] != "event":
                replies.append(m)
    assert replies == [{"type": "error", "code": "hint_unavailable",
                        "message": "Hints are off at coin and online tables: they are for "
                                   "practice."}]


def test_the_api_refuses_bad_online_requests(client: TestClient) -> None:
    r = client.post("/api/tables", json={"kind": "online", "seconds_per_move": 1})
    assert r.status_code == 400 and "seconds_per_move" in r.json()["error"]
    assert client.get("/api/online/nope").status_code == 404
    assert client.post("/api/tables/nope/start", json={"token": "x"}).status_code == 404
    assert client.get("/api/online").json()["tables"] == []
    assert client.get("/online").status_code == 200


def test_the_listing_answers_whether_a_table_is_listed_never_404(client: TestClient) -> None:
    # The watch page asks this: a dead link is an answer (null), not a refused request.
    made = client.post("/api/tables", json={"kind": "online", "name": "Ann"}).json()
    listed = client.get(f"/api/online/{made['id']}/listing")
    assert listed.status_code == 200, listed.text
    assert listed.json()["table"] == client.get(f"/api/online/{made['id']}").json()
    assert "token" not in listed.text
    none = client.get("/api/online/no-such-table/listing")
    assert none.status_code == 200 and none.json() == {"table": None, "seat_refused": None}
    assert listed.json()["seat_refused"] is None  # not rated: nothing foreseen
    assert client.get("/api/online/no-such-table").status_code == 404


def test_openapi_describes_online_tables(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/api/tables"]["post"]["requestBody"]["content"]["application/json"]
    refs = [o["$ref"] for o in body["schema"]["oneOf"]]
    assert "#/components/schemas/OnlineTableRequest" in refs
    assert "#/components/schemas/PracticeTableRequest" in refs
    assert {"/api/online", "/api/online/{table_id}", "/api/online/{table_id}/listing",
            "/api/tables/{table_id}/seats",
            "/api/tables/{table_id}/start"} <= set(schema["paths"])


async def test_a_dropped_person_is_played_for_and_rejoins_with_the_token() -> None:
    t = Table(seconds=20)
    bob = Recorder(1, t.actor)
    t.actor.start()
    await t.actor.join(bob)
    seen = bob.messages[-1]["table"]["version"] if "table" in bob.messages[-1] else 0
    t.actor.leave(bob)  # Bob's connection drops
    while (seat := await t.until_person()) != 1:
        assert seat == 0
        view = t.actor.view(0)
        assert view is not None
        await t.actor.act(0, str(view.legal_actions()[0]))
    t.scheduler.advance(20)
    await t.actor.settle()
    again = Recorder(1, t.actor)
    assert t.config.seat_of(t.bob) == 1
    await t.actor.join(again, since=seen)
    events = again.events()
    assert again.messages[0]["type"] == "joined" and again.messages[0]["seat"] == 1
    assert all(m["table"]["seat"] == 1 for m in again.messages if "table" in m)
    # the move the clock played for Bob is marked: in the replayed events, or (a rejoin
    # that missed more than one event gets a snapshot) in the snapshot's clock_played
    marked = [e["seat"] for e in events if e.get("timed_out")]
    for m in again.messages:
        if m["type"] == "snapshot":
            history = m["table"]["view"]["history"]
            marked += [history[i][0] for i in m["table"]["clock_played"]]
    assert marked == [1]
    assert events[-2]["kind"] == "presence" and events[-2]["connected"]
    assert events[-1] == {"kind": "back", "seat": 1}  # back within the grace: still his seat
    await t.actor.stop()


def test_a_restarted_server_resumes_an_online_table_with_its_clock() -> None:
    from euchre.storage.memory import MemoryStore

    store = MemoryStore()
    settings = Settings(bot_delay=0.0, hand_pause=0.0, store=store)
    with TestClient(create_app(settings)) as c:
        made = c.post("/api/tables", json={"kind": "online", "name": "Ann",
                                           "seconds_per_move": 45}).json()
        bob = c.post(f"/api/tables/{made['id']}/seats", json={"seat": 2, "name": "Bo"}).json()
        assert c.post(f"/api/tables/{made['id']}/start",
                      json={"token": made["token"]}).status_code == 200
    with TestClient(create_app(settings)) as c:
        for token, seat in ((made["token"], 0), (bob["token"], 2)):
            table = c.get(f"/api/tables/{made['id']}", params={"token": token}).json()
            assert table["kind"] == "online" and table["seat"] == seat
            assert table["seats"][2]["name"] == "Bo"
            clock = table["clock"]
            assert clock is None or clock["seconds_per_move"] == 45
        actor = root_of(c.app).manager.peek(made["id"])
        assert actor is not None and actor.policy.clock_policy.seconds_per_move == 45
        assert sorted(actor.policy.clocks) == [0, 2]  # a clock for each person


async def test_rule_9_an_online_table_runs_its_own_separate_clock() -> None:
    """Doc 000 rule 9: each person at an online table has a clock of the table's own length."""
    t = Table(seconds=12)
    t.actor.start()
    assert await t.until_person() == 0
    clock = to_builtins(t.actor.snapshot(1))["clock"]  # Bob watches the same countdown
    assert clock == to_builtins(t.actor.snapshot(0))["clock"]
    assert (clock["seat"], clock["deadline_ms_left"], clock["seconds_per_move"]) == (0, 12000, 12)
    while await t.until_person() == 0:  # Ann is away: the table plays for her
        t.scheduler.advance(12)
        await t.actor.settle()
    bob = to_builtins(t.actor.snapshot(1))["clock"]
    assert (bob["seat"], bob["deadline_ms_left"], bob["misses"]) == (1, 12000, 0)
    assert t.actor.policy.clocks[0].misses >= 1  # type: ignore[attr-defined]
    await t.actor.stop()
