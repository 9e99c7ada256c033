"""Online tables against real people: seats to claim before the game, then an ordinary table.

Anyone may open an online table with a display name (no account): the creator sits South
(seat 0). A signed-in person's seat records their account (the caller passes its id). A
*rated* table takes signed-in people only, one seat each, and starts only with four.
Until the creator starts the game the table is *open*: it is listed, and anyone may
claim a free seat with a name and get that seat's token. Starting turns it into an
ordinary :class:`~euchre.table.actor.seats.TableConfig` of kind ``online``: the people at their
seats, computer players (of the level chosen at creation) in the seats still free. Each
person's move is timed by the same move clock as coin tables
(:class:`~euchre.table.kinds.coin.CoinTurnPolicy`), with the table's own ``seconds_per_move``.

The rules of each change (who may claim, leave, start, cancel, agree to fill) are methods of
:class:`OpenTable`, which the server's registry, :class:`euchre.table.kinds.lobby.Lobby`,
applies to tables kept in a store (:mod:`euchre.storage.open_tables`: memory, or SQL so
they survive a restart and every process sees the same). Started tables are stored and
resumed like every other table. An open table nobody but its creator has joined is
forgotten after :data:`ALONE_FOR` (10 minutes), one with people after :data:`OPEN_FOR` (an
hour); the list is read a page at a time (:func:`page_of`).

A *quick-play* table (``quick``) is opened by ``Play now``: it has no creator's privileges,
anyone seated may leave (South too), and it starts by itself when four people sit or when
every person seated agreed to fill the rest with computers.
"""

from __future__ import annotations

import dataclasses
import math
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ...errors import DomainError
from ...hand import SEAT_NAMES
from ...rules import Rules
from ..actor.first_draw import choose_first_dealer
from ..actor.kind import TableKind
from ..actor.seats import (
    BOT,
    HUMAN,
    WIDER_SOURCE,
    AccountKey,
    BotKey,
    Seat,
    TableConfig,
    hash_token,
)
from .clock import ClockPolicy
from .coin import NO_HINTS, CoinTurnPolicy

ONLINE = "online"
"""The kind of an online table."""

DEFAULT_SECONDS = 30.0
"""Seconds per move when the request names none."""

MIN_SECONDS = 5.0
"""The shortest clock a table may choose."""

MAX_SECONDS = 600.0
"""The longest clock a table may choose."""

DEFAULT_LEVEL = "medium"
"""The computer players' level for seats still free at the start, when none is named."""

OPEN_FOR = 3600.0
"""Seconds an online table stays open (listed, waiting for its start) after it is made."""

ALONE_FOR = 600.0
"""Seconds an online table stays open while nobody but its creator has taken a seat."""

PAGE_SIZE = 20
"""Open tables listed per page when the request names no ``limit``."""

MAX_PAGE = 50
"""The most open tables one page lists."""

MAX_OPEN = 500
"""Open online tables kept at once (more are refused until some start or expire)."""

MAX_NAME = 24
"""The longest display name."""

AWAY_GRACE = 60.0
"""Seconds a person whose connection is gone keeps the seat in a started game; then a
computer (expert) plays it to the end, as if they had left."""

GUEST_REFUSED = "rated tables are for signed-in people: sign in (or create an account) first"
"""Why a guest may not open, or sit at, a rated table."""

GUEST_STAKE_REFUSED = ("tables with a stake are for signed-in people (play coins are kept "
                       "on an account): sign in (or create an account) first")
"""Why a guest may not open, or sit at, a table with a stake."""

BOT_RATED_REFUSED = ("this rated table does not allow bots: its people chose to be rated "
                     "against people only")
"""Why an outside bot may not sit at a rated table opened without ``allow_bots``."""

BOT_STAKE_REFUSED = "bots hold no play coins: tables with a stake are for people"
"""Why an outside bot may not sit at a table with a stake."""

BOT_OWNER_REFUSED = "a bot and its owner cannot sit at one rated table"
"""Why a bot may not be rated at its owner's table (nor the owner at their bot's)."""

BOT_SIBLING_REFUSED = ("two bots of one owner cannot sit at one rated table: they would be "
                       "rated against each other")
"""Why a second bot of the same owner may not sit at a rated table."""


class OnlineError(DomainError):
    """A request about an online table that is refused; nothing changed."""


class OnlineNotFound(OnlineError):
    """No open online table has that id."""

    code = "not_found"


class OnlineConflict(OnlineError):
    """The seat is taken, the game has started, or too many tables are open."""

    code = "conflict"


class SameSource(OnlineConflict):
    """Two accounts from one network or browser at a rated table (409). The wire code
    keeps its first name, ``same_origin``, for clients; it has nothing to do with a web
    page's ``Origin``."""

    code = "same_origin"


SAME_SOURCE_REFUSED = ("a rated game needs four people on four different connections: someone "
                       "at this table plays from your address or from this browser. Sit at "
                       "another rated table, or play together at a table that is not rated")
"""Why a seat at a rated table is refused to someone from a seated person's network or
browser."""


class OnlineForbidden(OnlineError):
    """Only the table's creator may do that."""

    code = "forbidden"


@dataclass(frozen=True)
class OnlineOptions:
    """What the creator asked for."""

    preset: str = "classic"
    """The rules preset."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Changes to the preset, by rule name."""
    seconds_per_move: float = DEFAULT_SECONDS
    """Each person's clock for one move."""
    level: str = DEFAULT_LEVEL
    """The level of the computer players that fill free seats at the start."""
    name: str = "Host"
    """The creator's display name."""
    rated: bool = False
    """Whether the game is rated: signed-in people only, four of them, no computers."""
    spectators: bool = True
    """Whether people not seated may watch the game (a choice apart from ``private``)."""
    stake: int = 0
    """Play coins each person stakes to sit (0: no stake); the winners share the pot."""
    allow_bots: bool = False
    """At a rated table: outside bots may sit, and are rated with the people (everyone who
    sits accepts it; off by default). Unrated tables always take bots."""
    private: bool = False
    """Left out of every list (the lobby, its socket, ``GET /api/online``), waiting or
    started: reached only by its link. Whether people may watch it is ``spectators``."""
    talk: bool = True
    """Whether its people may send quick messages between hands (false: a silent table,
    :mod:`euchre.table.actor.talk`)."""

    def make_rules(self) -> Rules:
        """The rules: the preset with the changes applied."""
        return Rules.preset(self.preset, **self.rules)


@dataclass(frozen=True)
class BotSeat:
    """An outside bot claiming a seat: the token it came with and the bot's owner."""

    token_id: int
    """The bot token's id (the started table's seat keeps it)."""
    owner_id: int
    """The account of the person who made the bot."""


def check_bot_allowed(options: OnlineOptions, bot: BotSeat | None) -> None:
    """Refuse (403) an outside bot at a table with a stake, or at a rated table whose
    people did not allow bots."""
    if bot is None:
        return
    if options.stake:
        raise OnlineForbidden(BOT_STAKE_REFUSED)
    if options.rated and not options.allow_bots:
        raise OnlineForbidden(BOT_RATED_REFUSED)


@dataclass
class OpenTable:
    """An online table before its start: who has claimed which seat."""

    id: str
    """The table id (kept when the game starts)."""
    options: OnlineOptions
    """The creator's choices."""
    created_at: float
    """When it was made (the registry's clock)."""
    people: list[tuple[str, str] | None]
    """Per seat: (name, token hash) of the person who claimed it, or None while free."""
    started: bool = False
    """Whether the game has started (no more seats can be claimed)."""
    creator: str = ""
    """Who opened it (an account or an address), for the cap on open tables per creator."""
    accounts: list[int | None] = field(default_factory=lambda: [None] * 4)
    """Per seat: the id of the signed-in account that claimed it (None: a guest, or free)."""
    cancelled: bool = False
    """Whether the creator cancelled it (kept a while so seated people can be told)."""
    quick: bool = False
    """A quick-play table: matched by ``Play now``, starts by itself, no creator."""
    holders: list[str | None] = field(default_factory=lambda: [None] * 4)
    """Per seat: who holds it (``account:N`` or ``ip:A``), for the cap on seats per person."""
    agreed: list[bool] = field(default_factory=lambda: [False] * 4)
    """Per seat: whether its person agreed to fill the free seats with computers."""
    started_at: float | None = None
    """When the game started (the registry's clock), once it has."""
    sources: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    """Per seat at a rated table: where its person sat down from (their network and
    browser, hashed with the table id), so that one person's accounts never meet there."""
    version: int = 0
    """Raised by every change: a store writes a change only over the version it read."""
    bots: list[BotSeat | None] = field(default_factory=lambda: [None] * 4)
    """Per seat: the outside bot sitting there (None: a person, or free)."""
    opened: bool = False
    """Whether its started game is open (until then the start may still be undone and
    its seats count as waiting ones for the cap on seats per person)."""

    def waiting(self) -> bool:
        """Whether it waits for its start (neither started nor cancelled)."""
        return not self.started and not self.cancelled

    def seat_of(self, token: Any) -> int | None:
        """The seat whose token is ``token`` (or the seat of the signed-in account
        ``token``), or None."""
        if isinstance(token, AccountKey):
            return next((i for i, a in enumerate(self.accounts)  # never an outside bot's
                         if a == token.account_id and self.people[i] is not None
                         and self.bots[i] is None), None)
        if isinstance(token, BotKey):  # the bot's own seat, by its account
            return next((i for i, a in enumerate(self.accounts)
                         if a == token.account_id and self.people[i] is not None
                         and self.bots[i] is not None), None)
        if not isinstance(token, str):
            return None
        hashed = hash_token(token)
        for i, person in enumerate(self.people):
            if person is not None and secrets.compare_digest(person[1], hashed):
                return i
        return None

    def pot(self) -> int:
        """Coins in the pot at the start: the stake of each person seated (computers stake
        nothing)."""
        return self.options.stake * sum(p is not None for p in self.people)

    def stakers(self) -> dict[int, int]:
        """Seat -> account of each person who stakes at the start."""
        return {i: a for i, a in enumerate(self.accounts)
                if a is not None and self.people[i] is not None}

    def is_alone(self) -> bool:
        """Whether nobody but the creator has taken a seat."""
        return all(p is None for p in self.people[1:])

    def free_seats(self) -> list[int]:
        """The seats nobody has claimed."""
        return [i for i, p in enumerate(self.people) if p is None]

    def seated(self) -> int:
        """How many people sit here."""
        return 4 - len(self.free_seats())

    def status(self) -> str:
        """``open``, ``started`` or ``cancelled``."""
        return "cancelled" if self.cancelled else "started" if self.started else "open"

    def match_key(self) -> str:
        """What ``Play now`` matches on: preset, clock, stake, rated (rule changes: none)."""
        o = self.options
        return f"{o.preset}|{o.seconds_per_move:g}|{o.stake}|{int(o.rated)}"

    def check_open(self) -> None:
        """Refuse (409) unless seats can still change: not cancelled, not started."""
        _refuse_cancelled(self)
        if self.started:
            raise OnlineConflict("the game has started: no seat can be claimed now")

    def clash(self, sources: list[str]) -> int | None:
        """A seat at this rated table whose person sat down from one of ``sources`` (the
        same network or browser), or None."""
        shared = self.shared_source(sources)
        return shared[0] if shared is not None else None

    def shared_source(self, sources: list[str]) -> tuple[int, str] | None:
        """As :meth:`clash`, with what is shared: ``"address"`` (the network, always an
        source list's first key) or ``"browser"``."""
        if not self.options.rated:
            return None
        for i, theirs in enumerate(self.sources):
            shared = set(theirs) & set(sources)
            if self.people[i] is None or theirs is sources or not shared:
                continue
            by_address = theirs[:1] == sources[:1] or any(
                k.startswith(WIDER_SOURCE) for k in shared)  # one IPv6 /56 or /48
            return i, "address" if by_address else "browser"
        return None

    def take_seat(self, seat: int, name: str, token: str, account: int | None,
                  holder: str | None = None, bot: BotSeat | None = None,
                  sources: list[str] | None = None) -> None:
        """Seat a person or an outside bot (refused: taken seat, started, cancelled; at a
        rated or stake table a guest or a second seat for one account; a bot where it is
        not allowed, or with its owner at a rated table; at a rated table someone from the
        same network or browser as a person seated)."""
        self.check_open()
        if self.people[seat] is not None:
            raise OnlineConflict(f"{SEAT_NAMES[seat]} is taken: choose a free seat")
        check_bot_allowed(self.options, bot)
        if self.options.rated:
            owners = {b.owner_id for b in self.bots if b is not None}
            if (bot is not None and bot.owner_id in self.accounts) or account in owners:
                raise OnlineConflict(BOT_OWNER_REFUSED)
            if bot is not None and bot.owner_id in owners:
                raise OnlineConflict(BOT_SIBLING_REFUSED)
        if self.options.rated or self.options.stake:
            if account is None:
                raise OnlineForbidden(GUEST_REFUSED if self.options.rated
                                      else GUEST_STAKE_REFUSED)
            if account in self.accounts:
                what = "rated" if self.options.rated else "stake"
                raise OnlineConflict(f"you already have a seat at this {what} table")
            shared = self.shared_source(sources or [])
            if shared is not None:
                where = "from your address" if shared[1] == "address" else "in this browser"
                raise SameSource(f"{SAME_SOURCE_REFUSED} ({SEAT_NAMES[shared[0]]} sat down "
                                 f"{where})")
        self.people[seat] = (name, hash_token(token))
        self.sources[seat] = list(sources or []) if self.options.rated else []
        self.accounts[seat] = account
        self.holders[seat] = holder
        self.agreed[seat] = False
        self.bots[seat] = bot

    def begin(self, now: float) -> None:
        """Mark the game started (refused: cancelled, started already, rated with a free
        seat)."""
        _refuse_cancelled(self)
        if self.started:
            raise OnlineConflict("the game has already started")
        free = len(self.free_seats())
        if self.options.rated and free:
            raise OnlineConflict(f"a rated table starts only with four people: "
                                 f"{free} seat{'s are' if free > 1 else ' is'} still free")
        if self.options.rated:
            for i in range(4):
                shared = self.shared_source(self.sources[i]) if self.sources[i] else None
                if shared is not None and shared[0] != i:
                    pair = sorted((i, shared[0]))
                    raise SameSource(f"a rated game needs four people on four connections: "
                                     f"{SEAT_NAMES[pair[0]]} and {SEAT_NAMES[pair[1]]} play "
                                     f"from the same address or browser (the same "
                                     f"{shared[1]}), so one of them must give up the seat")
        self.started = True
        self.started_at = now

    def give_up(self, token: Any) -> int:
        """Free the seat ``token`` holds before the start; returns it. The creator of an
        invite table cancels instead; at a quick table anyone may leave."""
        seat = self.seat_of(token)
        if seat is None:
            raise OnlineForbidden("that token holds no seat at this table")
        _refuse_cancelled(self)
        if self.started:
            raise OnlineConflict("the game has started: a seat cannot be given up before "
                                 "the start any more")
        if seat == 0 and not self.quick:
            raise OnlineConflict("the creator cannot leave their own table: cancel it instead")
        self.people[seat] = None
        self.accounts[seat] = None
        self.holders[seat] = None
        self.agreed[seat] = False
        self.bots[seat] = None
        self.sources[seat] = []
        return seat

    def cancel_by(self, token: Any) -> None:
        """Cancel before the start (the creator's token; quick tables have no creator)."""
        if self.quick or self.seat_of(token) != 0:
            raise OnlineForbidden("only the table's creator can cancel it"
                                  + (": at a quick-play table, leave your seat" if self.quick
                                     else ""))
        _refuse_cancelled(self)
        if self.started:
            raise OnlineConflict("the game has started: it cannot be cancelled")
        self.cancelled = True

    def agree_to_fill(self, token: Any) -> int:
        """The person at ``token``'s seat agrees to fill free seats with computers; returns
        the seat (refused at rated tables: they need four people)."""
        seat = self.seat_of(token)
        if seat is None:
            raise OnlineForbidden("that token holds no seat at this table")
        self.check_open()
        if not self.quick:
            raise OnlineConflict("at a table by invitation the creator starts the game")
        if self.options.rated:
            raise OnlineConflict("a rated table cannot be filled with computers: it starts "
                                 "when four people sit")
        self.agreed[seat] = True
        return seat

    def ready(self) -> bool:
        """Whether a quick table starts now: four people, or everyone seated agreed to fill
        (never a rated table short of four)."""
        if not self.quick or not self.waiting() or not self.seated():
            return False
        if not self.free_seats():
            return True
        return not self.options.rated and all(
            self.agreed[i] for i, p in enumerate(self.people) if p is not None)

    def to_stored(self) -> dict[str, Any]:
        """Everything to keep it (token hashes included: private), as JSON data."""
        return {"id": self.id, "created_at": self.created_at, "creator": self.creator,
                "options": dataclasses.asdict(self.options),  # every option, new ones too
                "people": [list(p) if p else None for p in self.people],
                "accounts": self.accounts, "holders": self.holders, "agreed": self.agreed,
                "started": self.started, "cancelled": self.cancelled, "quick": self.quick,
                "started_at": self.started_at, "version": self.version,
                "bots": [dataclasses.asdict(b) if b else None for b in self.bots],
                "sources": self.sources, "opened": self.opened}

    @classmethod
    def from_stored(cls, data: dict[str, Any]) -> OpenTable:
        """The table :meth:`to_stored` kept."""
        return cls(
            id=data["id"], options=OnlineOptions(**data["options"]),
            created_at=float(data["created_at"]),
            people=[(p[0], p[1]) if p else None for p in data["people"]],
            started=bool(data["started"]), creator=data.get("creator", ""),
            accounts=list(data["accounts"]), cancelled=bool(data["cancelled"]),
            quick=bool(data.get("quick", False)),
            holders=list(data.get("holders") or [None] * 4),
            agreed=list(data.get("agreed") or [False] * 4),
            started_at=data.get("started_at"), version=int(data.get("version", 0)),
            bots=[BotSeat(**b) if b else None for b in data.get("bots") or [None] * 4],
            # "origins": the key's name before issue 34 (tables stored then)
            sources=[list(o) for o in data.get("sources") or data.get("origins")
                     or [[], [], [], []]],
            opened=bool(data.get("opened", False)))

    def to_json(self) -> dict[str, Any]:
        """What anyone may see: rules, clock, seats taken and free (never a token)."""
        rules = self.options.make_rules()
        return {
            "id": self.id,
            "status": self.status(),
            "quick": self.quick,
            "rated": self.options.rated,
            "private": self.options.private,
            "spectators": self.options.spectators,
            "talk": self.options.talk,
            **({"allow_bots": True} if self.options.allow_bots else {}),
            "stake": self.options.stake,
            "pot": self.pot() if self.started else 0,
            "preset": self.options.preset,
            "rules": rules.to_dict(),
            "rules_text": rules.describe(),
            "seconds_per_move": self.options.seconds_per_move,
            "level": self.options.level,
            "seats": [{"seat": i, "position": SEAT_NAMES[i],
                       "name": p[0] if p else None, "taken": p is not None,
                       "signed_in": self.accounts[i] is not None,
                       **({"bot": True} if self.bots[i] is not None else {}),
                       "fill": p is not None and self.agreed[i]}
                      for i, p in enumerate(self.people)],
            "free": len(self.free_seats()),
            "url": f"/online/{self.id}",
        }

    def config(self, first_dealer: int | None = None) -> TableConfig:
        """The table's settings at the start: people where claimed, computers elsewhere."""
        level = self.options.level

        def seat(i: int) -> Seat:
            person = self.people[i]
            if person is None:
                return Seat(BOT, f"{SEAT_NAMES[i]} ({level})", level, secrets.randbits(62))
            account, bot = self.accounts[i], self.bots[i]
            return Seat(HUMAN, person[0], None, None, person[1],
                        account=person[0] if account is not None else None, account_id=account,
                        bot_token=bot.token_id if bot is not None else None)

        dealer, draw = choose_first_dealer(first_dealer)
        return TableConfig(
            id=self.id,
            kind=ONLINE,
            rules=self.options.make_rules(),
            seats=(seat(0), seat(1), seat(2), seat(3)),
            preset=self.options.preset,
            created_at=time.time(),
            first_dealer=dealer,
            first_draw=draw,
            extra={"seconds_per_move": self.options.seconds_per_move, "level": level,
                   **({"rated": True} if self.options.rated else {}),
                   **({"allow_bots": True} if self.options.allow_bots else {}),
                   **({} if self.options.spectators else {"spectators": False}),
                   **({"private": True} if self.options.private else {}),
                   **({} if self.options.talk else {"talk": False}),
                   **({"stake": self.options.stake, "pot": self.pot()}
                      if self.options.stake else {})},
        )


def check_creator(table: OpenTable, token: Any) -> None:
    """Refuse (403) unless ``token`` is the creator's (an invite table's South)."""
    creator = table.people[0]
    if table.quick or creator is None or table.seat_of(token) != 0:
        raise OnlineForbidden("only the table's creator can start the game"
                              + (": a quick-play table starts by itself" if table.quick
                                 else ""))


def _refuse_cancelled(table: OpenTable) -> None:
    if table.cancelled:
        raise OnlineConflict("the creator cancelled this table")


def page_of(newest_first: list[OpenTable], limit: int, cursor: str | None
            ) -> tuple[list[OpenTable], str | None]:
    """One page of ``newest_first`` after ``cursor``, and the next page's cursor."""
    after = parse_cursor(cursor) if cursor else None
    waiting = newest_first
    if after is not None:
        waiting = [t for t in waiting if (t.created_at, t.id) < after]
    page = waiting[:limit]
    more = len(waiting) > limit
    return page, (_cursor(page[-1]) if more and page else None)


def _cursor(table: OpenTable) -> str:
    return f"{table.created_at!r}~{table.id}"


def parse_cursor(cursor: str) -> tuple[float, str]:
    """The place a :func:`page_of` cursor names, or :class:`OnlineError`."""
    when, _, table_id = cursor.partition("~")
    try:
        created = float(when)
    except ValueError:
        raise OnlineError("cursor is not one this server gave: start from the first page"
                          ) from None
    if not table_id or not math.isfinite(created) or len(cursor) > 80:
        raise OnlineError("cursor is not one this server gave: start from the first page")
    return created, table_id


def online_policy(config: TableConfig, pace: float = 1.0) -> CoinTurnPolicy:
    """The move clock of an online table: the coin clock with the table's seconds per move
    (run at ``pace``: :attr:`~euchre.table.kinds.clock.ClockPolicy.pace`)."""
    seconds = float(config.extra.get("seconds_per_move", DEFAULT_SECONDS))
    return CoinTurnPolicy(config, ClockPolicy(seconds_per_move=seconds, pace=pace))


ONLINE_KIND = TableKind(ONLINE, hints=False, policy=online_policy, no_hints=NO_HINTS,
                        spectators=True, away_grace=AWAY_GRACE, talk=True)
"""Online tables: each person's move on the table's clock; no hints (other people play);
anyone may watch unless the creator chose ``spectators: false``; a person away past
:data:`AWAY_GRACE` is replaced by a computer for the rest of the game; quick messages
between hands unless the creator chose ``talk: false``."""
