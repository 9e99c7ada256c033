"""Online tournaments: the creator's request, registration, and the answers pages show."""

from __future__ import annotations

import datetime as dt
from typing import Any, ClassVar, Literal

import msgspec
from msgspec import Struct

from .common import Request


class TournamentRequest(Request):
    """``POST /api/tournaments``: a new tournament at the site's tables: progressive, or a
    team event of fixed pairs."""

    name: str
    """The tournament's name (1-80 characters)."""
    format: Literal["progressive", "round_robin", "swiss", "single_elimination",
                    "double_elimination"] = "progressive"
    """Progressive (rotating partners), or fixed pairs in a round robin, Swiss rounds, or
    single or double elimination."""
    preset: str = "classic"
    """The rules preset."""
    rules: dict[str, Any] = {}  # noqa: RUF012  (msgspec copies mutable defaults)
    """House rules: changes to the preset, by rule name."""
    hands: int = 8
    """Hands a round (1-16): the round ends when they are played out."""
    rounds: int = 4
    """Rounds (1-16); partners change every round."""
    seconds_per_move: float = 30.0
    """Each person's move clock (5-600 s)."""
    movement: Literal["rotating", "kings"] = "rotating"
    """``rotating``: the most different partners; ``kings``: king's table."""
    loner_bonus: bool = False
    """5 to a lone player who takes all five, 4 to the partner; 3 each for setting a loner."""
    level: Literal["easy", "medium", "hard", "expert"] = "medium"
    """The computers that fill the count and play for absent people."""
    starts_at: dt.datetime | None = None
    """When it starts (ISO 8601 with a zone; null: when the creator starts it)."""
    private: bool = False
    """By invitation: listed nowhere, reached by its link."""
    allow_bots: bool = False
    """Whether outside bots may register."""
    late_comers: bool = False
    """Whether someone may take a computer's place between rounds."""
    entry_fee: int = 0
    """Play coins each entrant pays into the tournament's pool (0: free)."""
    prize_table: list[int] = msgspec.field(default_factory=lambda: [50, 30, 20])
    """With an entry fee: each paid place's whole percentage of the pool, first place
    first (at most 100 in all; the rest is the house's)."""
    fill_to: int = 0
    """The least field (a multiple of four, up to 64): computers fill up to it at the start
    (0: only to the next multiple of four)."""
    game_to: int = 0
    """Team events: each match a game to 5, 7, 10 or 11 points (0: a round of ``hands``
    hands)."""
    rated: bool = False
    """Team events: rate the games of four people (progressive events are never rated)."""
    round_minutes: int | None = None
    """A round's time limit in minutes (1-240; null: none): when it passes, each table of
    the round finishes the hand in play and ends."""

    what: ClassVar[str] = "a tournament"
    refusals: ClassVar[dict[str, Any]] = {
        "name": "name must be the tournament's name (a string)",
        "format": "format must be progressive, round_robin, swiss, single_elimination or "
                  "double_elimination",
        "preset": "preset must be a preset's name",
        "rules": "rules must be an object of rule changes",
        "hands": "hands must be a whole number from 1 to 16",
        "rounds": "rounds must be a whole number from 1 to 16",
        "seconds_per_move": "seconds_per_move must be a number of seconds",
        "movement": "movement must be rotating or kings",
        "loner_bonus": "loner_bonus must be true or false",
        "level": "level must be easy, medium, hard or expert",
        "starts_at": "starts_at must be a date and time (ISO 8601, with a zone) or null",
        "private": "private must be true or false",
        "allow_bots": "allow_bots must be true or false",
        "late_comers": "late_comers must be true or false",
        "entry_fee": "entry_fee must be a whole number of coins",
        "prize_table": "prize_table must be a list of whole percentages, first place first",
        "fill_to": "fill_to must be 0 or a multiple of four up to 64",
        "game_to": "game_to must be 0 or a game's length in points (5, 7, 10 or 11)",
        "rated": "rated must be true or false",
        "round_minutes": "round_minutes must be a whole number of minutes from 1 to 240, or "
                         "null for no time limit",
    }


class TournamentCreated(Struct):
    """A new tournament's id and page."""

    id: str
    url: str


class Registered(Struct):
    """A registration: the seat token (shown once; an outside bot joins its tables with it,
    a person's session opens their seats anyway)."""

    id: str
    token: str
    url: str


class TournamentSummary(Struct):
    """One tournament in a list."""

    id: str
    name: str
    format: str
    status: str
    """``registering``, ``playing``, ``finished`` or ``cancelled``."""
    url: str
    starts_at: str
    preset: str
    hands: int
    rounds: int
    current_round: int
    movement: str
    seconds_per_move: float
    loner_bonus: bool
    private: bool
    allow_bots: bool
    entry_fee: int
    """Play coins each entrant pays into the pool (0: free)."""
    fill_to: int
    """The least field: computers fill up to it."""
    round_minutes: int | None
    """A round's time limit in minutes (null: none)."""
    round_ends_at: str | None
    """While a round with a time limit is played: when its time is up (its tables then
    finish the hand in play and end)."""
    rated: bool
    """Whether a team event's games of four people are rated (progressive: never)."""
    people: int
    """People (and outside bots) registered."""
    field: int
    """Everyone in the schedule, computers included (0 until the start)."""
    format_name: str
    """The format in words ("Round robin (fixed pairs)")."""
    game_to: int
    """A team event's game length in points (0: a round of ``hands`` hands)."""


class TournamentList(Struct):
    """Public tournaments open for registration and running now (and the asker's own)."""

    open: list[TournamentSummary]
    running: list[TournamentSummary]


class Entrant(Struct):
    """Someone registered."""

    name: str
    kind: str
    """``person`` or ``bot``."""
    number: int | None
    from_round: int


class RoundTableState(Struct):
    """A table of a round."""

    table: int
    table_id: str
    watch: str
    play: str
    seats: list[str]
    """Names in seats 0-3 (seats 0 and 2 partners)."""
    over: bool
    side_points: list[int]
    """Points of seats 0 and 2, and of seats 1 and 3 (a team event: the game's score)."""
    match: str | None = None
    """An elimination match's name in the bracket (``W1.1``, ``L2.1``, ``GF``)."""
    winner: int | None = None
    """A team event's finished match: the side that won (0: seats 0 and 2), null if level."""


class RoundState(Struct):
    """A round's tables."""

    round: int
    tables: list[RoundTableState]


class TournamentStanding(Struct):
    """One line of the standings."""

    place: int
    name: str
    kind: str
    points: int
    rounds: list[int]
    loners_made: int
    euchred: int


class PoolPrize(Struct):
    """A finisher's prize, once the pool is paid."""

    name: str
    place: int | None
    prize: int


class TournamentPool(Struct):
    """A tournament's coin pool: what entering costs and what the places win."""

    fee: int
    prize_table: list[int]
    """Each paid place's percentage of the pool; the rest is the house's."""
    pool: int
    """Coins in the pool: every fee taken, forfeits included."""
    status: str
    """``open``, ``running``, ``paid`` or ``cancelled`` (refunded)."""
    entries: int
    forfeit: int
    """Entries forfeit by people who withdrew (their fees stay in the pool)."""
    paid_out: int | None
    house: int | None
    """The house's share, once paid: what the table does not give and computers' places."""
    prizes: list[PoolPrize]


class TeamPair(Struct):
    """A pair of a team event (numbered from 0 in seed order, computer pairs last)."""

    pair: int
    name: str
    kind: str
    """``people`` or ``computer``."""
    members: list[str]


class TeamStandingLine(Struct):
    """One pair's line of a team event's standings."""

    place: int | None
    """Null for a pair still in an unfinished bracket."""
    pair: int
    name: str
    kind: str
    wins: int
    draws: int
    losses: int
    points_for: int
    points_against: int
    status: str
    """``in``, ``out`` or ``champion`` (elimination); ``in`` otherwise."""


class BracketBye(Struct):
    """A bracket match a pair went through without playing."""

    match: str
    pair: str


class PairInvite(Struct):
    """An invitation to be someone's partner (shown to the two people only)."""

    id: int
    sent: bool
    """Whether the viewer sent it (else the viewer was asked)."""
    status: str
    """``pending`` or ``declined``."""
    to: str
    from_: str = msgspec.field(name="from")


class TournamentState(TournamentSummary):
    """A tournament as its page shows it."""

    creator_id: int
    is_creator: bool
    registered: bool
    rules: dict[str, Any]
    rules_text: list[str]
    level: str
    late_comers: bool
    people_in: list[Entrant]
    computers: int
    filled: str | None
    """Said plainly at the start: how many computers fill the count."""
    tie_breaks: list[str]
    round_tables: list[RoundState]
    standings: list[TournamentStanding]
    final_table: RoundTableState | None
    pool: TournamentPool | None = None
    """The coin pool, for a tournament with an entry fee."""
    pairs: list[TeamPair] = msgspec.field(default_factory=list)
    """A team event's pairs."""
    pairs_in: int = 0
    """A team event's pairs of people registered."""
    team_standings: list[TeamStandingLine] = msgspec.field(default_factory=list)
    """A team event's standings (at the end, the final placing), in the order that
    ``tie_breaks`` states."""
    byes: list[BracketBye] = msgspec.field(default_factory=list)
    """An elimination bracket's byes."""
    partner: str | None = None
    """The viewer's partner in a team event."""
    my_pair: int | None = None
    """The viewer's pair."""
    invites: list[PairInvite] = msgspec.field(default_factory=list)
    """The viewer's invitations, sent and received."""


class InviteRequest(Request):
    """``POST /api/tournaments/{id}/invite``: ask someone to be your partner."""

    partner: str
    """Their username."""

    what: ClassVar[str] = "an invitation"
    refusals: ClassVar[dict[str, Any]] = {"partner": "partner must be a username"}


class TournamentResult(Struct):
    """A finished tournament on a person's page."""

    id: str
    name: str
    url: str
    place: int
    points: int
    field: int
    rounds: int
    format: str = "progressive"
    partner: str | None = None
    """A team event: the partner."""


class TournamentResults(Struct):
    """A person's finished tournaments, newest first."""

    results: list[TournamentResult]
