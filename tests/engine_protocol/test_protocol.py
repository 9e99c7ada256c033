"""The engine protocol (``euchre.engine_protocol``): one request line in, one response line out."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import euchre
from euchre.bots import make
from euchre.engine_protocol import ProtocolSession, command_names
from euchre.record import GameRecord
from euchre.shuffle import commitment
from euchre.verify import deal_of_seed

README_HANDS = [["KC", "9D", "AD", "TH", "QH"], ["9C", "JD", "QD", "9H", "KS"],
                ["TC", "JC", "KD", "AH", "AS"], ["QC", "TD", "JH", "9S", "TS"]]
README_KITTY = ["KH", "AC", "JS", "QS"]


def ask(session: ProtocolSession, request: dict[str, Any] | str) -> dict[str, Any]:
    """Send one request line and return the one response object."""
    line = request if isinstance(request, str) else json.dumps(request)
    out = session.feed(line)
    assert len(out) == 1
    response: dict[str, Any] = json.loads(out[0])
    return response


def ok(session: ProtocolSession, **request: Any) -> dict[str, Any]:
    """Send a request that must succeed."""
    response = ask(session, request)
    assert response["ok"], response
    return response


def fixed_session(preset: str = "stick-the-dealer") -> ProtocolSession:
    """A session with the README's deal, dealer 3 (the first dealer)."""
    session = ProtocolSession()
    ok(session, cmd="new_game", preset=preset, first_dealer=3)
    ok(session, cmd="deal", hands=README_HANDS, kitty=README_KITTY)
    return session


def state_of(session: ProtocolSession) -> dict[str, Any]:
    """The open state, as the protocol gives it."""
    state: dict[str, Any] = ok(session, cmd="state")["state"]
    return state


def test_info_names_every_command_level_and_preset() -> None:
    info = ok(ProtocolSession(), cmd="info")
    assert info["commands"] == command_names()
    assert {"new_game", "deal", "legal", "apply", "view", "state", "bot", "hint", "record",
            "load", "undo", "quit"} <= set(info["commands"])
    assert info["levels"] == ["random", "easy", "medium", "hard", "expert"]
    assert "classic" in info["presets"] and info["protocol"] == 1


@pytest.mark.parametrize("id_value", [7, "abc", [1, 2], None])
def test_the_id_is_echoed_on_success_and_on_error(id_value: Any) -> None:
    session = ProtocolSession()
    assert ask(session, {"id": id_value, "cmd": "info"})["id"] == id_value
    refused = ask(session, {"id": id_value, "cmd": "legal"})
    assert refused["id"] == id_value and not refused["ok"]


def test_no_id_means_no_id_in_the_response() -> None:
    assert "id" not in ask(ProtocolSession(), {"cmd": "info"})


def test_blank_lines_get_no_answer() -> None:
    assert ProtocolSession().feed("   \n") == []


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        ("{not json", "bad_json", "malformed JSON"),
        ("[1, 2]", "bad_request", "a request must be a JSON object"),
        ('"legal"', "bad_request", "a request must be a JSON object"),
        ("null", "bad_request", "a request must be a JSON object"),
        ('{"id": 1}', "bad_request", '"cmd"'),
        ('{"cmd": 5}', "bad_request", '"cmd"'),
        ('{"cmd": "fly"}', "unknown_command", "unknown command 'fly'"),
        ('{"cmd": "legal", "sead": 1}', "bad_request", "legal does not take 'sead'"),
    ],
)
def test_bad_requests_get_a_clear_error(line: str, code: str, words: str) -> None:
    response = ask(ProtocolSession(), line)
    assert response["ok"] is False and response["code"] == code
    assert words in response["error"]


@pytest.mark.parametrize("cmd", ["deal", "legal", "apply", "view", "state", "bot", "hint",
                                 "record", "undo"])
def test_commands_before_a_game_say_how_to_start(cmd: str) -> None:
    response = ask(ProtocolSession(), {"cmd": cmd})
    assert response["code"] == "no_game" and "new_game" in response["error"]


def test_new_game_takes_a_preset_and_rule_changes() -> None:
    session = ProtocolSession()
    made = ok(session, cmd="new_game", preset="classic", rules={"benny": True, "game_to": 5})
    assert made["rules"] == euchre.Rules(benny=True, game_to=5).to_dict()
    assert made["rules_text"] == "benny=yes game_to=5"


@pytest.mark.parametrize(
    ("request_fields", "words"),
    [
        ({"preset": "wild"}, "unknown preset 'wild'"),
        ({"rules": {"jokers": 2}}, "unknown rule 'jokers'"),
        ({"rules": {"game_to": 9}}, "game_to must be one of"),
        ({"rules": ["benny"]}, "rules must be an object"),
        ({"first_dealer": 4}, "first_dealer must be a seat 0-3"),
        ({"first_dealer": True}, "first_dealer must be an integer"),
        ({"seed": 1.5}, "seed must be an integer or a string"),
    ],
)
def test_bad_new_game_requests_keep_the_game(request_fields: dict[str, Any], words: str) -> None:
    session = fixed_session()
    before = state_of(session)
    response = ask(session, {"cmd": "new_game", **request_fields})
    assert not response["ok"] and words in response["error"]
    assert state_of(session) == before


def test_a_fixed_deal_plays_as_the_engine_does() -> None:
    session = fixed_session()
    engine = euchre.deal(euchre.Rules.preset("stick-the-dealer"), 3, README_HANDS, README_KITTY)
    assert ok(session, cmd="legal")["legal"] == [str(a) for a in engine.legal_actions()]
    applied = ok(session, cmd="apply", action="order")
    assert applied["seat"] == 0 and applied["to_act"] == 3 and applied["phase"] == "discard"
    engine = engine.apply("order")
    assert state_of(session)["hand"]["hands"] == [
        [euchre.card_text(c) for c in engine.hand(s)] for s in range(4)]


def test_an_illegal_action_is_refused_with_the_engines_reason_and_changes_nothing() -> None:
    session = fixed_session()
    for action in ("order", "discard 9S", "play QH", "play JD"):
        ok(session, cmd="apply", action=action)
    # a card of the seat to act that the engine refuses (it holds the suit led)
    before = state_of(session)
    to_act = before["to_act"]
    hand = before["hand"]["hands"][to_act]
    legal = set(before["legal"])
    illegal = next(f"play {c}" for c in hand if f"play {c}" not in legal)
    response = ask(session, {"cmd": "apply", "action": illegal})
    assert response == {"ok": False, "code": "illegal", "cmd": "apply",
                        "error": response["error"]}
    assert response["error"].startswith("you must follow")
    assert state_of(session) == before


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"action": "dance"}, "bad_action"),
        ({"action": 3}, "bad_request"),
        ({}, "bad_request"),
        ({"action": "order", "seat": 2}, "illegal"),
        ({"action": "order", "seat": 9}, "bad_request"),
        ({"action": "call H"}, "illegal"),
    ],
)
def test_refused_actions_change_nothing(fields: dict[str, Any], code: str) -> None:
    session = fixed_session()
    before = state_of(session)
    response = ask(session, {"cmd": "apply", **fields})
    assert response["code"] == code and response["error"]
    assert state_of(session) == before


def test_view_is_the_engines_view_and_shows_no_hidden_card() -> None:
    session = fixed_session()
    ok(session, cmd="apply", action="order")
    ok(session, cmd="apply", action="discard 9S")
    engine = euchre.deal(euchre.Rules.preset("stick-the-dealer"), 3, README_HANDS, README_KITTY)
    engine = engine.apply("order").apply("discard 9S")
    for seat in range(4):
        view = ok(session, cmd="view", seat=seat)["view"]
        assert view == json.loads(json.dumps(engine.view(seat).to_json()))
        others = {euchre.card_text(c) for s in range(4) if s != seat for c in engine.hand(s)}
        assert not others & set(view["hand"])
        assert (view["discard"] == "9S") == (seat == 3)


def test_view_needs_a_seat_and_a_hand() -> None:
    session = ProtocolSession()
    ok(session, cmd="new_game")
    assert ask(session, {"cmd": "view", "seat": 0})["code"] == "no_game"
    ok(session, cmd="deal")
    assert "seat" in ask(session, {"cmd": "view"})["error"]
    assert ask(session, {"cmd": "view", "seat": -1})["code"] == "bad_request"


def test_a_seeded_game_deals_the_same_hands_with_commitments() -> None:
    one, two = ProtocolSession(), ProtocolSession()
    for session in (one, two):
        ok(session, cmd="new_game", seed=42, first_dealer=1)
    dealt = ok(one, cmd="deal")
    assert dealt == ok(two, cmd="deal")
    assert dealt["dealer"] == 1 and dealt["hand_number"] == 1
    hand = state_of(one)["hand"]
    assert dealt["commitment"] == commitment(hand["seed"]) == commitment("42:1")
    want = deal_of_seed("42:1", 1)
    assert hand["dealt"] == [[euchre.card_text(c) for c in h] for h in want.hands]
    assert "seed 42:1" in ok(one, cmd="record")["record"]


def test_an_unseeded_game_deals_from_a_fresh_secret_seed() -> None:
    session = ProtocolSession()
    ok(session, cmd="new_game")
    dealt = ok(session, cmd="deal")
    seed = state_of(session)["hand"]["seed"]
    assert len(seed) == 64 and dealt["commitment"] == commitment(seed)


def test_deal_from_a_given_seed_and_pattern() -> None:
    session = ProtocolSession()
    ok(session, cmd="new_game", preset="benny")
    ok(session, cmd="deal", seed="site-seed", pattern="2-3")
    want = deal_of_seed("site-seed", 0, benny=True, pattern="2-3")
    hand = state_of(session)["hand"]
    assert hand["kitty"] == [euchre.card_text(c) for c in want.kitty]
    assert hand["pattern"] == "2-3"


@pytest.mark.parametrize(
    ("fields", "code", "words"),
    [
        ({"hands": README_HANDS[:3], "kitty": README_KITTY}, "bad_deal", "3 hands dealt"),
        ({"hands": README_HANDS, "kitty": ["KH", "AC", "JS"]}, "bad_deal", "kitty has 3"),
        ({"hands": README_HANDS, "kitty": ["KH", "AC", "JS", "KC"]}, "bad_deal", "twice"),
        ({"hands": README_HANDS, "kitty": ["KH", "AC", "JS", "ZZ"]}, "bad_deal", "ZZ"),
        ({"hands": README_HANDS, "kitty": ["KH", "AC", "JS", 5]}, "bad_deal", "a card is"),
        ({"hands": "KC 9D", "kitty": README_KITTY}, "bad_deal", "four lists"),
        ({"hands": README_HANDS}, "bad_deal", "kitty must be"),
        ({"hands": README_HANDS, "kitty": README_KITTY, "seed": "x"}, "bad_request", "not both"),
        ({"pattern": "4-1"}, "bad_request", "pattern"),
        ({"dealer": 2}, "illegal", "seat 3 deals"),
        ({"seed": 7}, "bad_request", "seed must be a string"),
    ],
)
def test_misdeals_are_refused_and_change_nothing(fields: dict[str, Any], code: str,
                                                 words: str) -> None:
    session = ProtocolSession()
    ok(session, cmd="new_game", first_dealer=3)
    before = state_of(session)
    response = ask(session, {"cmd": "deal", **fields})
    assert response["code"] == code and words in response["error"], response
    assert state_of(session) == before


def test_no_second_deal_while_a_hand_is_in_progress() -> None:
    session = fixed_session()
    response = ask(session, {"cmd": "deal"})
    assert response["code"] == "illegal" and "not over" in response["error"]


def test_the_bot_chooses_from_its_own_view() -> None:
    session = fixed_session()
    chosen = ok(session, cmd="bot", level="medium", bot_seed=5)
    engine = euchre.deal(euchre.Rules.preset("stick-the-dealer"), 3, README_HANDS, README_KITTY)
    assert chosen == {"ok": True, "cmd": "bot", "seat": 0,
                      "action": str(make("medium", 5).choose(engine.view(0)))}
    assert state_of(session)["hand"]["history"] == []  # asking does not move


def test_the_bot_can_apply_its_choice() -> None:
    session = fixed_session()
    applied = ok(session, cmd="bot", level="easy", apply=True)
    assert applied["seat"] == 0 and state_of(session)["hand"]["history"] == [
        [0, applied["action"]]]


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"level": "genius"}, "bad_request"),
        ({"level": 3}, "bad_request"),
        ({"seat": 1}, "illegal"),
        ({"apply": "yes"}, "bad_request"),
        ({"bot_seed": "x"}, "bad_request"),
    ],
)
def test_bad_bot_requests_change_nothing(fields: dict[str, Any], code: str) -> None:
    session = fixed_session()
    before = state_of(session)
    assert ask(session, {"cmd": "bot", **fields})["code"] == code
    assert state_of(session) == before


def test_hints_for_the_seat_to_act_best_first() -> None:
    session = fixed_session()
    hint = ok(session, cmd="hint", budget=0.2)
    assert hint["seat"] == 0
    assert {h["action"] for h in hint["hints"]} == set(ok(session, cmd="legal")["legal"])
    assert all(h["text"] for h in hint["hints"])
    assert ask(session, {"cmd": "hint", "seat": 2})["code"] == "illegal"
    assert ask(session, {"cmd": "hint", "budget": 0})["code"] == "bad_request"


def test_undo_takes_back_actions_and_deals() -> None:
    session = fixed_session()
    start = state_of(session)
    ok(session, cmd="apply", action="order")
    after_order = state_of(session)
    ok(session, cmd="apply", action="discard 9S")
    assert ok(session, cmd="undo")["to_act"] == 3
    assert state_of(session) == after_order
    ok(session, cmd="undo")
    assert state_of(session) == start
    undone = ok(session, cmd="undo")
    assert undone["needs_deal"] and undone["hand_number"] == 0
    refused = ask(session, {"cmd": "undo"})
    assert refused["code"] == "illegal" and "only 0" in refused["error"]
    assert ask(session, {"cmd": "undo", "steps": 0})["code"] == "bad_request"


def play_out(session: ProtocolSession, level: str = "random") -> dict[str, Any]:
    """Let the bot play every seat until the game is over; return the open state."""
    while True:
        legal = ok(session, cmd="legal")
        if legal["game_over"]:
            return state_of(session)
        if legal["needs_deal"]:
            ok(session, cmd="deal")
        else:
            ok(session, cmd="bot", level=level, apply=True)


def test_a_whole_game_reports_tricks_hands_and_the_winner() -> None:
    session = ProtocolSession()
    ok(session, cmd="new_game", preset="kitchen-table", seed="whole", first_dealer=2)
    tricks = hands = 0
    while not ok(session, cmd="legal")["game_over"]:
        if ok(session, cmd="legal")["needs_deal"]:
            ok(session, cmd="deal")
            continue
        result = ok(session, cmd="bot", level="random", apply=True)
        if result["trick"] is not None:
            tricks += 1
            assert len(result["trick"]["cards"]) in (2, 3, 4)
        hands += result["hand_over"]
    state = state_of(session)
    assert state["game_over"] and max(state["score"]) >= 10
    record = GameRecord.from_text(ok(session, cmd="record")["record"])
    game = record.replay()
    assert list(game.score) == state["score"] and game.winner == state["winner"]
    assert hands == len(game.all_hands())
    assert tricks == sum(len(h.tricks) for h in game.all_hands())
    assert all(h.seed for h in record.hands)
    assert ask(session, {"cmd": "bot"})["error"] == "no seat is to act: the game is over"


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_record_and_load_round_trip_with_undo(fmt: str) -> None:
    session = ProtocolSession()
    ok(session, cmd="new_game", preset="stick-the-dealer", seed=9)
    ok(session, cmd="deal")
    for _ in range(7):
        ok(session, cmd="bot", level="random", apply=True)
    record = ok(session, cmd="record", format=fmt)["record"]
    other = ProtocolSession()
    loaded = ok(other, cmd="load", record=record)
    assert loaded["hands"] == 1 and loaded["to_act"] == state_of(session)["to_act"]
    assert state_of(other) == state_of(session)
    ok(session, cmd="undo", steps=3)
    ok(other, cmd="undo", steps=3)
    assert state_of(other) == state_of(session)


def test_load_takes_a_json_string_too() -> None:
    session = fixed_session()
    ok(session, cmd="apply", action="order")
    text = json.dumps(ok(session, cmd="record", format="json")["record"])
    assert ok(ProtocolSession(), cmd="load", record=text)["to_act"] == 3


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ("not a record", "not a euchre record"),
        ({"format": "chess"}, "not a euchre record"),
        (5, 'load needs "record"'),
        ("euchre-record 1\nrules classic\nhand 1\ndealer 0\n"
         "hands KC 9D AD TH QH | 9C JD QD 9H KS | TC JC KD AH AS | QC TD JH 9S TS\n"
         "kitty KH AC JS QS\n2 pass\n", "out of turn"),
    ],
)
def test_a_bad_record_is_refused_and_the_game_kept(record: Any, words: str) -> None:
    session = fixed_session()
    before = state_of(session)
    response = ask(session, {"cmd": "load", "record": record})
    assert not response["ok"] and words in response["error"]
    assert state_of(session) == before


def test_quit_closes_the_session() -> None:
    session = ProtocolSession()
    assert ok(session, cmd="quit")["bye"] is True
    assert session.closed


def test_random_requests_never_crash() -> None:
    """Any mix of requests gets exactly one JSON object back, ok or not."""
    rng = random.Random(3)
    session = ProtocolSession()
    words = ["new_game", "deal", "legal", "apply", "view", "state", "bot", "undo", "record",
             "load", "info", "x"]
    values: list[Any] = [None, 0, 1, 5, -1, True, "play JH", "pass", "order", [], {}, "3-2"]
    fields = ["seat", "action", "level", "steps", "format", "pattern", "record", "first_dealer"]
    for _ in range(400):
        request: dict[str, Any] = {"cmd": rng.choice(words)}
        for _ in range(rng.randrange(3)):
            request[rng.choice(fields)] = rng.choice(values)
        if request["cmd"] == "bot":
            request["level"] = "random"
        response = ask(session, request)
        assert isinstance(response["ok"], bool)
        assert response["ok"] or response["error"]


def test_json_nested_too_deeply_is_refused() -> None:
    response = ask(ProtocolSession(), "[" * 100_000)
    assert response["code"] == "bad_json" and "nested too deeply" in response["error"]


def test_a_bug_in_a_command_is_an_error_response_not_a_crash(
        monkeypatch: pytest.MonkeyPatch) -> None:
    session = fixed_session()
    before = state_of(session)

    def broken(*args: Any) -> Any:
        raise KeyError("oops")

    monkeypatch.setattr("euchre.engine_protocol.session.action_result", broken)
    response = ask(session, {"id": 4, "cmd": "apply", "action": "order"})
    assert response["id"] == 4 and response["code"] == "internal"
    assert "KeyError" in response["error"]
    assert state_of(session) == before


def test_the_public_record_leaves_out_the_hand_in_progress() -> None:
    session = ProtocolSession()
    ok(session, cmd="new_game", seed="pub")
    ok(session, cmd="deal")
    while not ok(session, cmd="bot", level="random", apply=True)["hand_over"]:
        pass
    ok(session, cmd="deal")  # hand 2 is in progress
    full = GameRecord.from_text(ok(session, cmd="record")["record"])
    public = GameRecord.from_text(ok(session, cmd="record", public=True)["record"])
    assert len(full.hands) == 2 and full.hands[1].seed == "pub:2"
    assert len(public.hands) == 1 and public.hands[0].seed == "pub:1"
    assert "pub:2" not in json.dumps(ok(session, cmd="record", format="json", public=True))
    assert ask(session, {"cmd": "record", "public": 1})["code"] == "bad_request"


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_bot_and_view_ignore_cards_the_seat_cannot_see(level: str) -> None:
    """Swap cards between the other hands and the kitty: seat 0's view and bot do not change."""
    other_hands = [README_HANDS[0], README_HANDS[2], README_HANDS[1], README_HANDS[3]]
    other_kitty = [README_KITTY[0], README_KITTY[2], README_KITTY[3], README_KITTY[1]]
    answers = []
    for hands, kitty in ((README_HANDS, README_KITTY), (other_hands, other_kitty)):
        session = ProtocolSession()
        ok(session, cmd="new_game", first_dealer=3)
        ok(session, cmd="deal", hands=hands, kitty=kitty)
        answers.append((ok(session, cmd="view", seat=0),
                        ok(session, cmd="bot", level=level, bot_seed=1)))
    assert answers[0] == answers[1]
