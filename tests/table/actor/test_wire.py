"""The table's types on the wire: each event is tagged by its ``kind`` and each message by its
``type``, so one decoder reads any of them back; cards, seats and per-side pairs are checked
when read, and values left at their defaults are not sent."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from euchre.table.actor.wire import (
    EVENTS,
    ActionEvent,
    AlsoOpen,
    AwayEvent,
    Clock,
    DealEvent,
    EventMessage,
    GameOverEvent,
    HandOverEvent,
    HandSummary,
    Joined,
    NextCommitment,
    ReplacedEvent,
    SeatInfo,
    Snapshot,
    TableEvent,
    TableMessage,
    TableSnapshot,
    TrickEvent,
    kind_of,
)

SUMMARY = HandSummary(hand_number=1, dealer=0, maker=1, trump="H", alone=False,
                      lone_defender=None, tricks_won=[2, 3], points=[0, 1], euchred=False,
                      march=False, thrown_in=False, reneged=None, score=[0, 1], seed="s")


def _events() -> list[Any]:
    return [DealEvent(dealer=1, hand_number=2, commitment="c",
                      next_commitment=NextCommitment(hand_number=3, commitment="n")),
            ActionEvent(seat=2, action="play JH", timed_out=True),
            TrickEvent(leader=0, cards=["9H", "TH", "JH", "JK"], winner=3),
            HandOverEvent(points=[0, 1], score=[0, 1], summary=SUMMARY),
            GameOverEvent(winner=1, score=[7, 10]),
            AwayEvent(seat=1, ms_left=60000),
            ReplacedEvent(seat=1, reason="away", level="expert")]


def test_every_event_reads_back_as_itself_by_its_kind() -> None:
    for event in _events():
        data = msgspec.json.encode(event)
        assert msgspec.json.decode(data)["kind"] == kind_of(event)
        assert msgspec.json.decode(data, type=TableEvent) == event
    assert len({t.__struct_config__.tag for t in EVENTS}) == len(EVENTS)  # one tag each


def test_every_message_reads_back_as_itself_by_its_type() -> None:
    messages = [Joined(table_id="t1", seat=None, version=3), AlsoOpen(seat=2),
                Snapshot(version=4, table=_snapshot_of()),
                Snapshot(version=4, table=_snapshot_of(), you={"seat": 1, "hand": ["9H"]}),
                EventMessage(version=4, event=ActionEvent(seat=0, action="pass"),
                             changes={"to_act": 1, "view.history+": [[0, "pass"]]},
                             you={"legal": ["pass", "order"]}),
                EventMessage(version=5)]
    for message in messages:
        decoded = msgspec.json.decode(msgspec.json.encode(message), type=TableMessage)
        assert decoded == message
    assert b'"type":"joined"' in msgspec.json.encode(messages[0])


def _snapshot_of() -> TableSnapshot:
    seats = [{"seat": i, "name": f"p{i}", "kind": "bot", "level": "easy", "connected": True}
             for i in range(4)]
    table = {"id": "t1", "kind": "practice", "version": 4, "seat": 0, "seats": seats,
             "preset": "classic", "rules": {}, "rules_text": [], "score": [0, 0],
             "hand_number": 1, "dealer": 0, "to_act": 1, "commitment": None,
             "game_over": False, "closed": None, "winner": None, "view": None,
             "clock": None, "summary": None, "first_draw": None, "next_commitment": None,
             "spectators": 0}
    return msgspec.convert(table, type=TableSnapshot)


@pytest.mark.parametrize("bad", [
    {"kind": "trick", "leader": 0, "cards": ["9H", "TH", "JH", "XX"], "winner": 3},
    {"kind": "trick", "leader": 0, "cards": ["9H", "TH", "JH", "jh"], "winner": 3},
    {"kind": "trick", "leader": 4, "cards": [], "winner": 3},
    {"kind": "action", "seat": -1, "action": "pass"},
    {"kind": "game_over", "winner": 2, "score": [10, 3]},
    {"kind": "game_over", "winner": 0, "score": [10, 3, 1]},
    {"kind": "away", "seat": 1, "ms_left": -5},
    {"kind": "replaced", "seat": 1, "reason": "bored", "level": "easy"},
    {"kind": "spectators", "count": -1},
    {"kind": "shuffle", "seat": 0},
    {"seat": 0, "action": "pass"},
])
def test_a_malformed_event_is_refused_when_read(bad: dict[str, Any]) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(msgspec.json.encode(bad), type=TableEvent)


def test_a_snapshot_needs_four_seats() -> None:
    good = msgspec.to_builtins(_snapshot_of())
    with pytest.raises(msgspec.ValidationError, match="seats"):
        msgspec.convert({**good, "seats": good["seats"][:3]}, type=TableSnapshot)


def test_defaults_are_left_out_of_what_is_sent() -> None:
    assert msgspec.to_builtins(ActionEvent(seat=1, action="pass")) == {
        "kind": "action", "seat": 1, "action": "pass"}
    assert msgspec.to_builtins(Clock(seat=2, deadline_ms_left=500)) == {
        "seat": 2, "deadline_ms_left": 500}
    shown = msgspec.to_builtins(SeatInfo(seat=0, name="Ann", kind="human", level=None,
                                         connected=True))
    assert "replaced" not in shown and "away_ms_left" not in shown and \
        "outside_bot" not in shown
    away = SeatInfo(seat=0, name="Ann", kind="human", level=None, connected=False,
                    away_ms_left=1200)
    assert msgspec.to_builtins(away)["away_ms_left"] == 1200
