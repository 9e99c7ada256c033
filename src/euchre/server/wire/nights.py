"""Euchre nights in a room (host mode): the host's requests, a table's entries, the answers."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from msgspec import Struct

from .common import Request


class NightRequest(Request):
    """``POST /api/nights``: a new euchre night with the names in the room."""

    name: str
    """The night's name (1-80 characters)."""
    names: list[str]
    """The people in the room, one name each: a multiple of four, 4 to 64."""
    rounds: int = 4
    """Rounds to play (1-16); partners change every round."""
    hands: int = 8
    """Hands in each round (1-16; commonly 8, each player dealing twice)."""
    loner_bonus: bool = False
    """5 to a lone player who takes all five, 4 to the partner; 3 each for setting a loner."""
    movement: Literal["rotating", "kings"] = "rotating"
    """``rotating``: partners change by the schedule (the most different partners);
    ``kings``: king's table (winners move up a table and split, losers move down)."""

    what: ClassVar[str] = "a euchre night"
    refusals: ClassVar[dict[str, Any]] = {
        "name": "name must be the night's name (a string)",
        "names": "names must be a list of names",
        "rounds": "rounds must be a whole number from 1 to 16",
        "hands": "hands must be a whole number from 1 to 16",
        "loner_bonus": "loner_bonus must be true or false",
        "movement": "movement must be rotating or kings",
    }


class NamesRequest(Request):
    """``PUT /api/nights/{id}/people``: the names, while the night is registering."""

    names: list[str]
    """The people in the room, in order."""

    what: ClassVar[str] = "the night's names"
    refusals: ClassVar[dict[str, Any]] = {"names": "names must be a list of names"}


class HandEntry(Request):
    """``POST /api/score/{code}/hands``: one hand of the round, from the table's phone."""

    by_pair: int
    """Who enters it: 0 the pair in seats 0 and 2, 1 the pair in seats 1 and 3."""
    hand: int
    """The hand's number in the round, from 1 (entering it again replaces it)."""
    makers: int
    """The pair that made trump (0 or 1, as ``by_pair``)."""
    tricks: int
    """Tricks the makers took, 0-5."""
    lone_seat: int | None = None
    """The seat (0-3) of a maker who went alone, or null."""

    what: ClassVar[str] = "a hand"
    refusals: ClassVar[dict[str, Any]] = {
        "by_pair": "by_pair must be 0 or 1", "hand": "hand must be a number",
        "makers": "makers must be 0 or 1", "tricks": "tricks must be a number 0 to 5",
        "lone_seat": "lone_seat must be a seat 0-3, or null",
    }


class ConfirmRequest(Request):
    """``POST /api/score/{code}/confirm``: the other pair confirms the table's card."""

    by_pair: int
    """The confirming pair (0 or 1): not the pair that entered the newest hand."""

    what: ClassVar[str] = "a confirmation"
    refusals: ClassVar[dict[str, Any]] = {"by_pair": "by_pair must be 0 or 1"}


class CorrectionRequest(Request):
    """``POST /api/nights/{id}/corrections``: the host enters or corrects any hand."""

    round: int
    """The round (1 to the round being played)."""
    table: int
    """The table's number in that round, from 1."""
    hand: int
    """The hand's number, from 1."""
    makers: int
    """0: seats 0 and 2 made trump; 1: seats 1 and 3."""
    tricks: int
    """The makers' tricks, 0-5."""
    lone_seat: int | None = None
    """The seat of a maker who went alone, or null."""

    what: ClassVar[str] = "a correction"
    refusals: ClassVar[dict[str, Any]] = {
        "round": "round must be a number", "table": "table must be a number",
        "hand": "hand must be a number", "makers": "makers must be 0 or 1",
        "tricks": "tricks must be a number 0 to 5",
        "lone_seat": "lone_seat must be a seat 0-3, or null",
    }


class NightCreated(Struct):
    """A new night, registering."""

    id: str
    url: str
    """The night's page."""


class NightSummary(Struct):
    """One of the host's nights."""

    id: str
    name: str
    status: str
    current_round: int
    rounds: int


class NightList(Struct):
    """The signed-in host's nights, newest first."""

    nights: list[NightSummary]


class NightTable(Struct):
    """A table of a round: who sits where and how its card stands."""

    table: int
    seats: list[str]
    """Names in seats 0-3: seats 0 and 2 are partners against 1 and 3."""
    hands_entered: int
    side_points: list[int]
    """Points of the pair in seats 0 and 2, and of the pair in seats 1 and 3 (no bonuses)."""
    confirmed_by: str | None
    """The pair that confirmed the card as it stands, or null."""
    code: str | None
    """The table's scoring code for this round (for the host only)."""


class NightRound(Struct):
    """One round's tables."""

    round: int
    tables: list[NightTable]


class NightStanding(Struct):
    """One line of the standings."""

    place: int
    """Shared by people equal on every tie-break."""
    name: str
    points: int
    rounds: list[int]
    """Points in each round."""
    loners_made: int
    euchred: int


class NightState(Struct):
    """A euchre night: settings, each round's tables, the standings."""

    id: str
    name: str
    status: str
    """``registering``, ``playing`` or ``finished``."""
    rounds: int
    hands: int
    loner_bonus: bool
    movement: str
    """``rotating`` or ``kings``."""
    current_round: int
    people: list[str]
    is_host: bool
    tie_breaks: list[str]
    """The order of the standings, in words."""
    round_tables: list[NightRound]
    standings: list[NightStanding]


class CardHand(Struct):
    """A hand on a table's card (the newest entry of it)."""

    hand: int
    makers: int
    tricks: int
    lone_seat: int | None
    by: str
    """Who entered or corrected it."""
    points: list[int]
    """Points to the people in seats 0-3."""


class TableCard(Struct):
    """A table's card, as its phone shows it."""

    night: str
    name: str
    round: int
    table: int
    hands_per_round: int
    loner_bonus: bool
    open: bool
    """Whether hands can still be entered from the table (the round is being played)."""
    seats: list[str]
    hands: list[CardHand]
    confirmed_by: str | None


class LogEntry(Struct):
    """A row of the night's log: an entry, a correction or a confirmation."""

    kind: str
    round: int
    table: int
    hand: int | None
    makers: int | None
    tricks: int | None
    lone_seat: int | None
    by: str
    at: str
    id: int


class NightLog(Struct):
    """Every entry, correction and confirmation of a night, oldest first."""

    entries: list[LogEntry]
