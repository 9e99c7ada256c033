"""Who sits where at a table, the table's fixed settings, and the secret tokens of seats."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field
from typing import Any

from ...hand import SEAT_NAMES
from ...rules import Rules
from .first_draw import Draw, draw_from_json, draw_to_json

HUMAN = "human"
"""A seat played by a person (through a token)."""
BOT = "bot"
"""A seat played by a computer player."""
WIDER_SOURCE = "w"
"""Marks a person's source (hashed) that is a wider IPv6 network, a /56 or /48, rather
than their own network or browser: two people sharing one are from one address too."""


def new_token() -> str:
    """A fresh secret token for a person's seat."""
    return secrets.token_urlsafe(24)


def new_table_id() -> str:
    """A fresh table id (also the id of its game): short, URL-safe, unguessable."""
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """The SHA-256 of a token: only this is kept, in memory and in storage."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class AccountKey:
    """A signed-in person, as the server found them from their session: the other key to
    their seats (beside each seat's token), from any browser. Only ever made by the
    server from a checked session, never from what a client sends."""

    account_id: int
    """The account's id."""
    username: str
    """The account's name (coin tables record the seat's account by name)."""
    claimed: tuple[int, ...] = ()
    """Seats of this table the person took as a guest and bound to the account when they
    signed in (checked against the seat's token then; kept in ``seat_claims``)."""


@dataclass(frozen=True)
class BotKey:
    """An outside bot, as the server found it from its live bot token (``Authorization:
    Bearer``): the key to the seats its account holds, for listing and leaving them over
    HTTP when the seat's own token is lost (a bridge killed). Only ever made by the server
    from a checked bot token; never opens a table's socket (that takes the seat's token)."""

    account_id: int
    """The bot's own account."""


SeatKey = str | AccountKey | BotKey
"""What opens a seat: its token, the signed-in account sitting there, or the outside bot
sitting there (its bot token)."""


@dataclass(frozen=True)
class Seat:
    """One seat's occupant."""

    kind: str
    """``human`` or ``bot``."""
    name: str
    """A display name."""
    level: str | None = None
    """The computer level of a bot seat."""
    bot_seed: int | None = None
    """The bot's seed (so a resumed table's bot makes the same decisions)."""
    token_hash: str | None = None
    """The hash of the token that lets a person take this seat."""
    account: str | None = None
    """The account sitting here, if any (coin tables)."""
    account_id: int | None = None
    """The id of the signed-in account sitting here (practice and online tables), if any."""
    bot_token: int | None = None
    """The id of the bot token an outside bot took this seat with (None: a person): its
    program plays the seat through the token, and only while the token is live."""

    def is_outside_bot(self) -> bool:
        """Whether an outside bot (a program with a bot token) plays this seat."""
        return self.bot_token is not None

    def is_bot(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind == BOT

    def accepts(self, token: SeatKey) -> bool:
        """Whether ``token`` is this seat's token, or the signed-in account sitting here."""
        if isinstance(token, AccountKey):
            return self.belongs_to(token)
        if isinstance(token, BotKey):
            return self.bot_token is not None and self.account_id == token.account_id
        return self.token_hash is not None and hmac.compare_digest(
            self.token_hash, hash_token(token)
        )

    def belongs_to(self, person: AccountKey) -> bool:
        """Whether ``person``'s account sits here (by id; a coin seat by account name). An
        outside bot's seat opens only with the bot's own token."""
        if self.kind != HUMAN or self.bot_token is not None:
            return False
        if self.account_id is not None:
            return self.account_id == person.account_id
        return self.account is not None and self.account == person.username

    def public_json(self, seat: int) -> dict[str, Any]:
        """What everyone may see about the seat."""
        out: dict[str, Any] = {"seat": seat, "name": self.name, "kind": self.kind,
                               "level": self.level}
        if self.bot_token is not None:
            out["outside_bot"] = True
        return out

    def to_json(self) -> dict[str, Any]:
        """The seat for storage (the token only as its hash)."""
        return {
            "kind": self.kind,
            "name": self.name,
            "level": self.level,
            "bot_seed": self.bot_seed,
            "token_hash": self.token_hash,
            "account": self.account,
            **({"account_id": self.account_id} if self.account_id is not None else {}),
            **({"bot_token": self.bot_token} if self.bot_token is not None else {}),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """Read :meth:`to_json` output."""
        return cls(
            kind=str(data["kind"]),
            name=str(data["name"]),
            level=data.get("level"),
            bot_seed=data.get("bot_seed"),
            token_hash=data.get("token_hash"),
            account=data.get("account"),
            account_id=data.get("account_id"),
            bot_token=data.get("bot_token"),
        )


@dataclass(frozen=True)
class TableConfig:
    """A table's fixed settings: id, kind, rules and seats."""

    id: str
    """The table id, also its game's id."""
    kind: str
    """``practice``, or a kind added elsewhere (``coin``)."""
    rules: Rules
    """The rules in force."""
    seats: tuple[Seat, Seat, Seat, Seat]
    """Seats 0-3 (South, West, North, East)."""
    preset: str = "classic"
    """The preset the rules started from (for display)."""
    created_at: float = 0.0
    """When the table was made (seconds since the epoch)."""
    first_dealer: int = 0
    """The first hand's dealer."""
    first_draw: Draw = ()
    """The face-up cards that found the first dealer (doc 002 deal rule 1), or () if given."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Settings of other table kinds (a coin table's stake ...), kept as JSON."""

    def seat_of(self, token: SeatKey) -> int | None:
        """The seat a token (or a signed-in account) belongs to, or None."""
        for i, seat in enumerate(self.seats):
            if seat.accepts(token):
                return i
        if isinstance(token, AccountKey):  # a guest's seat bound to the account at sign-in
            for i in token.claimed:
                held = self.seats[i] if 0 <= i < 4 else None
                if held is not None and held.kind == HUMAN and held.account_id is None \
                        and held.account is None and held.bot_token is None:
                    return i
        return None

    def to_json(self) -> dict[str, Any]:
        """The settings for storage."""
        return {
            "id": self.id,
            "kind": self.kind,
            "rules": self.rules.to_dict(),
            "preset": self.preset,
            "seats": [s.to_json() for s in self.seats],
            "created_at": self.created_at,
            "first_dealer": self.first_dealer,
            "first_draw": draw_to_json(self.first_draw),
            "extra": self.extra,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableConfig:
        """Read :meth:`to_json` output."""
        seats = tuple(Seat.from_json(s) for s in data["seats"])
        if len(seats) != 4:
            raise ValueError("a table has four seats")
        return cls(
            id=str(data["id"]),
            kind=str(data["kind"]),
            rules=Rules.from_dict(data["rules"]),
            seats=(seats[0], seats[1], seats[2], seats[3]),
            preset=str(data.get("preset", "classic")),
            created_at=float(data.get("created_at", 0.0)),
            first_dealer=int(data.get("first_dealer", 0)),
            first_draw=draw_from_json(data.get("first_draw")),
            extra=dict(data.get("extra") or {}),
        )


def seat_name(seat: int) -> str:
    """The display name of a seat position (South, West, North, East)."""
    return SEAT_NAMES[seat]
