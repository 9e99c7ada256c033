"""The accounts and coins API: sign up and in, the balance and its history, coin tables.

An extension (:func:`accounts_extension`) of :func:`euchre.server.app.create_app`: its
endpoints add the API and pages; its startup wires the services, registers the ``coin``
table kind (its move clock and its finish hook that pays a win) and settles what a crash
left half done.

Security: the session cookie holds only a random id (``HttpOnly``, ``SameSite=Strict``);
every state-changing request made with it must echo the session's CSRF token in the
``X-CSRF-Token`` header; sign-up and sign-in take only ``application/json`` from this
site's own origin (:mod:`euchre.server.core.web_origin`) and are rate limited
(:mod:`euchre.server.core.guards`: sign-in attempts per username and address, sign-up
attempts and new accounts per address). Refusals are the
services' errors with their stable codes, answered by the app's exception handlers
(``{"error", "code"}`` with a 4xx).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import os
import tempfile
from dataclasses import dataclass
from typing import Any, Protocol, cast

import msgspec
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.requests import Request
from starlette.responses import Response

from ...accounts import (
    COOKIE_NAME,
    CSRF_HEADER,
    AccountService,
    CsrfError,
    LoginSession,
    LoginSessionStore,
    NotSignedInError,
    Passwords,
)
from ...accounts.lookalikes import fill_missing
from ...accounts.sessions import SESSION_DAYS
from ...coins import CoinService
from ...coins import rules as coin_rules
from ...coins.service import Settled
from ...record import GameRecord
from ...storage.base import FINISHED, GameStore, StaleFenceError
from ...table.actor.kind import PRACTICE_KIND, FinishedTable
from ...table.actor.seats import new_table_id, new_token
from ...table.kinds.clock import COMPUTER_SPEED, ClockPolicy
from ...table.kinds.coin import COIN, coin_kind, coin_table
from ...table.kinds.lookalike import prepare as prepare_lookalikes
from ..core import guards
from ..core.encoder import json_answer
from ..core.errors import ApiError
from ..core.people import bearer_token, bot_of, seat_key
from ..core.registry import Endpoint, Extension, Param, TableKindApi
from ..core.site import kept_site, needed
from ..tables.api import int_param, read_json
from ..tables.door import Tables, TablesSite
from ..wire.accounts import (
    ActiveTable,
    CoinGameResult,
    CoinHistory,
    CoinTableCreated,
    CoinTableRequest,
    Credentials,
    Entry,
    Games,
    Left,
    Me,
    SessionState,
    SignedOut,
    SignIn,
    Stakes,
    TopUp,
)
from ..wire.common import convert
from .account_stats import account_stats

log = logging.getLogger(__name__)

MOVE_SECONDS_ENV = "EUCHRE_MOVE_SECONDS"
"""Environment variable: seconds per move at coin tables (tests only; default 90)."""
ARGON2_PROFILE_ENV = "EUCHRE_ARGON2_PROFILE"
"""Environment variable: ``cheapest`` for fast tests (default: argon2's RFC 9106 profile)."""


@dataclass
class AccountsOptions:
    """Settings of the accounts extension (``accounts_extension(options)``)."""

    password_profile: str = "default"
    """The argon2 profile: ``default`` or ``cheapest`` (tests)."""
    move_seconds: float = 90.0
    """The full move clock at coin tables."""

    def clock_policy(self) -> ClockPolicy:
        """The coin tables' move clock: :attr:`move_seconds` a move, and computer speed
        never slower than that (a test's short clock plays every move at its pace)."""
        return ClockPolicy(seconds_per_move=self.move_seconds,
                           computer_speed=min(COMPUTER_SPEED, self.move_seconds))

    @classmethod
    def from_env(cls) -> AccountsOptions:
        """Options from the environment (see :data:`MOVE_SECONDS_ENV`)."""
        options = cls()
        if os.environ.get(ARGON2_PROFILE_ENV):
            options.password_profile = os.environ[ARGON2_PROFILE_ENV]
        if os.environ.get(MOVE_SECONDS_ENV):
            options.move_seconds = float(os.environ[MOVE_SECONDS_ENV])
        return options


@dataclass
class AccountsState:
    """The services behind the accounts API."""

    engine: AsyncEngine
    """The database (shared with the game store when it is SQL)."""
    accounts: AccountService
    """Sign up, sign in."""
    sessions: LoginSessionStore
    """Sessions."""
    coins: CoinService
    """Coin games and the ledger."""
    clock: ClockPolicy
    """The move clock at coin tables."""


class AccountsSite(TablesSite, Protocol):
    """What accounts and coin tables read of the site."""

    accounts: AccountsState | None
    """The accounts' services (None: the app has no accounts)."""


def accounts_site(conn: Any) -> AccountsSite:
    """The site of ``conn`` (a request, a socket or the app), as accounts read it."""
    return cast(AccountsSite, kept_site(conn))


def state_of(request: Request) -> AccountsState:
    """The accounts services of the site (404 if the app has no accounts)."""
    state = accounts_site(request).accounts
    if state is None:
        raise ApiError("not_available",
                       "accounts and coin tables are not available on this server")
    return state


# -- request checks ----------------------------------------------------------------------


async def signed_in(request: Request, *, csrf: bool) -> LoginSession:
    """The request's session; with ``csrf`` the X-CSRF-Token header must match it."""
    state = state_of(request)
    session = await state.sessions.find(request.cookies.get(COOKIE_NAME))
    if session is None:
        raise NotSignedInError("sign in first (your session is missing or has expired)")
    if csrf and not session.csrf_ok(request.headers.get(CSRF_HEADER)):
        raise CsrfError("the X-CSRF-Token header is missing or wrong: reload the page")
    return session


def same_origin_json(request: Request) -> None:
    """Refuse a sign-in or sign-up that is not JSON from this site (a forged form post)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError("unsupported_media", "send JSON (Content-Type: application/json)")
    # Another page's Origin was refused before this ran (core.web_origin).


def _set_cookie(request: Request, response: Response, session_id: str) -> None:
    response.set_cookie(
        COOKIE_NAME, session_id, max_age=SESSION_DAYS * 86400, path="/", httponly=True,
        samesite="strict", secure=request.url.scheme == "https",
    )


# -- accounts ------------------------------------------------------------------------------


async def _signed_in_body(state: AccountsState, account_id: int, csrf: str) -> Me:
    account = await state.accounts.get(account_id)
    active = await state.coins.active(account_id)
    return Me(
        username=account.username,
        balance=account.balance,
        csrf=csrf,
        active_table=msgspec.convert(_active_json(active[0]), ActiveTable) if active else None,
        can_top_up=await state.coins.can_top_up(account_id),
        top_up_to=coin_rules.TOP_UP_TO,
        notice=coin_rules.NO_CASH_VALUE,
    )


def _active_json(game: Any) -> dict[str, Any]:
    return {**game.to_json(), "id": game.table_id, "seat": game.seat, "token": game.seat_token,
            "url": f"/table/{game.table_id}", "ws": f"/ws/tables/{game.table_id}"}


async def post_accounts(request: Request) -> Response:
    """``POST /api/accounts``: create an account and sign in.

    Sign-up attempts per client address are limited, refused ones included, and new
    accounts further (each gets the welcome coins): then 429 with ``Retry-After``, and
    nothing is created (:mod:`euchre.server.core.guards`).
    """
    state = state_of(request)
    same_origin_json(request)
    data = await read_json(request)
    new_account = await guards.sign_up_attempt(request)
    try:
        body = convert(data, Credentials)
        account = await state.accounts.create(body.username, body.password)
    except BaseException:
        await new_account.give_back()
        raise
    session_id, session = await state.sessions.create(account.id)
    response = json_answer(await _signed_in_body(state, account.id, session.csrf), 201)
    _set_cookie(request, response, session_id)
    return response


async def post_session(request: Request) -> Response:
    """``POST /api/session``: sign in (at most a few attempts per username and address in
    a window, counted before the password is checked: :mod:`euchre.server.core.guards`)."""
    state = state_of(request)
    same_origin_json(request)
    data = await read_json(request)
    username = data.get("username") if isinstance(data, dict) else None
    attempt = await guards.sign_in_attempt(request, username)
    body = convert(data, SignIn)
    account = await state.accounts.authenticate(body.username, body.password)
    await attempt.give_back()  # a right password does not count against anyone
    await state.sessions.end(request.cookies.get(COOKIE_NAME))
    session_id, session = await state.sessions.create(account.id)
    response = json_answer(await _signed_in_body(state, account.id, session.csrf))
    _set_cookie(request, response, session_id)
    return response


async def delete_session(request: Request) -> Response:
    """``DELETE /api/session``: sign out."""
    state = state_of(request)
    await signed_in(request, csrf=True)
    await state.sessions.end(request.cookies.get(COOKIE_NAME))
    response = json_answer(SignedOut(signed_out=True))
    response.delete_cookie(COOKIE_NAME, path="/", httponly=True, samesite="strict")
    return response


async def get_me(request: Request) -> Response:
    """``GET /api/me``: who is signed in, the balance, the active coin table."""
    state = state_of(request)
    session = await signed_in(request, csrf=False)
    return json_answer(await _signed_in_body(state, session.account_id, session.csrf))

async def get_session(request: Request) -> Response:
    """``GET /api/session``: a guest, or who is signed in (the ``/api/me`` answer)."""
    state = state_of(request)
    session = await state.sessions.find(request.cookies.get(COOKIE_NAME))
    if session is None:
        return json_answer(SessionState(signed_in=False, me=None))
    me = await _signed_in_body(state, session.account_id, session.csrf)
    return json_answer(SessionState(signed_in=True, me=me))


async def get_ledger(request: Request) -> Response:
    """``GET /api/me/ledger``: the coin history, newest first."""
    state = state_of(request)
    session = await signed_in(request, csrf=False)
    limit = int_param(request, "limit", 100, 1, 500) or 100
    before = int_param(request, "before", None, 1, 2**62)
    entries = await state.coins.ledger.entries(session.account_id, limit, before)
    balance = await state.coins.ledger.balance(session.account_id)
    return json_answer(CoinHistory(balance=balance,
                              entries=[msgspec.convert(e.to_json(), Entry) for e in entries],
                              notice=coin_rules.NO_CASH_VALUE))


async def get_games(request: Request) -> Response:
    """``GET /api/me/games``: coin games with results, replay links and statistics."""
    state = state_of(request)
    session = await signed_in(request, csrf=False)
    store = accounts_site(request).store
    games = await state.coins.games(session.account_id, limit=100)
    stats, per_game = await account_stats(store, games)
    return json_answer(Games(games=msgspec.convert(per_game, list[CoinGameResult]),
                             stats=stats, notice=coin_rules.NO_CASH_VALUE))


async def post_top_up(request: Request) -> Response:
    """``POST /api/me/topup``: the free daily top-up."""
    state = state_of(request)
    session = await signed_in(request, csrf=True)
    entry = await state.coins.top_up(session.account_id)
    return json_answer(TopUp(entry=msgspec.convert(entry.to_json(), Entry),
                             balance=entry.balance_after, notice=coin_rules.NO_CASH_VALUE))


async def get_stakes(request: Request) -> Response:
    """``GET /api/stakes``: the stakes offered, what a win pays and what leaving costs."""
    return json_answer(msgspec.convert(coin_rules.stakes_json(), Stakes))


# -- coin tables ---------------------------------------------------------------------------


def _request_key(request: Request, body: CoinTableRequest) -> str | None:
    key = body.request_id or request.headers.get("idempotency-key")
    if key is not None and not 1 <= len(key) <= 80:
        raise ApiError("bad_request", "request_id must be a string of 1 to 80 characters")
    return key


async def repeats_coin_table(request: Request, body: CoinTableRequest) -> bool:
    """Whether this create repeats one that opened a table (its ``request_id``): a retry,
    which opens nothing and so is not counted toward the limits on new tables."""
    key = _request_key(request, body)
    if key is None:
        return False
    session = await signed_in(request, csrf=True)
    return await state_of(request).coins.opened_by_request(session.account_id, key) is not None


async def create_coin_table(request: Request, body: CoinTableRequest) -> CoinTableCreated:
    """``POST /api/tables {"kind": "coin", "stake": N}``: hold the stake, open the table.

    ``request_id`` (or the ``Idempotency-Key`` header) makes a repeat of the same request
    (a double click, a retry) return the same table with nothing charged again.
    """
    state = state_of(request)
    session = await signed_in(request, csrf=True)
    request_key = _request_key(request, body)
    account = await state.accounts.get(session.account_id)
    manager = accounts_site(request).manager
    table_id, token = new_table_id(), new_token()
    opened = await state.coins.open(session.account_id, table_id, body.stake,
                                    request_key=request_key, seat=0, seat_token=token)
    game = opened.game
    if opened.created:
        config, _ = coin_table(table_id, account.username, game.stake, token=token)
        try:
            await manager.open(config)
        except Exception:
            log.exception("could not open coin table %s: refunding the stake", table_id)
            await state.coins.refund(table_id)
            raise ApiError("unavailable", "the table could not be opened: your stake was "
                                          "refunded") from None
    balance = await state.coins.ledger.balance(session.account_id)
    return msgspec.convert({**_active_json(game), "balance": balance,
                            "notice": coin_rules.NO_CASH_VALUE}, CoinTableCreated)


COIN_GAME_ENDED = ("the game had already ended when your leave reached the table: you "
                   "played it to the end and nothing was charged (a win is paid as usual)")
"""The refusal of a leave that the coin table saw after the game's deciding card."""


async def _close_at_table(tables: Tables, table_id: str) -> bool:
    """End the coin table for its person's leave at the table itself, wherever it runs:
    its queue orders the leave against the moves (the deciding card among them) and the
    clock. True if the table was closed before its game ended (now, or by an earlier
    leave), False if the game had ended first (nothing changed). A table moving between
    processes meanwhile: :class:`~..tables.door.TableMoving` (503, nothing changed)."""
    table = await tables.open(table_id, move_here=True)
    if table is None:
        return True  # never stored (a crash while opening): the leave stands as asked
    return await table.close("left")


async def leave_coin_game(tables: Tables, coins: CoinService, table_id: str,
                          account_id: int) -> Settled:
    """Leave a coin game (the endpoint's work, without HTTP): the table decides first. A
    leave it sees after the deciding card (or any leave after the end) is refused,
    :class:`ApiError` ``game_ended`` (409), and charges nothing; one before it closes the
    table, and then the stake is forfeit and the fee charged, once however often (or
    wherever) it is asked."""
    game = await coins.get(table_id)
    if game is None or game.account_id != account_id:
        raise ApiError("no_table", "you have no coin table with that id")
    if game.status in ("won", "lost"):
        raise ApiError("game_ended", COIN_GAME_ENDED)
    if game.status == "active" and not await _close_at_table(tables, table_id):
        raise ApiError("game_ended", COIN_GAME_ENDED)
    # Closed before the end: charged here, after the table stored its closing (a crash
    # in between is charged by ``reconcile``); a repeat charges nothing again.
    return await coins.leave(table_id, account_id)


PRACTICE_GAME_ENDED = "the game had already ended: there is nothing to leave"
"""The refusal of a leave of a practice game that had ended."""


async def leave_practice_game(request: Request, tables: Tables, table_id: str) -> None:
    """Close a practice table whose seat is the signed-in person's (by account, or a guest
    seat bound to it at sign-in): it is put away, nothing is charged. ``no_table`` (404)
    if it is not theirs, ``game_ended`` (409) if its game had ended."""
    table = await tables.open(table_id, move_here=True)
    view = await table.view() if table is not None else None
    key = await seat_key(request, None, table_id)
    if table is None or view is None or view.config.kind != PRACTICE_KIND.name \
            or key is None or view.seat_of(key) is None:
        raise ApiError("no_table", "you have no coin or practice table with that id")
    if not await table.close("left"):
        raise ApiError("game_ended", PRACTICE_GAME_ENDED)


async def _practice_left(request: Request, state: AccountsState, table_id: str,
                         account_id: int) -> Response:
    """Close the caller's practice table (:func:`leave_practice_game`) and say so."""
    await leave_practice_game(request, accounts_site(request).tables, table_id)
    return json_answer(Left(
        left=True, status="left", stake=0, stake_forfeit=0, fee=0, fee_rule=0,
        balance=await state.coins.ledger.balance(account_id),
        notice=coin_rules.NO_CASH_VALUE))


async def post_leave(request: Request) -> Response:
    """``POST /api/tables/{id}/leave``: leave a coin game (the stake is forfeit, plus a
    fee). The table decides first: a leave it sees after the deciding card is refused
    (409 ``game_ended``) and charges nothing; one before it closes the table and is
    charged once, however often (or wherever) it is asked. A signed-in person's practice
    table is closed the same way, and costs nothing; so is an outside bot's, asked with its
    bot token alone (``Authorization: Bearer``: a bot sits at no coin table of this kind)."""
    state = state_of(request)
    table_id = request.path_params["table_id"]
    bearer = bearer_token(request)
    if bearer is not None:
        bot = await bot_of(request, bearer)
        if await state.coins.get(table_id) is not None:
            raise ApiError("no_table", "you have no coin or practice table with that id")
        return await _practice_left(request, state, table_id, bot.account_id)
    session = await signed_in(request, csrf=True)
    if await state.coins.get(table_id) is None:
        return await _practice_left(request, state, table_id, session.account_id)
    settled = await leave_coin_game(accounts_site(request).tables, state.coins,
                                    table_id, session.account_id)
    left = settled.game.status == "left"
    fee = -settled.entry.amount if settled.entry is not None else 0
    return json_answer(msgspec.convert({
        "left": left,
        "status": settled.game.status,
        "stake": settled.game.stake,
        "stake_forfeit": settled.game.stake if left else 0,
        "fee": fee,
        "fee_rule": coin_rules.leaving_fee(settled.game.stake),
        "balance": await state.coins.ledger.balance(session.account_id),
        "notice": coin_rules.NO_CASH_VALUE,
    }, Left))


# -- start-up ------------------------------------------------------------------------------


async def _engine_for(engine: AsyncEngine | None) -> AsyncEngine:
    if engine is not None:
        return engine
    # Games in memory: keep accounts in a throwaway SQLite file for this process's life.
    from ...storage.sql import make_engine, migrate

    folder = tempfile.mkdtemp(prefix="euchre-accounts-")
    url = f"sqlite+aiosqlite:///{folder}/accounts.db"
    await asyncio.to_thread(migrate, url)
    log.warning("games are kept in memory: accounts and coins last only while this runs")
    return make_engine(url)


OPENING_GRACE = 120.0
"""Seconds a coin game may have no stored table because another process of the site is
still opening it (``reconcile``'s ``grace`` when many processes serve the site)."""


def _age(created_at: dt.datetime, now: dt.datetime) -> float:
    """Seconds from ``created_at`` to ``now``."""
    def aware(t: dt.datetime) -> dt.datetime:
        return t if t.tzinfo else t.replace(tzinfo=dt.UTC)
    return (aware(now) - aware(created_at)).total_seconds()


async def reconcile(state: AccountsState, store: GameStore, grace: float = 0.0) -> None:
    """Settle coin games a crash left half done: refund a stake whose table was never
    stored (and is older than ``grace`` seconds), pay (or close) a game that ended before
    its finish hook ran, charge a leave whose table closed before the charge."""
    for game in await state.coins.active():
        stored = await store.get(game.table_id)
        if stored is None and _age(game.created_at, state.coins.now()) < grace:
            continue  # another process of the site may be opening it right now
        if stored is None:
            await state.coins.refund(game.table_id)
            log.info("refunded the stake of coin table %s (never opened)", game.table_id)
        elif stored.status == FINISHED and not stored.meta.get("closed"):
            winner = GameRecord.from_json(stored.record).replay().winner
            if winner is not None:
                await state.coins.finish(game.table_id, winner)
                log.info("settled coin table %s after a restart", game.table_id)
        elif stored.status == FINISHED and stored.meta.get("closed") == "left":
            # The table closed for the person's leave, then the server stopped before the
            # charge: the leave was decided before the end, so it is charged.
            await state.coins.leave(game.table_id, game.account_id)
            log.info("charged the leave of coin table %s after a restart", game.table_id)
    for stored in await store.unfinished():
        if stored.kind != COIN:
            continue
        left = await state.coins.get(stored.id)
        if left is not None and left.status == "left":
            # The person left, then the server stopped before the table was closed.
            meta = {**stored.meta, "closed": "left"}
            try:
                await store.save(dataclasses.replace(stored, status=FINISHED, meta=meta))
            except StaleFenceError as e:  # another process runs it: it closes it
                log.info("coin table %s left: not closed here: %s", stored.id, e)


async def make_parts(site: AccountsSite, options: AccountsOptions) -> None:
    """The accounts' services on the site's database (a throwaway SQLite file when games
    are in memory): the site's :class:`AccountsState`."""
    engine = await _engine_for(site.engine)
    state = AccountsState(
        engine=engine,
        accounts=AccountService(engine, Passwords(options.password_profile)),
        sessions=LoginSessionStore(engine),
        coins=CoinService(engine),
        clock=options.clock_policy(),
    )
    site.accounts = state


async def startup(site: AccountsSite) -> None:
    """Register the coin table kind with the table manager; settle what a crash left."""
    state = needed(site.accounts, "accounts", "its own parts")

    async def settle(table: FinishedTable) -> None:
        winner = table.game.winner
        if winner is not None:  # fenced when the store is (a stale owner settles nothing)
            fence = getattr(getattr(table, "store", None), "fence", None)
            await state.coins.finish(table.id, winner, fence=fence)

    site.manager.register(coin_kind(state.clock, settle))
    # With other processes serving the site, a stake without a table may be one being opened.
    await reconcile(state, site.store, OPENING_GRACE if site.site_wide else 0.0)
    await state.sessions.purge()
    await asyncio.to_thread(prepare_lookalikes)  # not in the first sign-up's time
    filled = await fill_missing(state.accounts.engine)
    if filled:
        log.info("stored the look-alike keys of %d account names made before them", filled)


_TABLE_ID = Param("table_id", "path", "The coin table's id.")
_SIGNED_IN = {401: "Not signed in (no session, or it expired)."}
_CSRF = {**_SIGNED_IN, 403: "The X-CSRF-Token header is missing or wrong."}


def accounts_extension(options: AccountsOptions | None = None) -> Extension[AccountsSite]:
    """Accounts, play coins and coin tables against the computer (``options``: default
    from the environment, :meth:`AccountsOptions.from_env`)."""
    chosen = options or AccountsOptions.from_env()

    async def parts(site: AccountsSite) -> None:
        await make_parts(site, chosen)

    credentials = {400: "A bad username, password or body.",
                   403: "A request from another site.",
                   415: "The body is not JSON.",
                   429: "Too many attempts: wait (Retry-After)."}
    return Extension(
        "accounts",
        endpoints=[
            Endpoint("POST", "/api/accounts", post_accounts, "Create an account and sign in",
                     body=Credentials, answers={201: Me},
                     refusals={**credentials, 409: "The username is taken."}),
            Endpoint("POST", "/api/session", post_session, "Sign in", body=SignIn,
                     answers={200: Me},
                     refusals={**credentials, 401: "Wrong username or password."}),
            Endpoint("DELETE", "/api/session", delete_session, "Sign out",
                     answers={200: SignedOut}, refusals=_CSRF),
            Endpoint("GET", "/api/session", get_session, "A guest, or who is signed in (the "
                     "/api/me answer); never refused, so a guest's page asks quietly",
                     answers={200: SessionState}),
            Endpoint("GET", "/api/me", get_me, "Who is signed in, the balance, the active "
                     "coin table", answers={200: Me}, refusals=_SIGNED_IN),
            Endpoint("GET", "/api/me/ledger", get_ledger, "The coin history, newest first",
                     params=[Param("limit", "query", "Entries (1 to 500, default 100).",
                                   schema={"type": "integer", "minimum": 1, "maximum": 500}),
                             Param("before", "query", "Only entries older than this id.",
                                   schema={"type": "integer", "minimum": 1})],
                     answers={200: CoinHistory}, refusals={**_SIGNED_IN, 400: "A bad limit."}),
            Endpoint("GET", "/api/me/games", get_games, "Coin games with results and "
                     "statistics", answers={200: Games}, refusals=_SIGNED_IN),
            Endpoint("POST", "/api/me/topup", post_top_up, "The free daily top-up",
                     answers={200: TopUp},
                     refusals={**_CSRF, 409: "Not available now (balance, once a day)."}),
            Endpoint("GET", "/api/stakes", get_stakes, "The stakes offered, what a win pays "
                     "and what leaving costs", answers={200: Stakes}),
            Endpoint("POST", "/api/tables/{table_id}/leave", post_leave,
                     "Leave a coin game (the stake is forfeit, plus a fee)",
                     "Or close a practice table: a signed-in person's, or an outside "
                     "bot's with its bot token alone (nothing is charged).",
                     params=[_TABLE_ID], answers={200: Left},
                     refusals={**_CSRF, 404: "No coin or practice table of yours has that "
                                             "id.",
                               409: "The game is over."},
                     bot_token=True),
        ],
        pages=["/account", "/coins", "/bots", "/bots/engine"],
        table_kinds=[TableKindApi(COIN, CoinTableRequest, CoinTableCreated,
                                  create_coin_table, repeat=repeats_coin_table)],
        parts=parts,
        startup=startup,
    )
