"""A word to the table (issue 36 item 6), at the table actor on a fake clock: quick messages
only before the first deal, between hands and after the game (table law 10: no table talk
while a hand is in play); from seated people only (not computers, not outside bots); a
rate per person; none at a table whose creator chose silence; only ids from the fixed
list; every seat and spectator gets them as ``say`` events with continuous versions, a
rejoin catches up with them, and no card reaches anyone through them."""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from pathlib import Path
from typing import Any, get_args

import pytest
from online_helpers import Recorder, ScriptBot, Table, cards_in

from euchre.table.actor.actor import TableActor, TableDeps, TableError
from euchre.table.actor.errors import SeatReplaced
from euchre.table.actor.pacing import ManualScheduler, Pacing
from euchre.table.actor.talk import (
    IN_PLAY_TEXT,
    QUICK_MESSAGES,
    TALK_BURST,
    TALK_WINDOW,
    TalkInPlay,
    TalkOff,
    TalkPeopleOnly,
    TalkTooFast,
    UnknownMessage,
)
from euchre.table.actor.wire import MessageId
from euchre.table.kinds.online import ONLINE_KIND, OnlineOptions, online_policy
from online_registry import MemoryOnlineTables

TALK_JS = Path(__file__).resolve().parents[2] / "src/euchre/web/static/js/talk.js"


def _table(**options: Any) -> Table:
    """Ann (South) and Bob (West) at an online table made with ``options``."""
    t = Table.__new__(Table)
    t.registry = MemoryOnlineTables(now=lambda: 0.0)
    opened, t.ann = t.registry.create(OnlineOptions(name="Ann", **options), table_id="tk1")
    t.bob = t.registry.claim(opened.id, 1, "Bob")
    t.registry.start(opened.id, t.ann)
    t.config = opened.config(first_dealer=3)
    _run(t)
    return t


def _run(t: Table) -> None:
    """The actor of ``t.config`` on a fake clock, computers scripted; the first deal waits
    for the people's seeds (none come: 60 s)."""
    t.levels = []
    t.scheduler = ManualScheduler()
    counter = itertools.count()
    t.actor = TableActor(t.config, TableDeps(
        scheduler=t.scheduler, pacing=Pacing(bot_delay=1.0, hand_pause=2.0, seed_wait=60.0),
        policy=online_policy(t.config), kind=ONLINE_KIND,
        bot_factory=lambda level, seed: ScriptBot(level, t.levels),
        seed_source=lambda: f"talk-{next(counter)}"))


async def _seated(t: Table) -> tuple[Recorder, Recorder, Recorder]:
    """Ann, Bob and Eve (a spectator) connected, before the first deal."""
    ann, bob, eve = Recorder(0, t.actor), Recorder(1, t.actor), Recorder(0, t.actor)
    eve.seat = None
    t.actor.start()
    await t.actor.join(ann)
    await t.actor.join(bob)
    await t.actor.watch(eve)
    await t.actor.settle()
    return ann, bob, eve


def _says(r: Recorder) -> list[tuple[int, dict[str, Any]]]:
    """(version, event) of every ``say`` event a reader got."""
    return [(m["version"], m["event"]) for m in r.messages
            if m["type"] == "event" and (m.get("event") or {}).get("kind") == "say"]


def _versions(r: Recorder) -> list[int]:
    return [m["version"] for m in r.messages if m["type"] == "event"]


async def _refused(t: Table, seat: int, message: str, error: type[TableError],
                   readers: list[Recorder]) -> TableError:
    """``seat`` saying ``message`` is refused with ``error``, and nobody is sent anything."""
    before = [len(r.messages) for r in readers]
    version = t.actor.version
    with pytest.raises(error) as refused:
        await t.actor.say(seat, message)
    await t.actor.settle()
    assert t.actor.version == version
    assert [len(r.messages) for r in readers] == before
    return refused.value


async def _move_people(t: Table) -> None:
    """Ann and Bob make their first legal move whenever it is their turn."""
    seat = t.actor.game.to_act
    if seat in (0, 1):
        view = t.actor.view(seat)
        assert view is not None
        await t.actor.act(seat, str(view.legal_actions()[0]))
    else:
        await t.step()


def test_the_ids_are_the_wire_models_and_the_words_carry_no_card() -> None:
    assert set(get_args(MessageId)) == set(QUICK_MESSAGES)
    assert list(QUICK_MESSAGES.values()) == [
        "Hello", "Good game", "Thanks", "Well played", "Be right back"]
    assert all(not cards_in(words) for words in QUICK_MESSAGES.values())


def test_the_web_client_has_the_same_messages_and_refusal_codes() -> None:
    text = TALK_JS.read_text()
    block = text[text.index("export const QUICK_MESSAGES"):text.index("];")]
    assert re.findall(r'\["(\w+)", "([^"]+)"\]', block) == list(QUICK_MESSAGES.items())
    codes = re.search(r"export const TALK_CODES = \[([^\]]*)\]", text)
    assert codes is not None
    assert set(re.findall(r'"(\w+)"', codes.group(1))) == {
        e.code for e in (TalkInPlay, TalkTooFast, TalkOff, TalkPeopleOnly)}


async def test_before_the_first_deal_every_seat_and_spectator_hears_it() -> None:
    t = _table()
    ann, bob, eve = await _seated(t)
    assert t.actor.game.current is None  # the first deal is still to come
    before = t.actor.version
    await t.actor.say(0, "hello")
    await t.actor.settle()
    said = {"kind": "say", "seat": 0, "message": "hello"}
    for reader in (ann, bob, eve):
        assert _says(reader) == [(before + 1, said)]
        versions = _versions(reader)
        assert versions == list(range(versions[0], versions[-1] + 1))  # continuous
        last = reader.messages[-1]
        assert "you" not in last  # nothing of anyone's own part comes with it
        assert last["changes"] == {"version": before + 1}
    assert t.actor.version == before + 1
    await t.actor.stop()


async def test_no_table_talk_while_a_hand_is_in_play_and_between_hands_there_is() -> None:
    t = _table()
    ann, bob, eve = await _seated(t)
    readers = [ann, bob, eve]
    phases_refused: set[str] = set()
    between = 0
    while between < 2:  # through two hands' ends
        game = t.actor.game
        hand = game.current
        if hand is not None and not hand.is_over:
            error = await _refused(t, 0, "hello", TalkInPlay, readers)
            assert str(error) == IN_PLAY_TEXT
            await _refused(t, 1, "thanks", TalkInPlay, readers)
            view = t.actor.view(0)
            assert view is not None
            phases_refused.add(view.to_json()["phase"])
            await _move_people(t)
            continue
        if hand is not None and hand.is_over:  # the result is in, the next deal not yet
            said = len(_says(eve))
            await t.actor.say(1, "well_played")
            await t.actor.settle()
            assert len(_says(eve)) == said + 1 and len(_says(ann)) == said + 1
            between += 1
            t.scheduler.advance(TALK_WINDOW)  # (the rate is not what this test is about)
        await t.step()
    assert {"order", "play"} <= phases_refused
    await t.actor.stop()


async def test_after_the_game_people_may_say_good_game() -> None:
    t = _table()
    _ann, bob, eve = await _seated(t)
    for _ in range(5000):
        if t.actor.game.is_over:
            break
        await _move_people(t)
    assert t.actor.game.is_over
    await t.actor.say(0, "good_game")
    await t.actor.say(1, "good_game")
    await t.actor.settle()
    assert [e["seat"] for _, e in _says(eve)] == [0, 1]
    assert [e["seat"] for _, e in _says(bob)] == [0, 1]
    await t.actor.stop()


async def test_only_seated_people_speak_not_computers_nor_a_seat_taken_over() -> None:
    t = _table()
    ann, bob, eve = await _seated(t)
    readers = [ann, bob, eve]
    for computer in (2, 3):
        with pytest.raises(TableError, match="no seat"):
            await t.actor.say(computer, "hello")
    assert not any(_says(r) for r in readers)
    assert await t.actor.replace(1, "left")
    await t.actor.settle()
    await _refused(t, 1, "hello", SeatReplaced, readers)
    await t.actor.stop()


async def test_an_outside_bot_does_not_send_quick_messages() -> None:
    t = _table()
    seats = list(t.config.seats)
    seats[1] = dataclasses.replace(seats[1], bot_token=7)
    t.config = dataclasses.replace(t.config, seats=tuple(seats))  # type: ignore[arg-type]
    _run(t)
    ann, bob, eve = await _seated(t)
    error = await _refused(t, 1, "hello", TalkPeopleOnly, [ann, bob, eve])
    assert error.code == "talk_people_only"
    await t.actor.say(0, "hello")  # the person beside it may
    await t.actor.settle()
    assert len(_says(bob)) == 1  # and the bot's seat hears it (a program may ignore it)
    await t.actor.stop()


async def test_the_rate_is_per_person_and_says_when_to_try_again() -> None:
    t = _table()
    ann, bob, eve = await _seated(t)
    for message in list(QUICK_MESSAGES)[:TALK_BURST]:
        await t.actor.say(0, message)
        t.scheduler.advance(1.0)
    error = await _refused(t, 0, "brb", TalkTooFast, [ann, bob, eve])
    assert error.code == "talk_rate"
    assert str(error) == (f"too many messages: at most {TALK_BURST} every {TALK_WINDOW:g} "
                          f"seconds; try again in {TALK_WINDOW - TALK_BURST:g} s")
    await t.actor.say(1, "hello")  # Bob's own rate is untouched
    t.scheduler.advance(TALK_WINDOW - TALK_BURST)  # the first of Ann's three leaves the window
    await t.actor.say(0, "brb")
    await t.actor.settle()
    assert [e["seat"] for _, e in _says(eve)] == [0, 0, 0, 1, 0]
    await t.actor.stop()


async def test_a_silent_table_takes_no_message() -> None:
    t = _table(talk=False)
    assert t.config.extra["talk"] is False
    ann, bob, eve = await _seated(t)
    error = await _refused(t, 0, "hello", TalkOff, [ann, bob, eve])
    assert error.code == "talk_off" and "silent" in str(error)
    await t.actor.stop()


async def test_an_unknown_id_is_refused_and_nothing_changes() -> None:
    t = _table()
    ann, bob, eve = await _seated(t)
    for text in ("I have the right bower", "HELLO", "", "hello "):
        error = await _refused(t, 0, text, UnknownMessage, [ann, bob, eve])
        assert error.code == "bad_message" and "hello, good_game" in str(error)
    await t.actor.stop()


async def test_a_rejoin_catches_up_with_what_was_said_and_no_card_shows() -> None:
    t = _table()
    ann, bob, eve = await _seated(t)
    while not (t.actor.game.current is not None and t.actor.game.current.is_over):
        await _move_people(t)  # to the end of the first hand
    await t.actor.settle()
    t.actor.leave(bob)
    await t.actor.settle()
    seen = bob.folder.version
    tables_before = {id(r): copy.deepcopy(r.folder.table) for r in (ann, eve)}
    await t.actor.say(0, "thanks")
    await t.actor.settle()
    for r in (ann, eve):  # the say changed nothing of the table but its version
        before = dict(tables_before[id(r)] or {})
        after = dict(r.folder.table or {})
        version = after.pop("version")
        assert version == before.pop("version") + 1
        assert after == before
        sent = {k: v for k, v in r.messages[-1].items() if k != "table"}  # as sent
        assert sent == {"type": "event", "version": version, "changes": {"version": version},
                        "event": {"kind": "say", "seat": 0, "message": "thanks"}}
        assert not cards_in(sent)
    again = Recorder(1, t.actor)
    again.folder = bob.folder
    await t.actor.join(again, seen)
    await t.actor.settle()
    kinds = [m["type"] for m in again.messages]
    assert "snapshot" not in kinds  # exactly the missed events, the say among them
    assert {"kind": "say", "seat": 0, "message": "thanks"} in [
        m.get("event") for m in again.messages if m["type"] == "event"]
    await t.actor.stop()
