"""Online tournaments over HTTP, and their rounds at the site's own online tables.

An extension after accounts and online tables. A signed-in person creates a tournament;
people (and outside bots, where allowed) register. At its start time (a drive that runs in
every process, on the site's clock) or the creator's "start now", computers fill the count
and round 1's tables open as ordinary ``online`` tables with ``hands_limit`` (the same socket,
clock, spectators, saving and recovery as any online table). When a table's game ends (a
finish hook of the online kind, in whichever process runs the table then) its hands are kept
and, once every table of the round is over, the next round is seated and opened. The drive
also opens any table of the current round that a process died before opening, so a round
survives a crash at any point. Pages: ``/tournaments`` and ``/tournaments/{id}``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Any, Protocol, cast

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ...errors import DomainError
from ...game import GameState
from ...record import GameRecord
from ...storage import FINISHED
from ...table.actor.first_draw import choose_first_dealer
from ...table.actor.kind import FinishedTable
from ...table.actor.presence import LEFT
from ...table.actor.seats import BOT, HUMAN, Seat, TableConfig
from ...table.hosting.owners import TableUnavailable
from ...table.kinds.online import ONLINE
from ...tournaments import (
    ROUND_TIME,
    RoundTable,
    TournamentError,
    TournamentService,
    TournamentSettings,
)
from ..accounts.accounts_api import AccountsSite, signed_in, state_of
from ..core.encoder import json_answer
from ..core.errors import ApiError
from ..core.people import person_of
from ..core.registry import Endpoint, Extension, Param
from ..core.site import kept_site, needed
from ..tables.api import read_body
from ..wire.tournaments import (
    InviteRequest,
    Registered,
    TournamentCreated,
    TournamentList,
    TournamentRequest,
    TournamentResults,
    TournamentState,
)

log = logging.getLogger(__name__)

DRIVE_EVERY = 5.0
"""Seconds between looks for tournaments to start, rounds to seat and tables to open."""


@dataclasses.dataclass
class Tournaments:
    """The site's tournaments: the service and this process's lock on opening tables."""

    service: TournamentService
    """The database side."""
    opening: asyncio.Lock = dataclasses.field(default_factory=asyncio.Lock)
    """One opening of round tables at a time in this process."""


class TournamentsSite(AccountsSite, Protocol):
    """What tournaments read of the site."""

    tournaments: Tournaments | None
    """Online tournaments (None: the app has none)."""


def tournaments_site(conn: Any) -> TournamentsSite:
    """The site of ``conn`` (a request, a socket or the app), as tournaments read it."""
    return cast(TournamentsSite, kept_site(conn))


def _tournaments(site: TournamentsSite) -> Tournaments:
    return needed(site.tournaments, "tournaments", "its own parts")


def tournaments_of(request: Request) -> TournamentService:
    """The site's tournament service (404 when the app has none)."""
    found = tournaments_site(request).tournaments
    if found is None:
        raise ApiError("not_available", "tournaments are not available on this server")
    return found.service


def _id(request: Request) -> str:
    return str(request.path_params["tournament_id"])


# -- the tables of a round ------------------------------------------------------------------


def table_config(table: RoundTable) -> TableConfig:
    """The online table that plays ``table``: people by account and seat token, computers of
    the tournament's level elsewhere; ``extra`` names the tournament, round and table."""
    def seat(i: int) -> Seat:
        s = table.seats[i]
        if s.kind == "computer":
            # Its one name for the whole tournament, as the page and the standings say.
            return Seat(BOT, s.name, table.level, secrets.randbits(62))
        name = f"{s.name} (bot)" if s.kind == "bot" else s.name
        # An outside bot's seat carries its bot token: the socket's bot gate lets it play
        # only while the token is live, and closes its sockets at once on a revocation.
        return Seat(HUMAN, name, None, None, s.token_hash, account=s.name,
                    account_id=s.account_id, bot_token=s.bot_token if s.kind == "bot" else None)

    dealer, draw = choose_first_dealer(None)
    return TableConfig(
        id=table.table_id, kind=ONLINE, rules=table.rules,
        seats=(seat(0), seat(1), seat(2), seat(3)), preset=table.preset,
        created_at=time.time(), first_dealer=dealer, first_draw=draw,
        extra={"seconds_per_move": table.seconds_per_move, "level": table.level,
               "tournament": table.tournament_id, "tournament_name": table.name,
               "round": table.round, "table_no": table.table_no,
               **({"rated": True} if table.rated else {})})


async def open_tables(site: TournamentsSite, tables: Sequence[RoundTable]) -> None:
    """Open each table whose game is not stored yet (a table opened already, here or by
    another process, is left alone)."""
    lock = _tournaments(site).opening
    async with lock:
        for table in tables:
            if await site.store.get(table.table_id) is not None \
                    or site.manager.peek(table.table_id) is not None:
                continue
            try:
                await site.manager.open(table_config(table))
            except TableUnavailable:
                continue  # another process opened it meanwhile


async def move_on(site: TournamentsSite, tournament_id: str) -> None:
    """Seat and open the next round if the current one is over (or finish)."""
    service = _tournaments(site).service
    await open_tables(site, await service.advance(tournament_id))


async def keep_unkept_ends(site: TournamentsSite, tournament_id: str) -> None:
    """Keep the hands of any table of the round whose game is stored as over but whose
    end was not kept (its finish hook failed, or its process died between the save and the
    hook), then move on: else the round would wait for ever."""
    service = _tournaments(site).service
    kept = False
    for table in await service.round_tables(tournament_id):
        stored = await site.store.get(table.table_id)
        if stored is None or stored.status != FINISHED:
            continue
        config = TableConfig.from_json(stored.meta["config"])
        record = GameRecord.from_json(stored.record)
        game = record.replay() if record.hands else GameState(config.rules,
                                                               config.first_dealer)
        await service.table_over(table.table_id, game)
        kept = True
    if kept:
        await move_on(site, tournament_id)


async def end_round_tables(site: TournamentsSite, tournament_id: str) -> None:
    """Once the round's time limit has passed, tell each of its tables not over to finish
    the hand in play and end, wherever it runs (its finish hook then moves the tournament
    on). Told again at each look until it is over: an owner that died meanwhile is no
    matter (the close is kept with the table once told)."""
    service = _tournaments(site).service
    for table_id in await service.time_up(tournament_id):
        try:
            handle = await site.tables.open(table_id)
            if handle is not None:
                await handle.close_after_hand(ROUND_TIME)
        except DomainError as e:  # moving between processes now: the next look tells it
            log.info("table %s: the round's time is up, not told yet: %s", table_id, e)


async def drive(site: TournamentsSite) -> None:
    """Start the tournaments whose time has come; for each one running, move on if its
    round is over, open any table of the round not opened yet, keep the ends a finish hook
    missed, and end the round's tables once its time limit has passed."""
    service = _tournaments(site).service
    for tournament_id in await service.due():
        try:
            await open_tables(site, await service.start(tournament_id))
        except TournamentError:
            continue  # started by another process, or cancelled meanwhile
    for tournament_id in await service.running():
        await move_on(site, tournament_id)
        await open_tables(site, await service.round_tables(tournament_id))
        await keep_unkept_ends(site, tournament_id)
        await end_round_tables(site, tournament_id)


async def _drive_forever(site: TournamentsSite) -> None:
    while True:
        await asyncio.sleep(DRIVE_EVERY)
        try:
            await drive(site)
        except Exception:  # the database may be away a moment: the next look tries again
            log.exception("driving tournaments failed")


# -- endpoints ------------------------------------------------------------------------------


async def _state(request: Request, tournament_id: str) -> Response:
    person = await person_of(request)
    state = await tournaments_of(request).state(
        tournament_id, person.account_id if person is not None else None)
    return json_answer(msgspec.convert(state, TournamentState))


async def post_tournament(request: Request) -> Response:
    """``POST /api/tournaments``: a new tournament, registering, by the signed-in person."""
    service = tournaments_of(request)
    session = await signed_in(request, csrf=True)
    body = await read_body(request, TournamentRequest)
    settings = TournamentSettings(
        name=body.name, format=body.format, preset=body.preset, rules=body.rules,
        hands=body.hands, rounds=body.rounds, seconds_per_move=body.seconds_per_move,
        movement=body.movement, loner_bonus=body.loner_bonus, level=body.level,
        starts_at=body.starts_at, private=body.private, allow_bots=body.allow_bots,
        late_comers=body.late_comers, entry_fee=body.entry_fee, fill_to=body.fill_to,
        prize_table=tuple(body.prize_table), game_to=body.game_to, rated=body.rated,
        round_minutes=body.round_minutes)
    if body.starts_at is not None and body.starts_at.tzinfo is None:
        raise TournamentError("starts_at must say its time zone (for example 2027-01-08T19:00Z)")
    tournament_id = await service.create(session.account_id, settings)
    return json_answer(TournamentCreated(id=tournament_id,
                                         url=f"/tournaments/{tournament_id}"), 201)


async def get_tournaments(request: Request) -> Response:
    """``GET /api/tournaments``: open for registration, and running now."""
    person = await person_of(request)
    listing = await tournaments_of(request).listing(
        person.account_id if person is not None else None)
    return json_answer(msgspec.convert(listing, TournamentList))


async def get_tournament(request: Request) -> Response:
    """``GET /api/tournaments/{id}``: the tournament, its rounds and standings."""
    return await _state(request, _id(request))


async def post_register(request: Request) -> Response:
    """``POST /api/tournaments/{id}/register``: the signed-in person (with the CSRF token),
    or an outside bot (``Authorization: Bearer``), enters; with an entry fee it is charged
    once (``Idempotency-Key`` is kept with the entry)."""
    service = tournaments_of(request)
    person = await person_of(request, csrf=True)
    if person is None:
        raise TournamentError("sign in to register")
    owner = person.bot.owner_id if person.bot is not None else None
    bot_token = person.bot.token_id if person.bot is not None else None
    key = _idempotency_key(request)
    token = await service.register(_id(request), person.account_id, person.username,
                                   bot_owner=owner, request_id=key, bot_token=bot_token)
    return json_answer(Registered(id=_id(request), token=token,
                                  url=f"/tournaments/{_id(request)}"), 201)


async def post_unregister(request: Request) -> Response:
    """``POST /api/tournaments/{id}/unregister``: withdraw before the start."""
    service = tournaments_of(request)
    person = await person_of(request, csrf=True)
    if person is None:
        raise TournamentError("sign in first")
    await service.unregister(_id(request), person.account_id)
    return await _state(request, _id(request))


async def post_invite(request: Request) -> Response:
    """``POST /api/tournaments/{id}/invite``: the signed-in person asks a partner (by
    username) to enter a team event with them; the pair is registered when they accept."""
    service = tournaments_of(request)
    session = await signed_in(request, csrf=True)
    body = await read_body(request, InviteRequest)
    partner = await state_of(request).accounts.find(body.partner.strip())
    if partner is None:
        raise ApiError("no_person", f"nobody here is called {body.partner.strip()!r}")
    await service.invite(_id(request), session.account_id, int(partner.id), partner.username)
    return await _state(request, _id(request))


def _idempotency_key(request: Request) -> str | None:
    """The request's ``Idempotency-Key`` (None: none sent; 400 past 80 characters)."""
    key = request.headers.get("idempotency-key")
    if key is not None and not 1 <= len(key) <= 80:
        raise ApiError("bad_request", "Idempotency-Key must be 1 to 80 characters")
    return key


async def _answer(request: Request, accept: bool) -> Response:
    service = tournaments_of(request)
    session = await signed_in(request, csrf=True)
    try:
        invite_id = int(request.path_params["invite_id"])
    except ValueError:
        raise ApiError("bad_request", "an invitation's id is a whole number") from None
    key = _idempotency_key(request)
    await service.answer(_id(request), invite_id, session.account_id, accept, request_id=key)
    return await _state(request, _id(request))


async def post_accept(request: Request) -> Response:
    """``POST /api/tournaments/{id}/invites/{invite_id}/accept``: the person asked accepts:
    the pair is registered (with an entry fee, both are charged, or neither)."""
    return await _answer(request, True)


async def post_decline(request: Request) -> Response:
    """``POST /api/tournaments/{id}/invites/{invite_id}/decline``: the person asked
    declines, or the asker withdraws the invitation."""
    return await _answer(request, False)


async def post_start(request: Request) -> Response:
    """``POST /api/tournaments/{id}/start``: the creator starts it now."""
    service = tournaments_of(request)
    session = await signed_in(request, csrf=True)
    tables = await service.start(_id(request), by=session.account_id)
    await open_tables(tournaments_site(request), tables)
    return await _state(request, _id(request))


async def post_cancel(request: Request) -> Response:
    """``POST /api/tournaments/{id}/cancel``: the creator cancels it before the start."""
    service = tournaments_of(request)
    session = await signed_in(request, csrf=True)
    await service.cancel(session.account_id, _id(request))
    return await _state(request, _id(request))


async def get_person_tournaments(request: Request) -> Response:
    """``GET /api/people/{username}/tournaments``: a person's finished tournaments."""
    account = await state_of(request).accounts.find(request.path_params["username"])
    if account is None:
        raise ApiError("no_person", "nobody has that name here")
    results = await tournaments_of(request).results_of(int(account.id))
    return json_answer(msgspec.convert({"results": results}, TournamentResults))


# -- the extension ----------------------------------------------------------------------------


async def make_parts(site: TournamentsSite) -> None:
    """The service, on the accounts' database."""
    site.tournaments = Tournaments(TournamentService(
        needed(site.accounts, "tournaments", "accounts").engine))


async def startup(site: TournamentsSite) -> None:
    """A finish hook on online tables (a round's table over: keep its hands, move on), and
    the drive in the background."""
    state = _tournaments(site)

    async def round_table_over(table: FinishedTable) -> None:
        tournament_id = await state.service.table_over(table.id, table.game)
        if tournament_id is not None:
            await move_on(site, tournament_id)

    async def bot_revoked(token_id: int) -> None:
        # As for a person who leaves: a computer plays the bot's seats for the round.
        for table_id, seat in await state.service.seats_of_token(token_id):
            handle = await site.tables.open(table_id)
            if handle is not None:
                await handle.replace(seat, LEFT)

    online = site.manager.kinds.get(ONLINE)
    if online is not None:
        site.manager.register(dataclasses.replace(online, finish=(*online.finish,
                                                                  round_table_over)))
    site.gate.on_revoke.append(bot_revoked)
    site.background.start(_drive_forever(site))


_SIGNED = {401: "Not signed in.", 403: "No CSRF token, or not the creator."}
_T = Param("tournament_id", "path", "The tournament's id.")
_I = Param("invite_id", "path", "The invitation's id.", schema={"type": "integer"})


def tournaments_extension() -> Extension[TournamentsSite]:
    """Online tournaments at the site's tables: progressive, and team events of pairs."""
    return Extension(
        "tournaments",
        endpoints=[
            Endpoint("POST", "/api/tournaments", post_tournament, "Create a tournament",
                     "Progressive (rotating partners or king's table), or a team event of "
                     "fixed pairs (round robin, Swiss, single or double elimination), "
                     "registering until its "
                     "start.", body=TournamentRequest, answers={201: TournamentCreated},
                     refusals={**_SIGNED, 400: "Bad settings."}),
            Endpoint("GET", "/api/tournaments", get_tournaments,
                     "Tournaments open for registration and running now",
                     answers={200: TournamentList}),
            Endpoint("GET", "/api/tournaments/{tournament_id}", get_tournament,
                     "A tournament: who is in, each round's tables, the standings",
                     params=[_T], answers={200: TournamentState},
                     refusals={404: "No such tournament."}),
            Endpoint("POST", "/api/tournaments/{tournament_id}/register", post_register,
                     "Register (a person, or an outside bot where allowed)", params=[_T],
                     answers={201: Registered},
                     refusals={**_SIGNED, 403: "Bots not allowed, a bot with its owner, or "
                                               "no CSRF token.", 404: "No such tournament.",
                               409: "Already in, started (and no late comers), full, "
                                    "the balance cannot pay the entry fee, or a team "
                                    "event (pairs enter by invitation)."},
                     bot_token=True),
            Endpoint("POST", "/api/tournaments/{tournament_id}/unregister", post_unregister,
                     "Withdraw before the start (an entry fee is forfeit)", params=[_T],
                     answers={200: TournamentState},
                     refusals={**_SIGNED, 404: "No such tournament.",
                               409: "Not registered, or it has started."}, bot_token=True),
            Endpoint("POST", "/api/tournaments/{tournament_id}/invite", post_invite,
                     "Ask a partner to enter a team event with you", params=[_T],
                     body=InviteRequest, answers={200: TournamentState},
                     refusals={**_SIGNED, 400: "Oneself, or an outside bot.",
                               404: "No such tournament, or nobody of that name.",
                               409: "Not a team event or not registering, either of you "
                                    "registered, an invitation of yours still out, or "
                                    "full."}),
            Endpoint("POST", "/api/tournaments/{tournament_id}/invites/{invite_id}/accept",
                     post_accept, "Accept an invitation: the pair is registered",
                     params=[_T, _I], answers={200: TournamentState},
                     refusals={**_SIGNED, 404: "No such tournament.",
                               409: "Not yours, no longer open, registered already, full, "
                                    "or one of you cannot pay the entry fee (nothing is "
                                    "charged)."}),
            Endpoint("POST", "/api/tournaments/{tournament_id}/invites/{invite_id}/decline",
                     post_decline, "Decline an invitation (or withdraw your own)",
                     params=[_T, _I], answers={200: TournamentState},
                     refusals={**_SIGNED, 404: "No such tournament.",
                               409: "Not yours, or no longer open."}),
            Endpoint("POST", "/api/tournaments/{tournament_id}/start", post_start,
                     "The creator starts it now (computers fill the count)", params=[_T],
                     answers={200: TournamentState},
                     refusals={**_SIGNED, 404: "No such tournament.",
                               409: "It has started, or was cancelled."}),
            Endpoint("POST", "/api/tournaments/{tournament_id}/cancel", post_cancel,
                     "The creator cancels it before the start (entry fees refunded)",
                     params=[_T],
                     answers={200: TournamentState},
                     refusals={**_SIGNED, 404: "No such tournament.",
                               409: "It has started."}),
            Endpoint("GET", "/api/people/{username}/tournaments", get_person_tournaments,
                     "A person's finished tournaments",
                     params=[Param("username", "path", "The person's name.")],
                     answers={200: TournamentResults},
                     refusals={404: "Nobody has that name."}),
        ],
        pages=["/tournaments", "/tournaments/{tournament_id}"],
        parts=make_parts,
        startup=startup,
    )
