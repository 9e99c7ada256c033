"""Unit tests of ``euchre.table.actor.talk``: when a quick message may be said (the actor's tests
with real tables are ``tests/online/test_talk_rules.py``)."""

from __future__ import annotations

from euchre.game import GameState
from euchre.rules import Rules
from euchre.table.actor.seats import HUMAN, Seat
from euchre.table.actor.talk import (
    QUICK_MESSAGES,
    TALK_BURST,
    TALK_WINDOW,
    Talk,
    TalkInPlay,
    TalkOff,
    TalkPeopleOnly,
    TalkTooFast,
    UnknownMessage,
    in_play,
    is_silent,
)

PERSON = Seat(HUMAN, "Ann")
BOT = Seat(HUMAN, "annbot", bot_token=3)


def _refusal(talk: Talk, message: str = "hello", sitting: Seat = PERSON,
             game: GameState | None = None, *, allowed: bool = True, silent: bool = False,
             now: float = 0.0) -> object:
    return talk.refusal(seat=0, message=message, sitting=sitting,
                        game=game or GameState(Rules(), 0), closed=None, allowed=allowed,
                        silent=silent, now=now)


def test_before_the_first_deal_a_person_may_say_each_message() -> None:
    for message in QUICK_MESSAGES:
        assert _refusal(Talk(), message) is None


def test_the_refusals_and_their_order() -> None:
    talk = Talk()
    assert isinstance(_refusal(talk, "right bower", allowed=False), UnknownMessage)
    assert isinstance(_refusal(talk, allowed=False), TalkOff)
    assert isinstance(_refusal(talk, silent=True), TalkOff)
    assert isinstance(_refusal(talk, sitting=BOT), TalkPeopleOnly)
    dealt = GameState(Rules(), 0).deal(list(range(24)))
    assert in_play(dealt, None) and not in_play(dealt, "left")
    assert isinstance(_refusal(talk, game=dealt), TalkInPlay)


def test_the_rate_counts_a_sliding_window_per_seat() -> None:
    talk = Talk()
    for i in range(TALK_BURST):
        assert _refusal(talk, now=float(i)) is None
        talk.said(0, float(i))
    refused = _refusal(talk, now=5.0)
    assert isinstance(refused, TalkTooFast)
    assert str(refused).endswith(f"try again in {TALK_WINDOW - 5:g} s")
    assert talk.refusal(seat=1, message="hello", sitting=PERSON, game=GameState(Rules(), 0),
                        closed=None, allowed=True, silent=False, now=5.0) is None
    assert _refusal(talk, now=TALK_WINDOW) is None  # the first left the window


def test_silence_is_read_from_the_tables_settings() -> None:
    assert is_silent({"talk": False})
    assert not is_silent({}) and not is_silent({"talk": True})
