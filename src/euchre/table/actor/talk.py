"""A word to the table: a few fixed quick messages, within the laws (issue 36 item 6).

Table law 10 (doc 002: "table talk, signals and remarks about your hand are not allowed")
is kept by what a message can be and when it can be sent: one of :data:`QUICK_MESSAGES`,
none of which says anything about cards, and only while no hand is in play (before the
first deal, between a hand's result and the next deal, after the game). No free text
ever reaches the table. Only a person in their own seat says one; computers and outside
bots do not (a program's messages would be noise, and nobody reads them for it). Each
seat may send :data:`TALK_BURST` messages in any :data:`TALK_WINDOW` seconds. A table
whose creator chose silence (``extra["talk"]`` false) takes none.

:func:`refusal` says why a message is refused (None: it may be said); the table actor
asks it and publishes a :class:`~.wire.SayEvent` to everyone, spectators included.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from typing import Any

from ...game import GameState
from .errors import TableError
from .seats import Seat

QUICK_MESSAGES: Mapping[str, str] = {
    "hello": "Hello",
    "good_game": "Good game",
    "thanks": "Thanks",
    "well_played": "Well played",
    "brb": "Be right back",
}
"""Every message that may be said, by id, with its words: none carries anything about
cards (the web client shows the same words, ``static/js/talk.js``)."""

TALK_BURST = 3
"""Messages a seat may send in any :data:`TALK_WINDOW`."""

TALK_WINDOW = 20.0
"""Seconds over which :data:`TALK_BURST` is counted."""

IN_PLAY_TEXT = ("no table talk while a hand is in play (table law 10): messages can be sent "
                "before the first deal, between hands and after the game")
"""The refusal of a message while a hand is in play."""

SILENT_TEXT = "this table is silent: its creator turned quick messages off"
"""The refusal of a message at a table whose creator chose silence."""

NO_TALK_TEXT = "quick messages are for tables of people (online tables)"
"""The refusal of a message at a kind of table without talk (practice, coin)."""

PEOPLE_ONLY_TEXT = "quick messages are sent by people: an outside bot does not send them"
"""The refusal of a message from an outside bot's seat."""


class TalkOff(TableError):
    """The table takes no messages: its creator chose silence, or its kind has none."""

    code = "talk_off"


class TalkInPlay(TableError):
    """A hand is in play: no table talk (law 10)."""

    code = "talk_in_play"


class TalkTooFast(TableError):
    """The seat sent :data:`TALK_BURST` messages within the last :data:`TALK_WINDOW`."""

    code = "talk_rate"


class TalkPeopleOnly(TableError):
    """An outside bot's seat sent a message."""

    code = "talk_people_only"


class UnknownMessage(TableError):
    """The id is not one of :data:`QUICK_MESSAGES`."""

    code = "bad_message"


def is_silent(extra: Mapping[str, Any]) -> bool:
    """Whether a table's settings say its creator chose silence."""
    return extra.get("talk", True) is False


def in_play(game: GameState, closed: str | None) -> bool:
    """Whether a hand is in play: dealt and not over, the game going on."""
    hand = game.current
    return closed is None and not game.is_over and hand is not None and not hand.is_over


class Talk:
    """When each seat last spoke, for the rate (the table's own clock's times)."""

    def __init__(self) -> None:
        """Nobody has spoken."""
        self._said: dict[int, deque[float]] = {}

    def refusal(self, *, seat: int, message: str, sitting: Seat, game: GameState,
                closed: str | None, allowed: bool, silent: bool,
                now: float) -> TableError | None:
        """Why ``sitting`` at ``seat`` may not say ``message`` now (None: they may). The
        seat is a person's (the actor checked); ``allowed``: the kind of table has talk;
        ``silent``: its creator chose silence."""
        if message not in QUICK_MESSAGES:
            return UnknownMessage(
                f"unknown message {message!r}: say one of {', '.join(QUICK_MESSAGES)}")
        if not allowed:
            return TalkOff(NO_TALK_TEXT)
        if silent:
            return TalkOff(SILENT_TEXT)
        if sitting.is_outside_bot():
            return TalkPeopleOnly(PEOPLE_ONLY_TEXT)
        if in_play(game, closed):
            return TalkInPlay(IN_PLAY_TEXT)
        said = self._recent(seat, now)
        if len(said) >= TALK_BURST:
            wait = max(1, math.ceil(said[0] + TALK_WINDOW - now))
            return TalkTooFast(f"too many messages: at most {TALK_BURST} every "
                               f"{TALK_WINDOW:g} seconds; try again in {wait} s")
        return None

    def said(self, seat: int, now: float) -> None:
        """``seat`` spoke at ``now``."""
        self._recent(seat, now).append(now)

    def _recent(self, seat: int, now: float) -> deque[float]:
        """``seat``'s messages within the window before ``now`` (older ones dropped)."""
        said = self._said.setdefault(seat, deque())
        while said and said[0] <= now - TALK_WINDOW:
            said.popleft()
        return said
