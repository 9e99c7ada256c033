"""Quick messages over the real table socket (issue 36 item 6): a seated person's ``say``
comes to them and to a spectator as the same ``say`` event; a spectator's is refused
(``spectator``); free text or an unknown id is refused (``bad_message``) and changes
nothing; a table opened silent (``"talk": false``) says so in its listing and in its
TABLE, and refuses every message (``talk_off``); ``/asyncapi.json`` documents both."""

from __future__ import annotations

import itertools
from typing import Any

from starlette.testclient import TestClient
from starlette.testclient import WebSocketTestSession as Socket

from contract.contract_helpers import Recording, validate_http, validate_socket
from euchre.bots import make
from euchre.server import Settings, create_app

_seeds = itertools.count()


def app() -> Any:
    """The site in memory; the first deal waits a minute for seeds nobody sends, so the
    table stays before its first deal for the whole test."""
    return create_app(Settings(bot_delay=0.0, hand_pause=0.0, database_url="memory:",
                               seed_wait=60.0,
                               bot_factory=lambda level, seed: make("easy", 7),
                               seed_source=lambda: f"talk-{next(_seeds)}"))


def open_table(client: TestClient, **options: Any) -> dict[str, Any]:
    """An online table with its creator alone, started (computers fill the other seats)."""
    made: dict[str, Any] = client.post("/api/tables", json={
        "kind": "online", "name": "Ann", **options}).json()
    assert client.post(f"/api/tables/{made['id']}/start",
                       json={"token": made["token"]}).status_code == 200
    return made


def until(ws: Socket, kind: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read until a message of ``type`` ``kind``: it, and every message before it."""
    before = []
    while (m := ws.receive_json())["type"] != kind:
        before.append(m)
    return m, before


def replies(ws: Socket, *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Send ``messages`` then a ping: every message received until the pong."""
    for message in messages:
        ws.send_json(message)
    ws.send_json({"type": "ping"})
    return until(ws, "pong")[1]


def test_a_seated_persons_message_reaches_them_and_a_spectator() -> None:
    recording = Recording(app())
    with TestClient(recording) as client:
        made = open_table(client)
        with client.websocket_connect(made["ws"]) as ann, \
                client.websocket_connect(made["ws"]) as eve:
            ann.send_json({"type": "join", "protocol": 2, "token": made["token"]})
            snapshot, _ = until(ann, "snapshot")
            assert snapshot["table"]["view"] is None  # before the first deal
            eve.send_json({"type": "watch", "protocol": 2})
            until(eve, "snapshot")
            # Free text, an id not on the list, a field too many: refused, nothing changes.
            refused = replies(
                ann, {"type": "say", "message": "I hold both bowers"},
                {"type": "say", "message": "hello", "text": "psst"}, {"type": "say"})
            errors = [m for m in refused if m["type"] == "error"]
            assert [m["code"] for m in errors] == ["bad_message"] * 3
            assert errors[0]["message"].startswith('say needs "message": one of "hello"')
            assert errors[1]["message"] == "unexpected field 'text' in a say message"
            assert not [m for m in refused if m["type"] == "event"
                        and m["event"]["kind"] == "say"]
            ann.send_json({"type": "say", "message": "hello"})
            said, _ = until(ann, "event")
            while said["event"]["kind"] != "say":
                said, _ = until(ann, "event")
            watched, _ = until(eve, "event")
            while watched["event"]["kind"] != "say":
                watched, _ = until(eve, "event")
            said, watched = ({k: v for k, v in m.items() if k != "table"}  # as sent
                             for m in (said, watched))
            assert said == watched == {
                "type": "event", "version": said["version"], "changes": {
                    "version": said["version"]},
                "event": {"kind": "say", "seat": 0, "message": "hello"}}
            # A spectator hears, but does not speak.
            refused = replies(eve, {"type": "say", "message": "hello"})
            assert [(m["type"], m.get("code")) for m in refused] == [("error", "spectator")]
            assert "only seated people" in refused[0]["message"]
        # Every message and answer of the exchange is one the documents describe.
        assert validate_socket(client.get("/asyncapi.json").json(), recording.sent) > 10
        assert validate_http(client.get("/openapi.json").json(), recording.sent) >= 2


def test_a_silent_table_says_so_and_takes_no_message() -> None:
    with TestClient(app()) as client:
        made = open_table(client, talk=False)
        listed = client.get(f"/api/online/{made['id']}").json()
        assert listed["talk"] is False
        assert client.get(f"/api/online/{open_table(client)['id']}").json()["talk"] is True
        with client.websocket_connect(made["ws"]) as ann:
            ann.send_json({"type": "join", "protocol": 2, "token": made["token"]})
            snapshot, _ = until(ann, "snapshot")
            assert snapshot["table"]["extra"]["talk"] is False
            refused = replies(ann, {"type": "say", "message": "hello"})
        bad = client.post("/api/tables", json={"kind": "online", "talk": "quiet"})
    errors = [m for m in refused if m["type"] == "error"]
    assert [m["code"] for m in errors] == ["talk_off"]
    assert not [m for m in refused if m["type"] == "event" and m["event"]["kind"] == "say"]
    assert errors[0]["message"] == "this table is silent: its creator turned quick messages off"
    assert bad.status_code == 400 and "talk must be true or false" in bad.text


def test_asyncapi_documents_say_both_ways() -> None:
    with TestClient(app()) as client:
        doc = client.get("/asyncapi.json").json()
    schemas = doc["components"]["schemas"]
    say = schemas["Say"]
    assert sorted(say["properties"]["message"]["enum"]) == sorted(
        ["hello", "good_game", "thanks", "well_played", "brb"])
    event = schemas["SayEvent"]
    assert set(event["required"]) >= {"seat", "message"}
