"""The table API's models: opening a practice table, a seat's snapshot, records, replays.

A seat's snapshot and its parts are the table layer's own types (:mod:`euchre.table.actor.wire`),
re-exported here so every document is generated from the types the table sends.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from msgspec import Meta, Struct

from ...rules import Rules
from ...table.actor.wire import (  # the table's own types: defined once, in the table layer
    Card,
    Clock,
    DrawnCard,
    FirstDraw,
    HandSummary,
    HandViewJson,
    LastTrick,
    NextCommitment,
    Pair,
    Phase,
    SeatInfo,
    SeatNumber,
    Suit,
    TableSnapshot,
)
from ...table.kinds.examples import example
from ...table.kinds.names import check_display_name
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

__all__ = [
    "MAX_NAME",
    "Card",
    "Clock",
    "DisplayName",
    "DrawnCard",
    "FirstDraw",
    "HandRecordJson",
    "HandSummary",
    "HandViewJson",
    "Health",
    "LastTrick",
    "NextCommitment",
    "Pair",
    "Phase",
    "PracticeTableRequest",
    "PresetInfo",
    "Presets",
    "Ready",
    "RecordJson",
    "Replay",
    "ReplayFrame",
    "ReplayLast",
    "ReplayTrick",
    "RuleField",
    "SeatInfo",
    "SeatNumber",
    "Suit",
    "TableCreated",
    "TableSnapshot",
    "checked_rules",
]

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
        self.name = check_display_name(self.name)  # kept in NFKC form
        if self.example is not None:
            self.preset = example(self.example).preset  # an unknown id: ExampleError says so
        self.rules = checked_rules(self.preset, self.rules)


def checked_rules(preset: str, changes: dict[str, Any] | None) -> dict[str, Any]:
    """``changes`` if they apply to ``preset``, else a refusal saying why."""
    changes = dict(changes or {})
    if changes.get("hands_limit"):
        # A round of hands may end level, which a table's game-over event cannot say yet.
        raise ValueError("bad rules: hands_limit is for tournament rounds, not open tables")
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
