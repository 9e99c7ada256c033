"""The online tables' models: open a table, claim a seat, start the game, the lists."""

from __future__ import annotations

import math
from typing import Annotated, Any, ClassVar, Literal

from msgspec import UNSET, Meta, Struct, UnsetType

from ...coins.rules import STAKES
from ...rules import Rules
from ...table.kinds.names import check_display_name
from ...table.kinds.online import DEFAULT_LEVEL, DEFAULT_SECONDS, MAX_SECONDS, MIN_SECONDS
from .common import (
    Level,
    PresetName,
    Request,
    RuleChanges,
    level_of,
    level_refusal,
    preset_of,
    preset_refusal,
)
from .tables import MAX_NAME, DisplayName, SeatNumber, checked_rules

_SECONDS = f"seconds_per_move must be a number from {MIN_SECONDS:g} to {MAX_SECONDS:g}"
_NAME = f"name must be 1 to {MAX_NAME} characters"
_STAKE = "stake must be 0 (no stake) or one of " + ", ".join(str(s) for s in STAKES) + " coins"


def display_name(value: str) -> str:
    """A display name: 1 to 24 printable characters once trimmed, that could not pass for
    a seat or a computer; else a refusal."""
    name = value.strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(_NAME)
    if not name.isprintable():
        raise ValueError("name must be printable characters")
    return check_display_name(name)


class OnlineTableRequest(Request):
    """``POST /api/tables`` of kind ``online``: the creator sits South."""

    kind: Literal["online"]
    """The table kind."""
    preset: PresetName = "classic"
    rules: RuleChanges | None = None
    seconds_per_move: Annotated[float, Meta(ge=MIN_SECONDS, le=MAX_SECONDS)] = DEFAULT_SECONDS
    """Each person's clock for one move."""
    level: Level = DEFAULT_LEVEL
    """The computer players that fill free seats at the start."""
    name: Annotated[DisplayName, Meta(
        description="Not a seat's or a computer's name (North, Computer, Ann (hard) ...)."
    )] = "Host"
    """The creator's name (a signed-in person plays under their account's name instead)."""
    rated: bool = False
    """A rated table: signed-in people only (with the X-CSRF-Token header), starts with four
    people, updates their ratings when the game ends."""
    spectators: bool = True
    """Whether people not seated may watch the game live (false: a watch is refused). Not
    the same as ``private``: a private table may be watched by its link."""
    private: bool = False
    """A private table: never listed (lobby, its socket, ``GET /api/online``), reached only
    by its link; false: listed for anyone to join."""
    stake: int = 0
    """Play coins each person stakes (0: none; else one of the coin tables' stakes): for
    signed-in people whose balance covers it (with the X-CSRF-Token header); taken when
    the game starts, the winners share the pot."""
    allow_bots: bool = False
    """At a rated table: outside bots may sit and are rated with the people (off by
    default: a rated table refuses bots). Unrated tables always take bots."""
    talk: bool = True
    """Whether the people seated may send quick messages ("Hello", "Good game" ...) before
    the first deal, between hands and after the game (false: a silent table)."""

    what: ClassVar[str] = "online tables"
    refusals: ClassVar[dict[str, Any]] = {
        "preset": preset_refusal,
        "rules": "rules must be an object of rule name to value",
        "seconds_per_move": _SECONDS,
        "level": level_refusal("level"),
        "name": _NAME,
        "rated": "rated must be true or false",
        "spectators": "spectators must be true or false",
        "private": "private must be true or false",
        "stake": _STAKE,
        "allow_bots": "allow_bots must be true or false",
        "talk": "talk must be true or false",
    }

    def __post_init__(self) -> None:
        if self.stake != 0 and self.stake not in STAKES:
            raise ValueError(_STAKE)
        self.preset = preset_of(self.preset)
        if not math.isfinite(self.seconds_per_move):
            raise ValueError(_SECONDS)
        self.seconds_per_move = float(self.seconds_per_move)
        self.level = level_of("level", self.level)
        self.name = display_name(self.name)
        self.rules = checked_rules(self.preset, self.rules)


class SeatRequest(Request):
    """``POST /api/tables/{id}/seats``: claim a free seat with a name (a signed-in person
    sits under their account's name, and may leave it out)."""

    seat: SeatNumber
    name: DisplayName | None = None

    what: ClassVar[str] = "a seat claim"
    refusals: ClassVar[dict[str, Any]] = {
        "seat": "seat must be 0 (South), 1 (West), 2 (North) or 3 (East)",
        "name": _NAME,
    }

    @classmethod
    def unknown_field(cls, name: str) -> str:
        """The refusal of a field a seat claim does not take."""
        return f"unknown field {name!r}: give seat and name"

    def __post_init__(self) -> None:
        if self.name is not None:
            self.name = display_name(self.name)


class QuickRequest(Request):
    """``POST /api/online/quick``: ``Play now``. A seat at the oldest waiting quick-play
    table with the same preset, clock, stake and rated flag, or a new one."""

    preset: PresetName = "classic"
    seconds_per_move: Annotated[float, Meta(ge=MIN_SECONDS, le=MAX_SECONDS)] = DEFAULT_SECONDS
    """Each person's clock for one move."""
    stake: Annotated[int, Meta(extra_json_schema={"enum": [0, *STAKES]})] = 0
    """Play coins each person stakes (0: none; signed-in people only)."""
    rated: bool = False
    """Rated: signed-in people only (with the X-CSRF-Token header), four of them."""
    name: Annotated[DisplayName, Meta(
        description="A guest's name (a signed-in person plays under their account's name)."
    )] | None = None

    what: ClassVar[str] = "Play now"
    refusals: ClassVar[dict[str, Any]] = {
        "preset": preset_refusal,
        "seconds_per_move": _SECONDS,
        "stake": _STAKE,
        "rated": "rated must be true or false",
        "name": _NAME,
    }

    def __post_init__(self) -> None:
        self.preset = preset_of(self.preset)
        if not math.isfinite(self.seconds_per_move):
            raise ValueError(_SECONDS)
        self.seconds_per_move = float(self.seconds_per_move)
        if self.stake not in (0, *STAKES):
            raise ValueError(_STAKE)
        if self.name is not None:
            self.name = display_name(self.name)


class QuickSeat(Struct):
    """A seat found (or a table opened) by ``Play now``, and its token."""

    id: str
    seat: SeatNumber
    token: str | None
    """The seat's token; null when the signed-in person already waited at a matching
    table (their account opens that seat from any browser)."""
    url: str
    """The table's waiting page."""
    table_url: str
    ws: str
    status: Literal["open", "started"]
    """``started`` when this person was the fourth and the game began."""
    opened: bool
    """Whether no table matched and a new one was opened."""


class StartRequest(Struct):
    """``POST /api/tables/{id}/start``: the creator's token."""

    token: str | None = None


class TokenRequest(Struct):
    """``POST /api/online/{id}/leave`` or ``/cancel``: the token of the seat held."""

    token: str | None = None


class SeatLeft(Struct):
    """A seat given up before the start: the table's id and the seat, free again."""

    id: str
    seat: SeatNumber
    gone: bool = False
    """Whether the table went (a quick-play table left empty)."""


class FillAgreed(Struct):
    """A person agreed to fill free seats with computers; the table as it now is
    (``status`` ``started`` once everyone seated agreed)."""

    id: str
    seat: SeatNumber
    table: OnlineTable


class GameLeft(Struct):
    """A started game left: a computer (expert) plays the seat to the end. At a stake
    table the stake is forfeit and the leaving fee charged, once however often asked."""

    id: str
    seat: SeatNumber
    left: bool
    """Always true: the seat is played by a computer now."""
    already: bool
    """True when the seat had been left (or replaced) already: nothing more happened."""
    stake: int
    """The table's stake (0: none)."""
    stake_forfeit: int
    """The stake lost by leaving (0 at a table with no stake)."""
    fee: int
    """The leaving fee charged (10% of the stake rounded up, in full)."""
    balance: int | None = None
    """The leaver's balance after, when the request is signed in as them."""


class SeatRating(Struct):
    """A rating: the ``number`` people read, and the openskill figures it comes from: skill
    ``mu``, its uncertainty ``sigma`` (one standard deviation), ``ordinal`` = mu - 3 sigma;
    rated games finished."""

    number: int
    """The rating people read: 1500 + 60 (mu - 25), rounded (docs/ratings.md)."""
    mu: float
    sigma: float
    ordinal: float
    games: int
    provisional: bool
    """Not listed on the leaderboard yet (too few rated games or opponents). Required, so
    that no answer can show a rating without saying whether it is provisional."""


class OnlineSeat(Struct):
    """A seat of an open online table."""

    seat: SeatNumber
    position: str
    name: str | None
    taken: bool
    signed_in: bool = False
    """Whether a signed-in person sits here (else a guest, or free)."""
    fill: bool = False
    """Whether the person here agreed to fill free seats with computers (quick play)."""
    rating: SeatRating | None = None
    """A signed-in person's rating (null: unrated, or a guest)."""
    bot: bool | UnsetType = UNSET
    """``true`` when an outside bot (a program with a bot token) sits here (absent
    otherwise)."""


class OnlineTable(Struct):
    """An online table as anyone may see it (never a token)."""

    id: str
    status: Literal["open", "started", "cancelled"]
    rated: bool
    """Whether the table is rated (shown before anyone joins)."""
    spectators: bool
    """Whether people not seated may watch the game (``watch`` on its socket)."""
    private: bool
    """A private table: never listed, reached only by its link (false: listed)."""
    stake: int
    """Play coins each person stakes to sit (0: none); the winners share the pot."""
    preset: str
    rules: Rules
    rules_text: list[str]
    seconds_per_move: float
    level: str
    seats: list[OnlineSeat]
    free: int
    url: str
    pot: int = 0
    """Coins in the pot once started (the stake times the people seated at the start)."""
    invite: str | None = None
    """The link to send to the people invited (its waiting page on the site's address)."""
    table_url: str | None = None
    """The table's page (once started)."""
    watch: str | None = None
    """The page to watch the game on (a started table open to spectators)."""
    quick: bool = False
    """A quick-play table (``Play now``): starts by itself, no creator."""
    allow_bots: bool | UnsetType = UNSET
    """``true`` at a rated table where outside bots may sit (and be rated with the people):
    everyone who sits there accepts it (absent elsewhere). Other rated tables refuse bots."""
    talk: bool = True
    """Whether the people seated may send quick messages between hands (false: its creator
    chose a silent table)."""


class OnlineTables(Struct):
    """The online tables waiting for their start, newest first, a page at a time."""

    tables: list[OnlineTable]
    next: str | None = None
    """The cursor of the next page (null: the last page)."""


class OnlineListing(Struct):
    """Whether the lobby lists an online table: the watch page asks this rather than
    ``GET /api/online/{id}``, so a table that is not (or no longer) listed is an answer,
    not a refused request the browser reports as an error."""

    table: OnlineTable | None
    """The table's seats and status, or null: no open or recent table has that id."""
    seat_refused: str | None = None
    """Why a seat here would be refused to the asker before they claim one (someone seated
    at this rated table plays from their address or browser: the ``same_origin`` refusal),
    or null. The seat claim checks again; the page asks first so a refusal it can foresee
    is no failed request."""


class SeatTaken(Struct):
    """A seat at an online table and its token."""

    id: str
    seat: SeatNumber
    token: str
    url: str
    table_url: str
    invite: str
    ws: str
