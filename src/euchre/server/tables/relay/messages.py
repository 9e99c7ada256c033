"""The messages between the processes of a site about relayed sockets and remote tables:
msgspec Structs in two tagged unions, one per direction, each encoded and decoded by msgspec.

:data:`ToHost` is what a process's inbox (``relay:in:{owner}``) takes: a relayed socket's
opening, its messages, its goodbye and the edge's heartbeat, and the questions asked of a
table's owner (close it, give a seat to a computer, hand the table over). :data:`ToEdge` is
what comes back on a reply channel (``relay:out:{id}``): the messages for a relayed socket,
its close, and the answers to those questions. A frame that is not one of them is refused
with :class:`BadRelayFrame` (logged and dropped by the reader; nothing changes).
"""

from __future__ import annotations

from typing import TypeAlias

import msgspec

from ....table.actor.seats import AccountKey


class Open(msgspec.Struct, tag="open", frozen=True):
    """An edge relays a new socket of ``table`` here, as ``relay``."""

    relay: str
    """The relay's id (its reply channel is ``relay:out:{relay}``)."""
    table: str
    """The table the socket is for."""
    address: str
    """The client's address, as the edge saw it."""
    person: AccountKey | None = None
    """The signed-in person whose session cookie opened the socket (found at the edge)."""


class ClientText(msgspec.Struct, tag="msg", frozen=True):
    """One message the relayed socket's client sent, as sent."""

    relay: str
    """The relay it came through."""
    text: str
    """The client's message (parsed at the host, like a direct socket's)."""


class Beat(msgspec.Struct, tag="beat", frozen=True):
    """The edge still holds these relays (sent every third of a lease)."""

    relays: list[str]
    """Relay ids hosted at the process the beat is sent to."""


class Bye(msgspec.Struct, tag="bye", frozen=True):
    """The relayed socket's client went away."""

    relay: str
    """The relay that ended."""


class Closing(msgspec.Struct, tag="closing", frozen=True):
    """End ``table`` before its game is over; answer on ``reply`` (:class:`Closed`)."""

    reply: str
    """The id of the reply channel."""
    table: str
    """The table to end."""
    reason: str
    """Why (shown to its sockets)."""
    after_hand: bool = False
    """End it once the hand in play is over (at once between hands), its finish hooks run
    (a tournament round's time ran out)."""


class Replace(msgspec.Struct, tag="replace", frozen=True):
    """Give ``seat`` of ``table`` to a computer; answer on ``reply`` (:class:`Replaced`)."""

    reply: str
    """The id of the reply channel."""
    table: str
    """The table."""
    seat: int
    """The seat whose person left."""
    reason: str
    """Why (recorded with the replacement)."""


class Handover(msgspec.Struct, tag="handover", frozen=True):
    """Let ``table`` go if nobody is connected to it here; answer on ``reply``
    (:class:`HandedOver`)."""

    table: str
    """The table asked for."""
    reply: str
    """The id of the reply channel."""


ToHost: TypeAlias = Open | ClientText | Beat | Bye | Closing | Replace | Handover
"""What a process's inbox takes."""


class Send(msgspec.Struct, tag="send", frozen=True):
    """A message for the relayed socket's client, as the host encoded it."""

    message: msgspec.Raw
    """The message's JSON, embedded as it is (not encoded twice)."""

    @property
    def text(self) -> str:
        """The message's JSON text, as the client gets it."""
        return bytes(self.message).decode()


class Shut(msgspec.Struct, tag="shut", frozen=True):
    """The host closed the relayed connection: close the client's socket so."""

    code: int
    """The WebSocket close code."""
    reason: str
    """The close reason."""


class Closed(msgspec.Struct, tag="closed", frozen=True):
    """The answer to :class:`Closing`."""

    here: bool
    """Whether the table ran at the asked process (False: ask where it is now)."""
    closed: str | None = None
    """How the table is closed (the reason now, or an earlier one); None: its game had
    ended first."""
    error: str | None = None
    """Why it could not be closed there (stopped meanwhile, not stored)."""


class Replaced(msgspec.Struct, tag="replaced", frozen=True):
    """The answer to :class:`Replace`."""

    here: bool
    """Whether the table ran at the asked process (False: ask where it is now)."""
    now: bool = False
    """Whether this request gave the seat to a computer."""
    replaced: bool = False
    """Whether a computer plays the seat (now, or since an earlier request)."""
    error: str | None = None
    """Why it could not be asked there (stopped meanwhile, refused)."""


class HandedOver(msgspec.Struct, tag="handed_over", frozen=True):
    """The answer to :class:`Handover`."""

    let_go: bool
    """True: the table was saved and let go (or did not run there); False: kept (somebody
    is connected to it there)."""


ToEdge: TypeAlias = Send | Shut | Closed | Replaced | HandedOver
"""What comes back on a reply channel."""


class BadRelayFrame(ValueError):
    """A frame on a relay channel that is not one of the relay messages."""


_encoder = msgspec.json.Encoder()
_to_host = msgspec.json.Decoder(ToHost)
_to_edge = msgspec.json.Decoder(ToEdge)


def encode(message: ToHost | ToEdge) -> bytes:
    """A relay message as a frame."""
    return _encoder.encode(message)


def send_frame(text: str) -> bytes:
    """The :class:`Send` frame of a client message already encoded as JSON ``text``."""
    return _encoder.encode(Send(msgspec.Raw(text)))


def _decode(decoder: msgspec.json.Decoder[ToHost] | msgspec.json.Decoder[ToEdge],
            frame: bytes | str, where: str) -> ToHost | ToEdge:
    try:
        return decoder.decode(frame)
    except msgspec.DecodeError as e:  # ValidationError included
        shown = frame[:120] if isinstance(frame, str) else frame[:120].decode("utf-8", "replace")
        raise BadRelayFrame(f"not a relay message for {where} ({e}): {shown!r}") from None


def decode_to_host(frame: bytes | str) -> ToHost:
    """The message in an inbox frame; :class:`BadRelayFrame` if it is none."""
    message = _decode(_to_host, frame, "a process's inbox")
    assert not isinstance(message, (Send, Shut, Closed, Replaced, HandedOver))
    return message


def decode_to_edge(frame: bytes | str) -> ToEdge:
    """The message in a reply frame; :class:`BadRelayFrame` if it is none."""
    message = _decode(_to_edge, frame, "a reply channel")
    assert isinstance(message, (Send, Shut, Closed, Replaced, HandedOver))
    return message
