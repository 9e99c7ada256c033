"""Online tables over HTTP: open one, list the open ones, claim a seat, start the game.

An extension (see :mod:`euchre.server.app`): its startup registers the ``online`` table
kind (its move clock, no hints) and the registry of open tables; its endpoints add the API,
the ``/online`` pages and the ``/watch/{id}`` page (a spectator's view of a public table).
Playing is the ordinary table socket, one seat token per person.
Invite links are built from the server's public URL (``euchre serve --public-url``), never
from a request's Host header.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from collections.abc import Callable, Sequence
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from ...accounts.lookalikes import check_guest_name
from ...broker import BrokerUnavailable
from ...coins.pots import StakeRefused
from ...storage.open_tables import MemoryOpenTableStore, OpenTableStore
from ...table.actor.kind import FinishedTable
from ...table.actor.seats import TableConfig
from ...table.kinds.lobby import Lobby
from ...table.kinds.online import (
    DEFAULT_LEVEL,
    MAX_PAGE,
    ONLINE,
    ONLINE_KIND,
    PAGE_SIZE,
    SAME_SOURCE_REFUSED,
    BotSeat,
    OnlineConflict,
    OnlineForbidden,
    OnlineNotFound,
    OnlineOptions,
    OpenTable,
    check_bot_allowed,
    check_creator,
    online_policy,
)
from ..core import guards
from ..core.encoder import encode_text, json_answer
from ..core.errors import ApiError
from ..core.people import Person, person_of, seat_key
from ..core.registry import Endpoint, Extension, Param, TableKindApi
from ..core.sources import sources_of
from ..tables.api import int_param, read_body
from ..wire.lobby import StartRefused, TableChanged, TableGone
from ..wire.online import (
    FillAgreed,
    OnlineListing,
    OnlineTable,
    OnlineTableRequest,
    OnlineTables,
    QuickRequest,
    QuickSeat,
    SeatLeft,
    SeatRequest,
    SeatTaken,
    StartRequest,
    TokenRequest,
)
from . import stakes
from .lobby_state import (
    LOBBY_CHANNEL,
    Online,
    OnlineSite,
    invite_link,
    lobby_of,
    online_of,
    online_site,
    shown_tables,
)
from .lobby_ws import lobby_sockets
from .rematch import start_rematch

log = logging.getLogger(__name__)

def _seat_answer(request: Request, table_id: str, seat: int, token: str) -> SeatTaken:
    return SeatTaken(id=table_id, seat=seat, token=token, url=f"/online/{table_id}",
                     table_url=f"/table/{table_id}",
                     invite=invite_link(online_site(request), table_id),
                     ws=f"/ws/tables/{table_id}")


async def _tables(request: Request, tables: list[OpenTable], **extra: Any) -> list[OnlineTable]:
    return await shown_tables(online_site(request), tables, **extra)


# -- the one start -------------------------------------------------------------------------


async def start_game(site: OnlineSite, table_id: str, check: Callable[[OpenTable], None]
                     ) -> OpenTable:
    """Start an online table's game: the creator's start, a quick table's fourth person,
    and everyone's agreement to fill all come here. ``check`` refuses if this caller may
    not start it; the table is marked started (one caller wins, in any process), the game
    is opened with computers in the free seats, and only then is the start announced (so
    whoever is told finds the table)."""
    lobby = lobby_of(site)
    table = await lobby.start(table_id, check)
    try:
        await stakes.take_stakes(site, table)  # every stake into the pot, or none (named)
    except Exception:
        await lobby.unstart(table_id)
        raise
    try:
        await site.manager.open(table.config())
    except Exception:
        try:
            await lobby.unstart(table_id)
        except Exception:  # the original failure is the one to report
            log.exception("online table %s: could not put it back to waiting", table_id)
        await stakes.give_back(site, table_id)
        raise
    table = await lobby.opened(table_id) or table  # its seats stop counting toward the cap
    await lobby.announce(table)
    online_of(site).refusals.pop(table_id, None)
    return table


def _must_be_ready(table: OpenTable) -> None:
    if not table.ready():
        raise OnlineConflict("the table is not ready to start")


async def start_if_ready(site: OnlineSite, table: OpenTable) -> OpenTable:
    """Start a quick table when four people sit or everyone seated agreed to fill; the
    table as it now is (a start by another request meanwhile is fine)."""
    if not table.ready():
        return table
    try:
        return await start_game(site, table.id, _must_be_ready)
    except OnlineConflict:
        return await lobby_of(site).get(table.id)
    except StakeRefused as e:  # someone seated can no longer cover it: the table waits
        log.info("quick table %s did not start: %s", table.id, e.message)
        await _tell_refused(site, table, e)
        return await lobby_of(site).get(table.id)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


async def _tell_refused(site: OnlineSite, table: OpenTable, refused: StakeRefused) -> None:
    """Tell the people at a quick table why it did not start, naming who cannot cover the
    stake (on that table's socket only: a balance is nobody else's business)."""
    who = list(refused.short) or ["someone seated"]
    stake = table.options.stake
    text = (f"The game could not start: {_and(who)} can no longer cover the {stake}-coin "
            f"stake. The table waits: {_and(who)} may give up the seat so that someone else "
            "can sit.")
    message = StartRefused(id=table.id, people=who, stake=stake, message=text)
    # kept for a waiting page that opens its socket later (the fourth person's), while
    # the same people sit there (this process only: another tells on the next refusal)
    online_of(site).refusals[table.id] = (repr(table.people), encode_text(message))
    try:
        await site.broker.publish(LOBBY_CHANNEL, encode_text(message))
    except BrokerUnavailable as e:  # the refusal stands; the table is as it was
        log.warning("could not tell online table %s why it did not start: %s", table.id, e)


# -- publishing ----------------------------------------------------------------------------


def _listener(site: OnlineSite) -> Callable[[OpenTable | None, str, str], Any]:
    async def publish(table: OpenTable | None, table_id: str, why: str) -> None:
        if table is None:
            message: Any = TableGone(id=table_id, reason=why or "empty")  # type: ignore[arg-type]
        else:
            [shown] = await shown_tables(site, [table])
            message = TableChanged(table=shown)
        try:
            await site.broker.publish(LOBBY_CHANNEL, encode_text(message))
        except BrokerUnavailable as e:  # the change stands; lobbies catch up on reconnect
            log.warning("could not announce a change to online table %s: %s", table_id, e)

    return publish


# -- endpoints -----------------------------------------------------------------------------


async def guest_name(request: Request, name: str) -> str:
    """A guest's display name, unless it is or looks like an account's (409)."""
    accounts = online_site(request).accounts
    if accounts is not None:
        await check_guest_name(accounts.engine, name)
    return name


def bot_seat(person: Person | None) -> BotSeat | None:
    """The outside bot a request comes from (its bearer token), if a bot's."""
    if person is None or person.bot is None:
        return None
    return BotSeat(person.bot.token_id, person.bot.owner_id)


async def open_online(request: Request, body: OnlineTableRequest) -> SeatTaken:
    """Open an online table with the creator South (``POST /api/tables``, kind online)."""
    # rated or staked: the CSRF token too
    person = await person_of(request, csrf=body.rated or bool(body.stake))
    # the account's name, else the guest's own (not one that looks like an account's)
    name = person.username if person is not None else await guest_name(request, body.name)
    options = OnlineOptions(body.preset, dict(body.rules or {}), body.seconds_per_move,
                            body.level, name, body.rated, body.spectators, body.stake,
                            body.allow_bots, body.private, talk=body.talk)
    check_bot_allowed(options, bot_seat(person))  # a bot: no stake, rated only if allowed
    # signed in, balance covers it
    await stakes.check_stake(online_site(request), body.stake, person)
    tables = lobby_of(online_site(request))
    async with guards.person_locks(request).hold(await guards.creator_of(request)):
        creator = await guards.online_creator(request, tables)  # 429: too many waiting
        table, token = await tables.create(
            options, creator=creator,
            account=person.account_id if person is not None else None, bot=bot_seat(person),
            sources=lambda table_id: sources_of(request, table_id))
    return _seat_answer(request, table.id, 0, token)


async def get_online(request: Request) -> Response:
    """``GET /api/online?limit=N&cursor=C``: the online tables waiting for their start,
    newest first, a page at a time (``next`` is the cursor of the next page, or null)."""
    limit = int_param(request, "limit", PAGE_SIZE, 1, MAX_PAGE)
    lobby = lobby_of(online_site(request))
    tables, after = await lobby.page(limit, request.query_params.get("cursor"))
    return json_answer(OnlineTables(tables=await _tables(request, tables), next=after))


async def get_online_table(request: Request) -> Response:
    """``GET /api/online/{id}``: one online table's seats and status."""
    table = await lobby_of(online_site(request)).get(request.path_params["table_id"])
    [shown] = await _tables(request, [table])
    return json_answer(shown)


async def get_online_listing(request: Request) -> Response:
    """``GET /api/online/{id}/listing``: the table's seats and status, or ``table: null``
    when no open or recent online table has that id (a 200 either way)."""
    try:
        table = await lobby_of(online_site(request)).get(request.path_params["table_id"])
    except OnlineNotFound:
        return json_answer(OnlineListing(table=None))
    [shown] = await _tables(request, [table])
    # Not for a person already seated here (their own seat's sources match theirs): the
    # claim tells them what applies to them.
    clash = table.options.rated and table.status() == "open" \
        and await guards.creator_of(request) not in table.holders \
        and table.clash(sources_of(request, table.id)) is not None
    return json_answer(OnlineListing(table=shown,
                                     seat_refused=SAME_SOURCE_REFUSED if clash else None))


async def post_seat(request: Request) -> Response:
    """``POST /api/tables/{id}/seats``: claim a free seat; answers its token. The fourth
    person at a quick-play table starts its game."""
    table_id = request.path_params["table_id"]
    tables = lobby_of(online_site(request))
    body = await read_body(request, SeatRequest)
    options = (await tables.get(table_id)).options
    person = await person_of(request, csrf=options.rated or bool(options.stake))
    check_bot_allowed(options, bot_seat(person))  # a bot: no stake, rated only if allowed
    await stakes.check_stake(online_site(request), options.stake, person)  # nothing moves yet
    if person is None and body.name is None:
        raise ApiError("bad_request", "name: give your name (or sign in)")
    name = (person.username if person is not None
            else await guest_name(request, str(body.name)))
    holder = await guards.creator_of(request)
    async with guards.person_locks(request).hold(holder):
        await guards.seat_attempt(request, tables, holder)  # 429, 409: too many seats
        table, token = await tables.claim(
            table_id, body.seat, name,
            account=person.account_id if person is not None else None, holder=holder,
            bot=bot_seat(person), sources=lambda table_id: sources_of(request, table_id))
    await start_if_ready(online_site(request), table)
    return json_answer(_seat_answer(request, table_id, body.seat, token), 201)


async def post_quick(request: Request) -> Response:
    """``POST /api/online/quick``: ``Play now``, a seat at the oldest matching quick-play
    table (or a new one); the fourth person starts the game."""
    body = await read_body(request, QuickRequest)
    person = await person_of(request, csrf=body.rated or body.stake > 0)
    if person is None and body.name is None:
        raise ApiError("bad_request", "name: give your name (or sign in)")
    if person is None and body.stake:
        raise OnlineForbidden("stakes are for signed-in people: sign in (or create an "
                              "account) first")
    tables = lobby_of(online_site(request))
    account = person.account_id if person is not None else None
    options = OnlineOptions(body.preset, {}, body.seconds_per_move, DEFAULT_LEVEL,
                            person.username if person is not None
                            else await guest_name(request, str(body.name)),
                            body.rated, True, body.stake)
    check_bot_allowed(options, bot_seat(person))  # a bot: no stake, rated only if allowed
    await stakes.check_stake(online_site(request), body.stake, person)  # the balance covers it
    holder = await guards.creator_of(request)
    if account is not None:  # already waiting at a matching table (another browser?): there
        mine = await tables.quick_seat_of(options, account)
        if mine is not None:
            table, seat = mine
            return json_answer(QuickSeat(id=table.id, seat=seat, token=None,
                                         url=f"/online/{table.id}",
                                         table_url=f"/table/{table.id}",
                                         ws=f"/ws/tables/{table.id}", status="open",
                                         opened=False))

    async def may_open() -> None:  # a new table counts as one: the caps on tables
        await guards.online_creator(request, tables)
        await guards.table_attempt(request, ONLINE)

    async with guards.person_locks(request).hold(holder):
        await guards.seat_attempt(request, tables, holder)  # 429, 409: too many seats
        table, seat, token = await tables.quick_seat(
            options, account, holder, may_open, bot_seat(person),
            sources=lambda table_id: sources_of(request, table_id))
    opened = table.seated() == 1 and seat == 0 and table.holders[0] == holder
    table = await start_if_ready(online_site(request), table)
    return json_answer(QuickSeat(id=table.id, seat=seat, token=token,
                                 url=f"/online/{table.id}", table_url=f"/table/{table.id}",
                                 ws=f"/ws/tables/{table.id}",
                                 status="started" if table.started else "open",
                                 opened=opened), 201 if opened else 200)


async def post_fill(request: Request) -> Response:
    """``POST /api/online/{id}/fill {"token"}``: the person at the token's seat agrees to
    fill the free seats with computers; the game starts when everyone seated agreed."""
    table_id = request.path_params["table_id"]
    body = await read_body(request, TokenRequest)
    key = await seat_key(request, body.token)
    table, seat = await lobby_of(online_site(request)).agree(table_id, key)
    table = await start_if_ready(online_site(request), table)
    extra = {"table_url": f"/table/{table_id}"} if table.started else {}
    [shown] = await _tables(request, [table], **extra)
    return json_answer(FillAgreed(id=table_id, seat=seat, table=shown))


async def post_start(request: Request) -> Response:
    """``POST /api/tables/{id}/start {"token"}``: the creator starts the game."""
    table_id = request.path_params["table_id"]
    body = await read_body(request, StartRequest)
    key = await seat_key(request, body.token)
    table = await start_game(online_site(request), table_id, lambda t: check_creator(t, key))
    [shown] = await _tables(request, [table], table_url=f"/table/{table_id}")
    return json_answer(shown)


async def post_leave(request: Request) -> Response:
    """``POST /api/online/{id}/leave {"token"}``: give up a claimed seat before the start
    (anyone at a quick-play table; it goes when the last person leaves)."""
    table_id = request.path_params["table_id"]
    body = await read_body(request, TokenRequest)
    key = await seat_key(request, body.token)
    table, seat = await lobby_of(online_site(request)).leave(table_id, key)
    gone = table.quick and not table.seated()
    if not gone:
        await start_if_ready(online_site(request), table)  # everyone still seated had agreed
    return json_answer(SeatLeft(id=table_id, seat=seat, gone=gone))


async def post_cancel(request: Request) -> Response:
    """``POST /api/online/{id}/cancel {"token"}``: the creator cancels the table before the
    start; it leaves the list, and the people seated see it cancelled."""
    table_id = request.path_params["table_id"]
    body = await read_body(request, TokenRequest)
    key = await seat_key(request, body.token)
    table = await lobby_of(online_site(request)).cancel(table_id, key)
    [shown] = await _tables(request, [table])
    return json_answer(shown)


def open_table_store(site: OnlineSite) -> OpenTableStore:
    """Open tables in the site's database when games are in SQL, else in memory."""
    if site.engine is None:
        return MemoryOpenTableStore()
    from ...storage.open_tables_sql import SqlOpenTableStore

    return SqlOpenTableStore(site.engine)


async def make_parts(site: OnlineSite) -> None:
    """The lobby, on the open tables' store."""
    lobby = Lobby(open_table_store(site))
    lobby.seats_per_person = site.limit_settings.seats_held_per_person
    site.online = Online(lobby)


async def startup(site: OnlineSite) -> None:
    """Register the online kind (its end takes the game off the lobby; its rematch opens a
    new table, :mod:`.rematch`); push every change
    to the lobby's channel; sweep expired open tables until the site stops."""
    lobby = lobby_of(site)
    lobby.listeners.append(_listener(site))

    async def off_the_lobby(table: FinishedTable) -> None:
        await lobby.finished(table.id)

    async def rematch(config: TableConfig, order: tuple[int, int, int, int]) -> str:
        return await start_rematch(site, config, order, lambda table_id: start_game(
            site, table_id, lambda table: None))

    site.manager.register(dataclasses.replace(ONLINE_KIND, finish=(
        *ONLINE_KIND.finish, off_the_lobby), rematch=rematch,
        policy=functools.partial(online_policy, pace=site.manager.pacing.clock_pace)))
    site.background.start(_sweep_forever(lobby))


SWEEP_EVERY = 30.0
"""Seconds between sweeps of expired open tables (each announced to the lobbies)."""


async def _sweep_forever(lobby: Lobby) -> None:
    while True:
        await asyncio.sleep(SWEEP_EVERY)
        try:
            await lobby.sweep()
        except Exception:  # the database may be away a moment: the next sweep tries again
            log.exception("sweeping expired online tables failed")


_ID = Param("table_id", "path", "The table id.")


def online_extension() -> Extension[OnlineSite]:
    """Online tables against real people."""
    return Extension(
        "online",
        endpoints=[
            Endpoint("GET", "/api/online", get_online, "Online tables waiting for their start",
                     "Newest first, a page at a time: ``next`` is the cursor of the next page.",
                     params=[Param("limit", "query", "Tables per page.",
                                   schema={"type": "integer", "minimum": 1,
                                           "maximum": MAX_PAGE, "default": PAGE_SIZE}),
                             Param("cursor", "query", "``next`` of the page before.")],
                     answers={200: OnlineTables},
                     refusals={400: "A bad limit or cursor."}),
            Endpoint("GET", "/api/online/{table_id}", get_online_table,
                     "One online table's seats and status", params=[_ID],
                     answers={200: OnlineTable},
                     refusals={404: "No open online table has that id."}),
            Endpoint("GET", "/api/online/{table_id}/listing", get_online_listing,
                     "Whether the lobby lists an online table",
                     "``table`` is null when no open or recent online table has that id "
                     "(the watch page asks this, so a dead link is no refused request); "
                     "``seat_refused`` says why a seat would be refused to the asker "
                     "(``same_origin``), asked before a seat claim.",
                     params=[_ID], answers={200: OnlineListing}),
            Endpoint("POST", "/api/tables/{table_id}/seats", post_seat, "Claim a free seat",
                     params=[_ID], body=SeatRequest, answers={201: SeatTaken},
                     refusals={400: "A bad seat or name (a guest must give one).",
                               403: "A guest at a rated or stake table, or no CSRF token.",
                               404: "No such open table.",
                               409: "The seat is taken, the game has started, the "
                                    "person already sits at this rated or stake table, "
                                    "someone seated at this rated table plays from their "
                                    "address or browser (``same_origin``), "
                                    "their balance does not cover the stake, or they hold "
                                    "their share of seats (``too_many_seats``).",
                               429: "Too many seat claims from the address or account."},
                     bot_token=True),
            Endpoint("POST", "/api/tables/{table_id}/start", post_start,
                     "The creator starts the game (computers fill free seats)",
                     params=[_ID], body=StartRequest, answers={200: OnlineTable},
                     refusals={403: "Only the creator can start the game.",
                               404: "No such open table.",
                               409: "The game has already started, a rated table "
                                    "has a free seat or two people seated from one address "
                                    "or browser, or someone seated cannot cover the "
                                    "stake (named; nothing is taken)."},
                     bot_token=True),
            Endpoint("POST", "/api/online/quick", post_quick,
                     "Play now: a seat at a quick-play table with these rules and clock",
                     "The oldest waiting quick-play table with the same preset, clock, stake "
                     "and rated flag that has a free seat, else a new one (201). The fourth "
                     "person starts the game (``status`` ``started``).",
                     body=QuickRequest, answers={200: QuickSeat, 201: QuickSeat},
                     refusals={400: "A bad preset, clock, stake or name (a guest must give "
                                    "one).",
                               403: "A guest at a rated table or with a stake, or no CSRF "
                                    "token.",
                               409: "The person already holds their share of seats "
                                    "(``too_many_seats``), their balance does not cover the "
                                    "stake, or too many tables wait.",
                               429: "Too many seat claims, or new tables, from the address "
                                    "or account; or their share of waiting tables."},
                     bot_token=True),
            Endpoint("POST", "/api/online/{table_id}/fill", post_fill,
                     "Agree to fill the free seats with computers (quick play)",
                     "The game starts when every person seated agreed.",
                     params=[_ID], body=TokenRequest, answers={200: FillAgreed},
                     refusals={403: "The token holds no seat at this table.",
                               404: "No such open table.",
                               409: "A rated table (it needs four people), a table by "
                                    "invitation (its creator starts it), or the game has "
                                    "started."},
                     bot_token=True),
            Endpoint("POST", "/api/online/{table_id}/leave", post_leave,
                     "Give up a claimed seat before the start",
                     params=[_ID], body=TokenRequest, answers={200: SeatLeft},
                     refusals={403: "The token holds no seat at this table.",
                               404: "No such open table.",
                               409: "The game has started, the table was cancelled, or the "
                                    "creator tried to leave (they cancel instead)."},
                     bot_token=True),
            Endpoint("POST", "/api/online/{table_id}/cancel", post_cancel,
                     "The creator cancels the table before the start",
                     params=[_ID], body=TokenRequest, answers={200: OnlineTable},
                     refusals={403: "Only the creator can cancel the table.",
                               404: "No such open table.",
                               409: "The game has started, or the table is already "
                                    "cancelled."},
                     bot_token=True),
        ],
        pages=["/online", "/online/{table_id}", "/lobby", "/watch/{table_id}"],
        sockets=lobby_sockets(),
        table_kinds=[TableKindApi(ONLINE, OnlineTableRequest, SeatTaken, open_online)],
        parts=make_parts,
        startup=startup,
    )
