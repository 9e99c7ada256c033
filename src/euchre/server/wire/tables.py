"""The table API's models: opening a practice table, a seat's snapshot, records, replays."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from msgspec import Meta, Struct

from ...cards import RANK_LETTERS, SUIT_LETTERS
from ...hand import PHASE_NAMES
from ...rules import Rules
from ...table.examples import example
from ...table.names import check_display_name
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

Card = Annotated[str, Meta(pattern=f"^([{RANK_LETTERS}][{SUIT_LETTERS}]|JK)$",
                           description="A card: rank 9 T J Q K A, suit C D H S; JK the joker.")]
"""A card in text notation."""

Suit = Annotated[str, Meta(pattern=f"^[{SUIT_LETTERS}]$", description="A suit letter.")]
"""A suit letter."""

SeatNumber = Annotated[int, Meta(ge=0, le=3)]
"""A seat (0 South, 1 West, 2 North, 3 East)."""

Pair = Annotated[list[int], Meta(min_length=2, max_length=2,
                                 description="Seats 0 & 2, seats 1 & 3.")]
"""A number per side."""

Phase = Literal[PHASE_NAMES]  # type: ignore[valid-type]
"""The phase of a hand, from the engine's own names."""

MAX_NAME = 24
"""The longest display name."""

DisplayName = Annotated[str, Meta(min_length=1, max_length=MAX_NAME)]
"""A person's name at a table."""


class PracticeTableRequest(Request):
    """``POST /api/tables``: a practice table, the person South and computers elsewhere."""

    kind: Literal["practice"] = "practice"
    """The table kind."""
    preset: PresetName = "classic"
    """The rules preset."""
    rules: RuleChanges | None = None
    """Changes to the preset."""
    partner: Level = "medium"
    """North's level."""
    left: Level = "medium"
    """West's level."""
    right: Level = "medium"
    """East's level."""
    name: DisplayName = "You"
    """The person's name."""
    speed: Literal["slow", "normal", "fast"] = "normal"
    """How fast the computer players move (scales the table's pauses)."""
    example: str | None = None
    """The id of a strategy-guide example hand (/static/learn/examples.json) to deal first;
    its preset is used."""

    what: ClassVar[str] = "practice tables"
    refusals: ClassVar[dict[str, Any]] = {
        "preset": preset_refusal,
        "rules": "rules must be an object of rule name to value",
        "partner": level_refusal("partner"),
        "left": level_refusal("left"),
        "right": level_refusal("right"),
        "name": f"name must be 1 to {MAX_NAME} characters",
        "speed": "speed must be one of slow, normal, fast",
        "example": "example must be the id of an example hand",
    }

    def __post_init__(self) -> None:
        self.preset = preset_of(self.preset)
        self.partner = level_of("partner", self.partner)
        self.left = level_of("left", self.left)
        self.right = level_of("right", self.right)
        self.name = self.name.strip()
        if not 1 <= len(self.name) <= MAX_NAME:
            raise ValueError(f"name must be 1 to {MAX_NAME} characters")
        check_display_name(self.name)
        if self.example is not None:
            self.preset = example(self.example).preset  # an unknown id: ExampleError says so
        self.rules = checked_rules(self.preset, self.rules)


def checked_rules(preset: str, changes: dict[str, Any] | None) -> dict[str, Any]:
    """``changes`` if they apply to ``preset``, else a refusal saying why."""
    changes = dict(changes or {})
    try:
        Rules.preset(preset, **changes)
    except (ValueError, TypeError) as e:
        raise ValueError(f"bad rules: {e}") from None
    return changes


class TableCreated(Struct):
    """A practice table is open and dealing."""

    id: str
    """The table id."""
    seat: int
    """The person's seat (0, South)."""
    token: str
    """The seat's secret: keep it to rejoin."""
    url: str
    """The table's page."""
    ws: str
    """The table socket's path."""


class SeatInfo(Struct):
    """What everyone may see about a seat."""

    seat: SeatNumber
    name: str
    kind: Literal["human", "bot"]
    """``bot`` also for a person's seat a computer plays since they left (see ``replaced``)."""
    level: str | None
    connected: bool
    replaced: Literal["left", "away"] | None = None
    """Why a computer plays this person's seat to the end: they left (``left``), or were
    away past the grace (``away``); absent while the person plays it."""
    away_ms_left: Annotated[int, Meta(ge=0)] | None = None
    """The person's connection is gone: milliseconds until a computer takes the seat for
    the rest of the game, unless they come back (absent while they are here)."""
    outside_bot: bool = False
    """An outside bot plays this seat: a program holding a bot token, under the bot's
    name (``kind`` is ``human``: it plays through its seat token like a person)."""


class LastTrick(Struct):
    """The last completed trick."""

    leader: SeatNumber
    cards: list[Card]
    winner: SeatNumber


class HandViewJson(Struct):
    """One seat's view of the hand (``HandView.to_json``): never a card it may not see;
    a spectator's (``seat`` null) holds no hand, discard or legal move."""

    seat: SeatNumber | None
    rules: Rules
    dealer: SeatNumber
    score: Pair
    phase: Phase
    to_act: SeatNumber | None
    hand: list[Card]
    upcard: Card
    upcard_taken: bool
    history: list[Annotated[list[int | str], Meta(min_length=2, max_length=2)]]
    """[seat, action]; another seat's discard shows only as ``discard``."""
    trump: Suit | None
    maker: SeatNumber | None
    alone: bool
    lone_defender: SeatNumber | None
    sitting_out: list[SeatNumber]
    discard: Card | None
    farmer_gave: list[Card]
    leader: SeatNumber | None
    trick: list[Card]
    last_trick: LastTrick | None
    tricks_played: Annotated[int, Meta(ge=0, le=5)]
    tricks_won: Pair
    points: Pair
    thrown_in: bool
    reneged: list[int] | None
    legal: list[str]


class Clock(Struct):
    """Who is on the clock and the time left."""

    seat: SeatNumber
    deadline_ms_left: int | None
    running: bool = True
    move_ms: int | None = None
    seconds_per_move: float | None = None
    misses: int | None = None
    computer_speed: bool | None = None


class HandSummary(Struct):
    """The public result of the last finished hand (with its revealed shuffle seed)."""

    hand_number: int
    dealer: SeatNumber
    maker: SeatNumber | None
    trump: Suit | None
    alone: bool
    lone_defender: SeatNumber | None
    tricks_won: Pair
    points: Pair
    euchred: bool
    march: bool
    thrown_in: bool
    reneged: list[int] | None
    score: Pair
    seed: str | None
    client_seeds: dict[str, str] = {}
    """The people's seeds mixed into the hand's shuffle, by seat."""
    pattern: str | None = None
    """How the hand was dealt (``3-2`` or ``2-3``)."""


class NextCommitment(Struct):
    """The next hand's table seed commitment: people send their seeds after it."""

    hand_number: int
    commitment: str


class DrawnCard(Struct):
    """A card dealt face up to find the first dealer."""

    seat: SeatNumber
    card: Card


class FirstDraw(Struct):
    """How the first dealer was found: cards dealt face up from South until a black jack
    (doc 002 deal rule 1)."""

    dealer: SeatNumber
    cards: list[DrawnCard]


class TableSnapshot(Struct):
    """One seat's table (TABLE in docs/protocol.md)."""

    id: str
    kind: str
    version: int
    seat: SeatNumber | None
    seats: Annotated[list[SeatInfo], Meta(min_length=4, max_length=4)]
    preset: str | None
    rules: Rules
    rules_text: list[str]
    score: Pair
    hand_number: int
    dealer: SeatNumber | None
    to_act: SeatNumber | None
    commitment: str | None
    game_over: bool
    closed: str | None
    winner: Annotated[int, Meta(ge=0, le=1)] | None
    view: HandViewJson | None
    clock: Clock | None
    summary: HandSummary | None
    first_draw: FirstDraw | None = None
    next_commitment: NextCommitment | None = None
    clock_played: list[int] | None = None
    """Indexes into ``view.history`` of this hand's moves that the clock played (in
    snapshots only; events say it with ``timed_out``)."""
    extra: dict[str, Any] | None = None
    """Settings of the kind (a coin table's stake, an online table's clock)."""
    spectators: int = 0
    """How many connections watch the table without a seat."""


class HandRecordJson(Struct):
    """One hand of a record: the deal, the actions, the result and the seed."""

    dealer: SeatNumber
    pattern: str
    hands: list[list[Card]]
    kitty: list[Card]
    actions: list[Annotated[list[int | str], Meta(min_length=2, max_length=2)]]
    result: Pair | None
    seed: str | None = None
    client_seeds: dict[str, str] | None = None
    """The people's seeds mixed into the shuffle, by seat."""


class RecordJson(Struct):
    """A game record (euchre-record version 1, JSON form)."""

    format: Literal["euchre-record"]
    version: int
    rules: Rules
    hands: list[HandRecordJson]
    final: Pair | None


class ReplayTrick(Struct):
    """A completed trick in a replay frame."""

    leader: SeatNumber
    cards: list[Card]
    winner: SeatNumber


class ReplayLast(Struct):
    """The action that led to a replay frame."""

    seat: SeatNumber
    action: str


class ReplayFrame(Struct):
    """One open-handed position of a finished game."""

    hand_number: int
    dealer: SeatNumber
    phase: Phase
    to_act: SeatNumber | None
    hands: list[list[Card]]
    upcard: Card
    kitty: list[Card]
    trump: Suit | None
    maker: SeatNumber | None
    alone: bool
    sitting_out: list[SeatNumber]
    leader: SeatNumber | None
    trick: list[Card]
    tricks: list[ReplayTrick]
    tricks_won: Pair
    points: Pair
    score: Pair
    last: ReplayLast | None


class Replay(Struct):
    """Every position of a finished game, open-handed."""

    id: str
    rules: Rules
    rules_text: list[str]
    final: Pair | None
    frames: list[ReplayFrame]


class PresetInfo(Struct):
    """A rules preset."""

    name: str
    rules: Rules
    rules_text: list[str]


class RuleField(Struct):
    """One rule: its type, default, allowed values and meaning."""

    name: str
    type: Literal["boolean", "integer", "string"]
    default: bool | int | str
    allowed: list[bool | int | str]
    description: str


class Presets(Struct):
    """What a table can be opened with."""

    presets: list[PresetInfo]
    fields: list[RuleField]
    levels: list[str]
    default_level: str


class Health(Struct):
    """The process is up; how many tables are in memory."""

    ok: bool
    tables: int


class Ready(Struct, omit_defaults=True):
    """Whether the server can take players, with each check's outcome (``ok``, ``memory``,
    ``not used``, ``held``, or what is wrong)."""

    ready: bool
    database: str | None = None
    """``ok``, ``memory`` or ``unavailable: ...``."""
    saver: str | None = None
    """``ok`` unless the latest table save failed."""
    solver: str | None = None
    """``ok`` when the compiled solver is loaded."""
    redis: str | None = None
    """With the site extension: ``not used``, ``ok`` or ``unavailable: ...``."""
    relays: str | None = None
    """With a Redis URL: ``ok`` when this process listens for relayed sockets, else
    ``not listening``."""
