"""What a table sends, as types: each event, the table snapshot and a seat's view of the hand,
and the table socket's messages that carry them.

Defined once, here: the table builds these values, its subscribers receive them, and
``/asyncapi.json`` and ``/openapi.json`` are generated from these same types
(``euchre.server.wire`` re-exports them). Hidden cards never get into them: a seat's
snapshot holds only that seat's view (table law 11 applied), a spectator's holds none.

An event message carries the event, not the table: the public table's changes
(:mod:`.delta`) and, to a seat only, its own (``you``). A client folds them into the
snapshot it was sent on joining.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from msgspec import Meta, Struct

from ...cards import RANK_LETTERS, SUIT_LETTERS
from ...hand import PHASE_NAMES
from ...rules import Rules

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


# -- the snapshot ---------------------------------------------------------------------------


class SeatInfo(Struct, omit_defaults=True):
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


class Clock(Struct, omit_defaults=True):
    """Who is on the clock and the time left (a coin or online table's clock says more)."""

    seat: SeatNumber
    deadline_ms_left: int | None
    running: bool | None = None
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


class RematchState(Struct):
    """A rematch offered at the end of the game, as it stands (docs/protocol.md)."""

    status: Literal["open", "started", "declined", "left", "expired", "refused"]
    """``open``: answers awaited; ``started``: the new table is ``table``; else how it
    ended: someone declined, someone left the table, no answer in time, or the new table
    could not start (``message`` says why)."""
    by: SeatNumber
    """Who offered."""
    partners: Literal["keep", "change"]
    """``keep``: partners stay, everyone moves one seat to the left; ``change``: West and
    North swap seats."""
    people: list[SeatNumber]
    """The seats whose people must accept (computers come back by themselves)."""
    accepted: list[SeatNumber]
    """Those who accepted."""
    ms_left: Annotated[int, Meta(ge=0)]
    """Milliseconds left to answer (0 once it ended)."""
    seat: SeatNumber | None = None
    """Who declined or left."""
    table: str | None = None
    """The new table's id (``started``): each person's seat token opens their new seat."""
    message: str | None = None
    """Why the new table could not start (``refused``), e.g. a stake someone cannot cover."""


class TableSnapshot(Struct, omit_defaults=True):
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
    first_draw: FirstDraw | None
    """How the first dealer was found, if it was drawn."""
    next_commitment: NextCommitment | None
    """The next hand's table seed commitment (null once the game is over)."""
    spectators: int
    """How many connections watch the table without a seat."""
    clock_played: list[int] | None = None
    """Indexes into ``view.history`` of this hand's moves that the clock played (in
    snapshots only; events say it with ``timed_out``)."""
    extra: dict[str, Any] | None = None
    """Settings of the kind (a coin table's stake, an online table's clock)."""
    rematch: RematchState | None = None
    """A rematch offered since the game ended (absent: none)."""


# -- the events -----------------------------------------------------------------------------


class EventBody(Struct, tag_field="kind", frozen=True):
    """Any event."""


class DealEvent(EventBody, tag="deal", frozen=True):
    """A hand was dealt; ``commitment`` is the SHA-256 of its table seed."""

    dealer: SeatNumber
    hand_number: int
    commitment: str
    client_seeds: dict[str, str] | None = None
    """The people's seeds mixed into this hand's shuffle, by seat."""
    next_commitment: NextCommitment | None = None
    """The next hand's table seed commitment."""


class ActionEvent(EventBody, tag="action", frozen=True, omit_defaults=True):
    """A seat acted; another seat's discard shows only as ``discard``."""

    seat: SeatNumber
    action: str
    timed_out: bool | None = None


class TrickEvent(EventBody, tag="trick", frozen=True):
    """A trick was completed."""

    leader: SeatNumber
    cards: list[Card]
    winner: SeatNumber


class HandOverEvent(EventBody, tag="hand_over", frozen=True):
    """A hand ended."""

    points: Pair
    score: Pair
    summary: HandSummary


class GameOverEvent(EventBody, tag="game_over", frozen=True):
    """The game ended; ``winner`` is a side (0: seats 0 & 2), or null when a round of
    hands (``Rules.hands_limit``, tournament rounds) ended level."""

    winner: Annotated[int, Meta(ge=0, le=1)] | None
    score: Pair


class ClosedEvent(EventBody, tag="closed", frozen=True):
    """The table was closed before its game ended."""

    reason: str


class PresenceEvent(EventBody, tag="presence", frozen=True):
    """A person connected or left."""

    seat: SeatNumber
    connected: bool


class AwayEvent(EventBody, tag="away", frozen=True):
    """A person's connection is gone: a computer takes the seat for the rest of the game in
    ``ms_left`` milliseconds unless they come back (their move clock plays meanwhile)."""

    seat: SeatNumber
    ms_left: Annotated[int, Meta(ge=0)]


class BackEvent(EventBody, tag="back", frozen=True):
    """A person who was away came back within the grace: the seat is theirs again."""

    seat: SeatNumber


class ReplacedEvent(EventBody, tag="replaced", frozen=True):
    """A computer plays a person's seat to the end of the game: they left (``left``) or
    were away past the grace (``away``); the seat's token no longer moves."""

    seat: SeatNumber
    reason: Literal["left", "away"]
    level: str


class SpectatorsEvent(EventBody, tag="spectators", frozen=True):
    """A spectator started or stopped watching; ``count``: how many watch now."""

    count: Annotated[int, Meta(ge=0)]


class RematchEvent(EventBody, tag="rematch", frozen=True, omit_defaults=True):
    """A rematch was offered (``open``), accepted, declined, left, ran out (``expired``),
    refused, or started; the TABLE's ``rematch`` has the offer as it stands."""

    status: Literal["open", "accepted", "declined", "left", "expired", "refused", "started"]
    seat: SeatNumber | None = None
    """Whose answer or leaving it was."""
    table: str | None = None
    """The new table (``started``)."""


MessageId = Literal["hello", "good_game", "thanks", "well_played", "brb"]
"""A quick message's id (``table/actor/talk.py`` has their words): none says anything
about cards."""


class SayEvent(EventBody, tag="say", frozen=True):
    """A person said a quick message to the table (never while a hand is in play)."""

    seat: SeatNumber
    message: MessageId


EVENTS: tuple[type[EventBody], ...] = (DealEvent, ActionEvent, TrickEvent, HandOverEvent,
                                       GameOverEvent, ClosedEvent, PresenceEvent, AwayEvent,
                                       BackEvent, ReplacedEvent, SpectatorsEvent, RematchEvent,
                                       SayEvent)
"""Every event kind."""

TableEvent = DealEvent | ActionEvent | TrickEvent | HandOverEvent | GameOverEvent | \
    ClosedEvent | PresenceEvent | AwayEvent | BackEvent | ReplacedEvent | SpectatorsEvent | \
    RematchEvent | SayEvent
"""The schema of an event body."""


def kind_of(body: EventBody) -> str:
    """An event's kind (its tag: ``deal``, ``action`` ...)."""
    return str(body.__struct_config__.tag)


# -- the table socket's messages from the table ----------------------------------------------

PROTOCOL = 2
"""The table protocol: ``join`` and ``watch`` say it; events carry what changed, not the
table."""


class ServerMessage(Struct, tag_field="type"):
    """Any message the server sends."""


class Joined(ServerMessage, tag="joined"):
    """The connection is seated (``seat`` null: it watches)."""

    table_id: str
    seat: SeatNumber | None
    version: int


_CARDS_SCHEMA = {"type": "array", "items": {"type": "string"}}
_YOU_SCHEMA = Meta(
    description="A seat's own part of the table, sent to that seat only (in an event, only "
                "the keys that changed): seat, hand, legal (its legal moves, non-empty exactly "
                "when it is its turn), discard, farmer_gave, own ([index, [seat, action]] of its "
                "hidden actions in view.history, in full).",
    extra_json_schema={"properties": {
        "seat": {"type": "integer"}, "hand": _CARDS_SCHEMA, "legal": _CARDS_SCHEMA,
        "discard": {"type": ["string", "null"]}, "farmer_gave": _CARDS_SCHEMA,
        "own": {"type": "array", "items": {"type": "array"}}}})
"""``you``'s schema in ``/asyncapi.json`` (a plain object on the wire)."""
_CHANGES_SCHEMA = Meta(
    description="What the event changed in the public table beyond what it says itself: "
                "paths from the table down (keys and list indexes joined by '.'; one ending "
                "in '+' appends its values to that list; null: the field went away), applied "
                "in order; the last event of a move always has them (docs/protocol.md).")
"""``changes``' schema in ``/asyncapi.json``."""


class Snapshot(ServerMessage, tag="snapshot", omit_defaults=True):
    """The whole table for the seat (after a join that cannot be caught up with events)."""

    version: int
    table: TableSnapshot
    you: Annotated[dict[str, Any] | None, _YOU_SCHEMA] = None
    """A seat's own part of ``table`` (absent for a spectator), which later events' ``you``
    change: ``seat``, ``hand``, ``legal``, ``discard``, ``farmer_gave`` and ``own``
    (``[index, action]`` of the seat's hidden actions in ``table.view.history``)."""


class EventMessage(ServerMessage, tag="event", omit_defaults=True):
    """Something happened at ``version`` (one more than the last): ``event`` as the reader
    may see it (absent: it may see none of it); ``changes``, what it changed in the public
    table, as paths (docs/protocol.md); ``you``, to a seat only, what changed of its own
    part (its ``legal`` moves on the event that makes it its turn, its ``hand`` at a deal)."""

    version: int
    event: TableEvent | None = None
    changes: Annotated[dict[str, Any] | None, _CHANGES_SCHEMA] = None
    you: Annotated[dict[str, Any] | None, _YOU_SCHEMA] = None


class AlsoOpen(ServerMessage, tag="also_open"):
    """The seat was just opened in another browser, tab or device of the same person (or
    with the seat's token there): both keep playing it, any of them may move."""

    seat: SeatNumber


TableMessage = Joined | Snapshot | EventMessage | AlsoOpen
"""What a table sends its subscribers."""
