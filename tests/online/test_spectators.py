"""Spectators at online tables: a whole game watched over the socket, every message scanned
for a card no spectator may see and for a trick before the last completed one (table law 11);
a spectator's move refused; the watch refused at a table without spectators (code
``no_spectators``) and let in at an unlisted one that allows them; the count shown to players."""

from __future__ import annotations

import itertools
import random
from typing import Any

from msgspec import to_builtins
from online_helpers import CARD_TEXTS, Recorder, Table, cards_in
from starlette.testclient import TestClient
from starlette.testclient import WebSocketTestSession as Socket

from euchre.bots import make
from euchre.cards import card_text
from euchre.server import Settings, create_app
from euchre.table.actor.actor import SPECTATOR_COUNT_EVERY, TableError
from euchre.table.actor.observer import plays_on_view

_seeds = itertools.count()


def app() -> Any:
    """The site with no delays, quick computers and games in memory."""
    return create_app(Settings(bot_delay=0.0, hand_pause=0.0, database_url="memory:",
                               bot_factory=lambda level, seed: make("easy", 7),
                               seed_source=lambda: f"watch-{next(_seeds)}"))


def open_table(client: TestClient, **options: Any) -> dict[str, Any]:
    """An online table with its creator alone, started (computers fill the other seats)."""
    made: dict[str, Any] = client.post("/api/tables", json={
        "kind": "online", "name": "Ann", **options}).json()
    assert client.post(f"/api/tables/{made['id']}/start",
                       json={"token": made["token"]}).status_code == 200
    return made


def play(ws: Socket, seed: int = 3) -> list[dict[str, Any]]:
    """Play seat 0 with random legal moves to the end; every message received."""
    rng = random.Random(seed)
    got: list[dict[str, Any]] = []
    table: dict[str, Any] = {}
    waiting = False  # a move was sent and its event has not come back yet
    while True:
        m = ws.receive_json()
        got.append(m)
        assert m["type"] != "error", m
        table = m.get("table", table)
        if m["type"] == "event" and m["event"]["kind"] == "action" and m["event"]["seat"] == 0:
            waiting = False
        if table.get("game_over") and m.get("version") == table["version"]:
            return got
        view = table.get("view")
        if m["type"] == "event" and not waiting and m["version"] == table["version"] \
                and view and view["legal"]:
            ws.send_json({"type": "action", "action": rng.choice(view["legal"])})
            waiting = True


def watch_to_the_end(ws: Socket) -> list[dict[str, Any]]:
    """Every message a spectator gets until the game is over."""
    got = []
    while True:
        got.append(m := ws.receive_json())
        table = m.get("table") or {}
        if table.get("game_over") and m["version"] == table["version"]:
            return got


def public_cards(record: dict[str, Any]) -> set[str]:
    """Every card a spectator may ever see: each hand's upcard and every card played."""
    seen: set[str] = set()
    for hand in record["hands"]:
        seen.add(hand["kitty"][0])
        seen.update(a.split()[1] for _, a in hand["actions"] if a.startswith("play "))
    return seen


def law11_breaches(table: dict[str, Any]) -> set[str]:
    """Played cards a table shows outside the trick in progress, or the last completed trick
    while no card of the next is led."""
    view = table.get("view")
    if not view:
        return set()
    on_view = set(view["trick"]) or set((view["last_trick"] or {}).get("cards", []))
    shown = {a.split()[1] for _, a in view["history"] if a.startswith("play ")}
    return shown - on_view


def test_a_spectator_watches_a_whole_game_and_sees_no_hidden_card() -> None:
    with TestClient(app()) as client:
        made = open_table(client)
        with client.websocket_connect(made["ws"]) as ann, \
                client.websocket_connect(made["ws"]) as eve:
            ann.send_json({"type": "join", "protocol": 2, "token": made["token"]})
            eve.send_json({"type": "watch", "protocol": 2})
            joined = eve.receive_json()
            assert joined == {"type": "joined", "table_id": made["id"], "seat": None,
                              "version": joined["version"]}
            seen = play(ann)
            watched = watch_to_the_end(eve)
        record = client.get(f"/api/games/{made['id']}/record",
                            params={"format": "json"}).json()
    public = public_cards(record)
    all_cards = {card_text(c) for c in CARD_TEXTS.values()}
    assert public < all_cards  # the scan has something to find: cards were never shown
    tables = [m["table"] for m in watched if "table" in m]
    assert len(tables) > 50 and all(t["seat"] is None for t in tables)
    for m in watched:
        leaked = {card_text(c) for c in cards_in(m)} - public
        assert not leaked, (leaked, m)
    for t in tables:
        assert t["view"] is None or (t["view"]["hand"] == [] and t["view"]["discard"] is None
                                     and t["view"]["legal"] == [])
        assert not law11_breaches(t), t
    # It saw the play: bids, cards as they fell, the score and the clock.
    actions = [m["event"]["action"] for m in watched
               if m["type"] == "event" and m["event"]["kind"] == "action"]
    assert any(a.startswith("play ") for a in actions)
    assert any(a in ("pass", "order") or a.startswith("call") for a in actions)
    assert tables[-1]["game_over"] and max(tables[-1]["score"]) >= 10
    assert any(t["clock"] for t in tables)
    # The player was told it was watched.
    counts = [m["event"]["count"] for m in seen
              if m["type"] == "event" and m["event"]["kind"] == "spectators"]
    shown = [m["table"]["spectators"] for m in seen if "table" in m]
    assert counts[:1] == [1] or shown[0] == 1
    assert 1 in shown


def test_a_spectators_move_is_refused_and_changes_nothing() -> None:
    with TestClient(app()) as client:
        made = open_table(client)
        with client.websocket_connect(made["ws"]) as eve:
            eve.send_json({"type": "watch", "protocol": 2, "since": 0})
            assert eve.receive_json()["seat"] is None
            for move in ({"type": "action", "action": "pass"},
                         {"type": "join", "protocol": 2, "token": made["token"]},
                         {"type": "hint"}, {"type": "watch", "protocol": 2}):
                eve.send_json(move)
            eve.send_json({"type": "ping"})
            errors = []
            while (m := eve.receive_json())["type"] != "pong":
                if m["type"] == "error":
                    errors.append(m["code"])
        # Nobody joined seat 0, so the table waits for Ann: nothing was played for her.
        table = client.get(f"/api/tables/{made['id']}",
                           headers={"X-Seat-Token": made["token"]}).json()
    assert errors == ["spectator", "spectator", "spectator", "bad_message"]
    assert table["view"] is None or not any(s == 0 for s, _ in table["view"]["history"])


def test_a_table_without_spectators_cannot_be_watched() -> None:
    with TestClient(app()) as client:
        made = open_table(client, spectators=False)
        assert client.get(f"/api/online/{made['id']}").json()["spectators"] is False
        with client.websocket_connect(made["ws"]) as eve:
            eve.send_json({"type": "watch", "protocol": 2})
            refused = eve.receive_json()
            eve.send_json({"type": "action", "action": "pass"})
            not_joined = eve.receive_json()
        bad = client.post("/api/tables", json={"kind": "online", "spectators": "no"})
    assert refused == {"type": "error", "code": "no_spectators",
                       "message": "this table does not allow spectators: it cannot be watched"}
    assert not_joined["code"] == "not_joined"
    assert bad.status_code == 400 and "spectators must be true or false" in bad.text


def test_an_unlisted_table_that_allows_spectators_is_watched_by_its_link() -> None:
    with TestClient(app()) as client:
        made = open_table(client, private=True)
        assert client.get(f"/api/online/{made['id']}").json()["private"] is True
        with client.websocket_connect(made["ws"]) as eve:
            eve.send_json({"type": "watch", "protocol": 2})
            joined = eve.receive_json()
            snapshot = eve.receive_json()
    assert joined["type"] == "joined" and joined["seat"] is None
    assert snapshot["table"]["seat"] is None and snapshot["table"]["view"]["hand"] == []


async def test_the_actor_shows_players_the_count_and_spectators_no_hand() -> None:
    t = Table()
    ann, eve = Recorder(0, t.actor), Recorder(0, t.actor)
    eve.seat = None
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.watch(eve)
    await t.until_person()
    assert to_builtins(t.actor.snapshot(0))["spectators"] == 1
    assert [e["count"] for e in ann.events() if e["kind"] == "spectators"] == [1]
    watched = to_builtins(t.actor.snapshot(None))
    assert watched["view"]["hand"] == [] and watched["view"]["seat"] is None
    t.actor.leave(eve)
    await t.actor.settle()
    # held back: a count went out under 1 s ago
    if to_builtins(t.actor.snapshot(0))["spectators"] != 0:
        t.scheduler.advance(SPECTATOR_COUNT_EVERY)
        await t.actor.settle()
    assert to_builtins(t.actor.snapshot(0))["spectators"] == 0
    assert [e["count"] for e in ann.events() if e["kind"] == "spectators"] == [1, 0]
    with_seat = Recorder(1, t.actor)
    try:
        await t.actor.watch(with_seat)
    except TableError as e:
        assert "no seat" in e.message
    else:
        raise AssertionError("a seated subscriber watched")
    await t.actor.stop()


async def test_spectators_coming_and_going_send_the_count_at_most_once_a_second() -> None:
    """The first change goes out at once; a crowd arriving and leaving within the next
    second is one more count event, with the count as it then is."""
    t = Table()
    ann = Recorder(0, t.actor)
    t.actor.start()
    await t.actor.join(ann)
    await t.until_person()  # Ann is to move: nothing else happens while time passes
    crowd = [Recorder(0, t.actor) for _ in range(30)]
    for i, eve in enumerate(crowd):
        eve.seat = None
        await t.actor.watch(eve)
        if i % 3 == 2:
            t.actor.leave(crowd[i - 1])
    await t.actor.settle()
    counts = [e["count"] for e in ann.events() if e["kind"] == "spectators"]
    assert counts == [1]
    t.scheduler.advance(SPECTATOR_COUNT_EVERY)
    await t.actor.settle()
    counts = [e["count"] for e in ann.events() if e["kind"] == "spectators"]
    assert counts == [1, 20] and to_builtins(t.actor.snapshot(0))["spectators"] == 20
    # The spectators still here got it too: their tables show 20 now.
    stayed = crowd[::3]
    assert all([m for m in eve.messages if "table" in m][-1]["table"]["spectators"] == 20
               for eve in stayed)
    await t.actor.stop()


async def test_a_spectator_sees_only_the_plays_on_view() -> None:
    t = Table()
    eve = Recorder(0, t.actor)
    eve.seat = None
    t.actor.start()
    await t.actor.watch(eve)
    while (seat := await t.until_person()) is not None:
        view = t.actor.view(seat)
        assert view is not None
        await t.actor.act(seat, str(view.legal_actions()[0]))
    for message, game in zip(eve.messages, eve.games, strict=True):
        public = {c for h in game.all_hands() for c in (
            [h.upcard] + [c for _, cards, _ in h.tricks for c in cards] + list(h.trick[1]))}
        assert cards_in(message) <= public, message
        if "table" in message and message["table"]["view"]:
            shown = {CARD_TEXTS[a.split()[1]] for _, a in message["table"]["view"]["history"]
                     if a.startswith("play ")}
            assert shown <= plays_on_view(game)[1], message
    await t.actor.stop()
