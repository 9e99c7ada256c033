"""The table socket's messages, both directions (documented in ``/asyncapi.json``).

A client sends ``join`` (or ``watch``), ``action``, ``seed``, ``hint``, ``continue``,
``pace``, ``rematch`` or ``ping``; the
server answers with ``joined``, ``snapshot``, ``event``, ``hint``, ``pong`` or ``error``.
``joined``, ``snapshot``, ``event`` and ``also_open``, the events and the table snapshot are
the table layer's own types (:mod:`euchre.table.actor.wire`), re-exported here: the table builds
them, its subscribers receive them, and ``/asyncapi.json`` is generated from them.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

import msgspec
from msgspec import Meta, Struct

from ...table.actor.wire import (  # what the table sends: its own types, defined once there
    EVENTS,
    PROTOCOL,
    ActionEvent,
    AlsoOpen,
    AwayEvent,
    BackEvent,
    ClosedEvent,
    DealEvent,
    EventBody,
    EventMessage,
    GameOverEvent,
    HandOverEvent,
    Joined,
    MessageId,
    PresenceEvent,
    RematchEvent,
    ReplacedEvent,
    SayEvent,
    SeatNumber,
    ServerMessage,
    Snapshot,
    SpectatorsEvent,
    TableEvent,
    TrickEvent,
)
from .common import BadRequest

__all__ = [
    "CLIENT_MESSAGES",
    "EVENTS",
    "MAX_MESSAGE_BYTES",
    "OLD_PROTOCOL_TEXT",
    "PROTOCOL",
    "SERVER_MESSAGES",
    "Act",
    "ActionEvent",
    "AlsoOpen",
    "AwayEvent",
    "BackEvent",
    "ClientMessage",
    "ClosedEvent",
    "Continue",
    "DealEvent",
    "ErrorMessage",
    "EventBody",
    "EventMessage",
    "GameOverEvent",
    "HandOverEvent",
    "Hint",
    "HintAnswer",
    "HintItem",
    "Join",
    "Joined",
    "Pace",
    "Ping",
    "Pong",
    "PresenceEvent",
    "Rematch",
    "RematchEvent",
    "ReplacedEvent",
    "Say",
    "SayEvent",
    "SeatNumber",
    "Seed",
    "ServerMessage",
    "Snapshot",
    "SpectatorsEvent",
    "TableEvent",
    "TrickEvent",
    "Watch",
    "error_message",
    "hint_item",
    "parse_client_message",
]

MAX_MESSAGE_BYTES = 4096
"""Longer client messages are refused unread."""


class ClientMessage(Struct, tag_field="type", forbid_unknown_fields=True):
    """Any message a client may send."""

    what: ClassVar[str] = "message"
    refusals: ClassVar[dict[str, str]] = {}


OLD_PROTOCOL_TEXT = ("this page speaks an older table protocol than the server: reload the "
                     "page (a program: send \"protocol\": 2 with join or watch)")
"""What a client without ``"protocol": 2`` is told before its socket is closed."""


_PROTOCOL_META = Meta(description='The table protocol the client speaks: must be 2. Anything '
                                  'else (or none) is answered with one error, code '
                                  '"old_protocol", and the socket closes with 4426.')


class Join(ClientMessage, tag="join"):
    """Take a seat with its token, or (no token) the seat of the signed-in person whose
    session cookie opened the socket; ``since``: the last version the client has."""

    token: Annotated[str, Meta(min_length=1)] | None = None
    """The seat's secret token (from ``POST /api/tables``); null: the signed-in person's
    seat, from any browser."""
    since: Annotated[int, Meta(ge=0)] | None = None
    """Send only the events after this version (if still kept), else a snapshot."""
    protocol: Annotated[int | None, _PROTOCOL_META] = None
    """The table protocol the client speaks: must be :data:`PROTOCOL`."""

    refusals: ClassVar[dict[str, str]] = {
        "protocol": '"protocol" must be a number (2)',
        "token": '"token" must be the seat\'s token as a string (or null: your own seat '
                 'when signed in)',
        "since": '"since" must be a version number (0 or more) or null',
    }


class Watch(ClientMessage, tag="watch"):
    """Watch a public table without a seat; ``since``: the last version the client has."""

    since: Annotated[int, Meta(ge=0)] | None = None
    """Send only the events after this version (if still kept), else a snapshot."""
    protocol: Annotated[int | None, _PROTOCOL_META] = None
    """The table protocol the client speaks: must be :data:`PROTOCOL`."""

    refusals: ClassVar[dict[str, str]] = {
        "protocol": '"protocol" must be a number (2)',
        "since": '"since" must be a version number (0 or more) or null',
    }


class Act(ClientMessage, tag="action"):
    """Make a move, in action notation (``play JH``, ``order``, ``call S alone`` ...)."""

    action: str
    """The action text."""

    refusals: ClassVar[dict[str, str]] = {
        "action": 'action needs "action": a move such as "play JH" or "pass"',
    }

    def __post_init__(self) -> None:
        if not self.action.strip():
            raise ValueError(self.refusals["action"])


class Seed(ClientMessage, tag="seed"):
    """A person's shuffle seed for the next hand, sent after its table commitment."""

    hand_number: Annotated[int, Meta(ge=1)]
    """The hand the seed is for (the TABLE's ``next_commitment.hand_number``)."""
    seed: Annotated[str, Meta(min_length=1)]
    """16 to 128 lower-case hex digits (the page sends 32 random bytes)."""

    refusals: ClassVar[dict[str, str]] = {
        "hand_number": 'seed needs "hand_number": the hand it is for (1 or more)',
        "seed": 'seed needs "seed": hex digits as a string',
    }


class Hint(ClientMessage, tag="hint"):
    """Ask for the computer's advice on the current decision."""


class Continue(ClientMessage, tag="continue"):
    """Done reading a hand's result: at a table with no other person the next hand is
    dealt now instead of after the result's hold (elsewhere nothing happens)."""

    hand_number: Annotated[int, Meta(ge=1)]
    """The hand whose result was read (the TABLE's ``summary.hand_number``)."""

    refusals: ClassVar[dict[str, str]] = {
        "hand_number": 'continue needs "hand_number": the hand whose result was read',
    }


class Pace(ClientMessage, tag="pace"):
    """Choose the computers' speed at a practice table, at any time (pauses from now on)."""

    speed: Literal["slow", "normal", "fast"]
    """The speed: slow, normal or fast (docs/web.md lists the timings)."""

    refusals: ClassVar[dict[str, str]] = {
        "speed": 'pace needs "speed": "slow", "normal" or "fast"',
    }


class Rematch(ClientMessage, tag="rematch"):
    """After the game: offer a rematch or accept the one offered (``accept`` true), or
    decline it (false); ``partners`` is an offer's choice of seats."""

    accept: bool
    """Yes (offer, or accept the offer) or no (decline it: the offer ends for everyone)."""
    partners: Literal["keep", "change"] = "keep"
    """When offering: ``keep`` (partners stay; everyone moves one seat to the left) or
    ``change`` (West and North swap seats: new partners). Ignored when answering."""

    refusals: ClassVar[dict[str, str]] = {
        "accept": 'rematch needs "accept": true (offer or accept) or false (decline)',
        "partners": 'rematch "partners" is "keep" or "change"',
    }


class Say(ClientMessage, tag="say"):
    """Say a quick message to the table, by its id (``hello``, ``good_game``, ``thanks``,
    ``well_played``, ``brb``): never free text. Seated people only, and never while a hand
    is in play; answered with the ``say`` event everyone gets, or an ``error``."""

    message: MessageId
    """The message's id."""

    refusals: ClassVar[dict[str, str]] = {
        "message": 'say needs "message": one of "hello", "good_game", "thanks", '
                   '"well_played", "brb" (no other words can be sent)',
    }


class Ping(ClientMessage, tag="ping"):
    """Keep the connection alive; answered with ``pong``."""


CLIENT_MESSAGES: tuple[type[ClientMessage], ...] = (Join, Watch, Act, Seed, Hint, Continue,
                                                   Pace, Rematch, Say, Ping)
"""Every client message, in the order the protocol lists them."""

_TYPES = tuple(str(m.__struct_config__.tag) for m in CLIENT_MESSAGES)
_ANY_CLIENT = Join | Watch | Act | Seed | Hint | Continue | Pace | Rematch | Say | Ping


_DECODER = msgspec.json.Decoder(_ANY_CLIENT)
"""Reads a well-formed client message straight into its model, in one pass in C."""


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """One client message as its model; raises :class:`BadRequest` saying what is wrong."""
    if len(raw) > MAX_MESSAGE_BYTES:
        raise BadRequest(f"message too long (over {MAX_MESSAGE_BYTES} bytes)")
    try:
        # Every field of every client message is a scalar and unknown fields are refused,
        # so a message this reads is one object deep: no depth check is needed.
        message: ClientMessage = _DECODER.decode(raw)
        return message
    except (msgspec.DecodeError, RecursionError, UnicodeDecodeError):
        return _refuse(raw)  # read again the slow way, to say in words what is wrong


def _refuse(raw: str | bytes) -> ClientMessage:
    """``raw`` read as JSON, then as a client message: the refusal of what is wrong with
    it (the typed read refused it; a message it accepts after all is returned)."""
    from .common import load_json

    data = load_json(raw, what="a message", not_json="not JSON: send one JSON object per message")
    if not isinstance(data, dict):
        raise BadRequest('a message must be a JSON object with a "type"')
    kind = data.get("type")
    if kind not in _TYPES:
        raise BadRequest(f"unknown message type {kind!r}: use one of {', '.join(_TYPES)}")
    model = CLIENT_MESSAGES[_TYPES.index(kind)]
    try:
        message: ClientMessage = msgspec.convert(data, _ANY_CLIENT)
    except msgspec.ValidationError as e:
        text = str(e)
        unknown = text.partition("unknown field `")[2].partition("`")[0]
        if unknown:
            raise BadRequest(f"unexpected field {unknown!r} in a {kind} message") from None
        for field, refusal in model.refusals.items():
            if f"`{field}`" in text or f"$.{field}" in text:
                raise BadRequest(refusal) from None
        raise BadRequest(text) from None
    return message


# -- what the server sends ----------------------------------------------------------------

class HintItem(Struct):
    """One piece of advice, best first."""

    action: str
    text: str
    expected_points: float | None
    make_chance: float | None


class HintAnswer(ServerMessage, tag="hint"):
    """The computer's advice for the seat's decision at ``version``."""

    version: int
    hints: list[HintItem]


class Pong(ServerMessage, tag="pong"):
    """The answer to ``ping``."""


class ErrorMessage(ServerMessage, tag="error"):
    """A refused message (nothing changed)."""

    code: str
    """``bad_message``, ``bad_token``, ``not_joined``, ``spectator``,
    ``no_spectators`` (a ``watch`` at a table that does not allow spectators),
    ``illegal``, ``bad_seed``, ``no_table``, ``hint_unavailable``, ``too_many``,
    ``table_stopped``, ``replaced`` (the seat's person left: a computer plays it),
    ``not_stored`` (the database did not answer: the move was not made, try again),
    ``revoked`` (an outside bot's token was revoked: the socket closes with 4401),
    ``no_rematch`` (a ``rematch`` refused: the game is not over, no offer, it ended),
    ``unavailable``, ``internal``, ``rate_limited`` (more messages than the socket's rate: the
    socket is then closed with 4429); for a ``say``: ``talk_in_play`` (a hand is in play),
    ``talk_rate`` (too many messages), ``talk_off`` (a silent table, or one without
    talk), ``talk_people_only`` (an outside bot)."""
    message: str


SERVER_MESSAGES: tuple[type[ServerMessage], ...] = (
    Joined, Snapshot, EventMessage, HintAnswer, AlsoOpen, Pong, ErrorMessage)
"""Every server message."""


def error_message(message: str, *, code: str = "error") -> ErrorMessage:
    """The server's reply to a refused message (nothing changed)."""
    return ErrorMessage(code=code, message=message)


def hint_item(hint: Any) -> HintItem:
    """One hint from the bots' analysis, as the protocol sends it."""
    return HintItem(
        action=str(hint.action),
        text=str(getattr(hint, "text", "")),
        expected_points=_number(getattr(hint, "expected_points", None)),
        make_chance=_number(getattr(hint, "make_chance", None)),
    )


def _number(x: Any) -> float | None:
    return None if x is None else round(float(x), 3)
