"""The accounts and coins models: sign up and in, the balance, the ledger, coin tables."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from msgspec import Meta, Struct

from ...accounts.service import check_password, check_username
from ...coins import rules as coin_rules
from ...errors import DomainError
from .common import Request
from .tables import Pair, SeatNumber


def _refusal_of(check: Any) -> Any:
    """The refusal a domain check gives for a value (its own words)."""

    def refusal(value: Any) -> str:
        try:
            check(value)
        except DomainError as e:
            return e.message
        return f"{value!r} is not allowed here"

    return refusal


class Credentials(Request):
    """``POST /api/accounts``: a username and a password for a new account.

    The account service checks both (in its own words); the model only says they are text.
    """

    username: str | None = None
    password: str | None = None

    what: ClassVar[str] = "signing in"
    refusals: ClassVar[dict[str, Any]] = {
        "username": _refusal_of(check_username),
        "password": _refusal_of(check_password),
    }


class SignIn(Credentials):
    """``POST /api/session``: a username and a password; anything else is simply wrong."""

    refused_as: ClassVar[str] = "wrong_credentials"
    refusals: ClassVar[dict[str, Any]] = {
        "username": "wrong username or password",
        "password": "wrong username or password",
    }


class ActiveTable(Struct):
    """The account's coin game in progress, with the seat's token to rejoin it."""

    table: str
    stake: int
    payout: int
    leaving_fee: int
    status: str
    started: str
    finished: str | None
    id: str
    seat: SeatNumber
    token: str
    url: str
    ws: str


class LiveGame(Struct):
    """One of the signed-in person's games in progress."""

    id: str
    """The table id."""
    kind: str
    """``practice``, ``coin`` or ``online``."""
    seat: SeatNumber
    """Their seat."""
    status: Literal["waiting", "playing"]
    """``waiting``: an online table before its start; ``playing``: a game under way."""
    url: str
    """Where to go back to it (the waiting page, or the table)."""
    quick: bool = False
    """A quick-play table (``Play now``)."""
    rated: bool = False
    """A rated table."""
    stake: int = 0
    """The coin stake (0: none)."""


class LiveGames(Struct):
    """``GET /api/me/live``: the person's waiting tables and games in play, newest first."""

    games: list[LiveGame]


class HeldSeat(Struct):
    """A seat this browser holds: the table and the seat's token."""

    id: Annotated[str, Meta(min_length=1, max_length=64)]
    token: Annotated[str, Meta(min_length=1, max_length=200)]


class ClaimSeats(Struct):
    """``POST /api/me/seats``: the seats this browser took as a guest."""

    seats: Annotated[list[HeldSeat], Meta(max_length=50)]


class ClaimedSeats(Struct):
    """The tables whose seat is now the account's."""

    bound: list[str]


class Me(Struct):
    """Who is signed in: the balance, the active coin table, the CSRF token."""

    username: str
    balance: Annotated[int, Meta(ge=0)]
    csrf: str
    active_table: ActiveTable | None
    can_top_up: bool
    top_up_to: int
    notice: str


class SessionState(Struct):
    """Who this browser is: a guest (``me`` null) or the signed-in account. Always 200, so a
    guest's page asks without a refusal showing as an error in its console."""

    signed_in: bool
    me: Me | None


class SignedOut(Struct):
    """The session is over."""

    signed_out: Literal[True]


class Entry(Struct):
    """One ledger entry."""

    id: int
    amount: int
    reason: str
    table: str | None
    balance_after: int
    time: str


class CoinHistory(Struct):
    """The coin history, newest first."""

    balance: int
    entries: list[Entry]
    notice: str


class CoinGameResult(Struct):
    """One coin game with its result."""

    table: str
    stake: int
    payout: int
    leaving_fee: int
    status: str
    started: str
    finished: str | None
    id: str
    score: Pair | None
    replay: str | None
    hands: int


class Games(Struct):
    """Coin games with results, replay links and statistics."""

    games: list[CoinGameResult]
    stats: dict[str, int]
    notice: str


class TopUp(Struct):
    """The daily top-up was paid."""

    entry: Entry
    balance: int
    notice: str


class Stake(Struct):
    """A stake on offer: what a win pays and what leaving costs."""

    stake: int
    payout: int
    winnings: int
    leaving_fee: int
    leaving_costs: int
    cover: int
    """Coins a balance needs to sit at this stake: the stake plus the leaving fee."""


class Stakes(Struct):
    """The stakes offered and the rules of coin games."""

    stakes: list[Stake]
    rule: str
    starting_balance: int
    top_up_to: int
    notice: str


class CoinTableRequest(Request):
    """``POST /api/tables`` of kind ``coin``: hold the stake and open the table.

    ``request_id`` (or the ``Idempotency-Key`` header) makes a repeat of the same request
    return the same table with nothing charged again.
    """

    kind: Literal["coin"]
    stake: Annotated[int, Meta(extra_json_schema={"enum": list(coin_rules.STAKES)})] | None = None
    request_id: Annotated[str, Meta(min_length=1, max_length=80)] | None = None

    what: ClassVar[str] = "a coin table"
    refusals: ClassVar[dict[str, Any]] = {
        "stake": "choose a stake of " + ", ".join(str(s) for s in coin_rules.STAKES) + " coins",
        "request_id": "request_id must be a string of 1 to 80 characters",
    }

    @classmethod
    def unknown_field(cls, name: str) -> str:
        """The refusal of a field a coin table does not take."""
        return f"unknown field {name!r}: a coin table takes kind, stake and request_id"


class CoinTableCreated(ActiveTable):
    """The coin table is open (or was already, for a repeated request): the active table,
    with the balance after the stake and the play-coin notice."""

    balance: int
    notice: str


class Left(Struct):
    """What leaving a coin game cost."""

    left: bool
    status: str
    stake: int
    stake_forfeit: int
    fee: int
    fee_rule: int
    balance: int
    notice: str
