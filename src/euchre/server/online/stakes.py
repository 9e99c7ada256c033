"""Coin stakes against people, and leaving a started online game.

An extension (after accounts and online tables): its startup wires the pots
(:class:`~euchre.coins.pots.PotService`) on the accounts' database, adds to the ``online``
kind a finish hook that shares the pot and a replace hook that charges the leaving fee
(both fenced by the table owner's number), and settles what a crash left half done. Its
endpoint ``POST /api/online/{id}/leave-game`` hands a person's seat to a computer for the
rest of the game. The online API asks :func:`check_stake` when a table is opened or a
seat claimed, and :func:`take_stakes` at the start (the one start function every start
goes through, ``online_api.start_game``).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ...coins.pots import PotService
from ...record import GameRecord
from ...storage.base import FINISHED, GameStore
from ...table.actor.actor import TableActor
from ...table.actor.kind import FinishedTable, TableKind
from ...table.actor.presence import LEFT
from ...table.actor.seats import AccountKey, BotKey
from ...table.kinds.online import GUEST_STAKE_REFUSED, ONLINE, OnlineForbidden, OpenTable
from ..core.encoder import json_answer
from ..core.errors import ApiError
from ..core.people import Person, person_of, seat_key
from ..core.registry import Endpoint, Extension, Param
from ..core.site import needed
from ..tables.api import read_body
from ..tables.door import ALREADY, OVER, Tables
from ..wire.online import GameLeft, TokenRequest
from .lobby_state import OnlineSite, online_site

log = logging.getLogger(__name__)

NO_STAKES = "coin stakes are not available on this server"
"""The refusal of a stake where the accounts extension is off."""


async def check_stake(site: OnlineSite, stake: int, person: Person | None) -> None:
    """Refuse (nothing moves) a seat at a table with ``stake`` for a guest, or for a
    person whose balance does not cover it."""
    if not stake:
        return
    if person is None:
        raise OnlineForbidden(GUEST_STAKE_REFUSED)
    pots = site.pots
    if pots is None:
        raise ApiError("not_available", NO_STAKES)
    await pots.covers(person.account_id, stake)


async def take_stakes(site: OnlineSite, table: OpenTable) -> None:
    """Put each seated person's stake into the table's pot, all or nothing (refused naming
    who cannot cover it); nothing to do at a table with no stake."""
    stake = table.options.stake
    if not stake:
        return
    pots = site.pots
    if pots is None:
        raise ApiError("not_available", NO_STAKES)
    names = {i: p[0] for i, p in enumerate(table.people) if p is not None}
    await pots.escrow(table.id, stake, table.stakers(), names)


async def give_back(site: OnlineSite, table_id: str) -> None:
    """Refund every stake of a table that could not be opened (once)."""
    pots = site.pots
    if pots is not None:
        await pots.refund(table_id)


GAME_ENDED = ("the game had already ended when your leave reached the table: you played "
              "it to the end, nothing was charged and your share of the pot is yours")
"""The refusal of a leave that the table saw after the game's deciding card."""

async def _leave_at_table(tables: Tables, table_id: str, token: object
                          ) -> tuple[TableActor, int, str]:
    """Hand the seat of ``token`` to a computer at the table itself, wherever it runs:
    its queue orders the leave against the moves (the deciding card among them), the
    clock and any other replacement. The table (here, or as stored when another process
    runs it), the seat, and what the table decided (:data:`~..tables.door.NOW`,
    :data:`~..tables.door.ALREADY` or :data:`~..tables.door.OVER`). The kind's replace
    hook charges the stake table's fee after the replacement is stored, never before. A
    table moving between processes meanwhile: :class:`~..tables.door.TableMoving` (503,
    nothing happened or was charged)."""
    table = await tables.open(table_id, move_here=True)
    actor = await table.view() if table is not None else None
    if table is None or actor is None or actor.config.kind != ONLINE:
        raise ApiError("no_table", f"no started online table {table_id!r}")
    seat = actor.seat_of(token) if isinstance(token, str | AccountKey | BotKey) else None
    if seat is None:
        raise ApiError("bad_token", "that token holds no seat at this table")
    return actor, seat, await table.replace(seat, LEFT)


async def leave_game(tables: Tables, pots: PotService | None, table_id: str, token: object
                     ) -> tuple[GameLeft, int | None]:
    """Leave a started online game (the endpoint's work, without HTTP). The table
    decides, in the order it saw things: before the game's deciding card a computer
    (expert) plays the seat to the end, and at a stake table the stake is forfeit and the
    leaving fee charged, once however many requests (or processes) it reaches; after it,
    :class:`ApiError` ``game_ended`` (409, :data:`GAME_ENDED`) and nothing is charged.
    The answer, and the account of the seat's person (None: a guest)."""
    actor, seat, outcome = await _leave_at_table(tables, table_id, token)
    if outcome == OVER:
        raise ApiError("game_ended", GAME_ENDED)
    stake = int(actor.config.extra.get("stake") or 0)
    fee = 0
    if stake and pots is not None:
        # The replace hook charged it when the seat was taken over; this charges nothing
        # again (one key per seat), or completes a charge that hook could not make (a
        # crash, a lost database connection): the seat is taken over, so it is due.
        part = (await pots.leave(table_id, seat)).seat(seat)
        fee = (part.fee or 0) if part is not None else 0
    answer = GameLeft(id=table_id, seat=seat, left=True, already=outcome == ALREADY,
                      stake=stake, stake_forfeit=stake, fee=fee)
    return answer, actor.config.seats[seat].account_id


async def post_leave_game(request: Request) -> Response:
    """``POST /api/online/{id}/leave-game {"token"}``: leave a started game
    (:func:`leave_game`); the balance after is shown to the person signed in."""
    table_id = request.path_params["table_id"]
    body = await read_body(request, TokenRequest)
    site = online_site(request)
    pots = site.pots
    key = await seat_key(request, body.token, table_id)  # the token, else the person
    answer, account = await leave_game(site.tables, pots, table_id, key)
    person = await person_of(request)
    if person is not None and account == person.account_id and pots is not None:
        answer = msgspec.structs.replace(
            answer, balance=await pots.covers(person.account_id, 0))
    return json_answer(answer)


def _fence(table: Any) -> int | None:
    fence: int | None = getattr(getattr(table, "store", None), "fence", None)
    return fence


def _stake(table: Any) -> int:
    config = getattr(table, "config", None)
    return int(config.extra.get("stake") or 0) if config is not None else 0


async def reconcile(pots: PotService, store: GameStore) -> None:
    """Settle stake pots a crash left half done: refund a pot whose table was never
    stored, share the pot of a game that ended before its finish hook ran (a seat taken
    over counts as left, charged then), charge the fee of a seat a computer took over
    before the charge (the owner died between storing the replacement and charging), and
    mark taken over a seat whose person's leave an earlier version charged before the
    table heard of it."""
    for pot in await pots.active():
        stored = await store.get(pot.table_id)
        if stored is None or "config" not in stored.meta:
            await pots.refund(pot.table_id)
            log.info("refunded the stakes of online table %s (never opened)", pot.table_id)
            continue
        replaced = {int(s): str(w) for s, w in (stored.meta.get("replaced") or {}).items()}
        if stored.status == FINISHED:
            winner = None if stored.meta.get("closed") else \
                GameRecord.from_json(stored.record).replay().winner
            if winner is None:
                await pots.refund(pot.table_id)
            else:
                await pots.settle(pot.table_id, winner, sorted(replaced))
            log.info("settled the pot of online table %s after a restart", pot.table_id)
            continue
        for part in pot.seats:
            if part.status == "active" and part.seat in replaced:
                await pots.leave(pot.table_id, part.seat)
        # A charge the table never heard of: only versions before the table ordered the
        # leave charged first (a leave is now charged only after its seat is taken over).
        left = {p.seat: LEFT for p in pot.seats if p.status == "left" and p.seat not in replaced}
        if left:
            meta = {**stored.meta, "replaced": {str(s): w for s, w in
                                                sorted({**replaced, **left}.items())}}
            await store.save(dataclasses.replace(stored, meta=meta))


def with_stakes(online: TableKind, pots: PotService) -> TableKind:
    """The online kind with the stake hooks: at the end the pot is shared (a seat a
    computer took over counts as left, charged then if it was not yet); a seat taken over
    is charged its fee once the replacement is stored. Both fenced by the owner's number."""

    async def settle(table: FinishedTable) -> None:
        winner = table.game.winner
        if winner is not None and _stake(table):
            await pots.settle(table.id, winner, sorted(table.replaced), fence=_fence(table))

    async def charge(table: FinishedTable, seat: int, reason: str) -> None:
        if _stake(table):
            await pots.leave(table.id, seat, fence=_fence(table))

    return dataclasses.replace(online, finish=(*online.finish, settle),
                               on_replaced=(*online.on_replaced, charge))


async def make_parts(site: OnlineSite) -> None:
    """The stake pots, on the accounts' database."""
    site.pots = PotService(needed(site.accounts, "stakes", "accounts").engine)


async def startup(site: OnlineSite) -> None:
    """Wire the online kind's hooks to the pots; settle what a crash left."""
    manager = site.manager
    online = manager.kinds.get(ONLINE)
    if online is None:
        return
    pots = needed(site.pots, "stakes", "its own parts")
    manager.register(with_stakes(online, pots))
    await reconcile(pots, site.store)


def stakes_extension() -> Extension[OnlineSite]:
    """Coin stakes against people, and leaving a started online game."""
    return Extension(
        "stakes",
        endpoints=[
            Endpoint("POST", "/api/online/{table_id}/leave-game", post_leave_game,
                     "Leave a started online game (a computer plays the seat to the end)",
                     "At a stake table the stake is forfeit and the leaving fee (10% of the "
                     "stake rounded up, in full) is charged, once: a "
                     "repeat answers ``already`` and moves nothing.",
                     params=[Param("table_id", "path", "The table id.")],
                     body=TokenRequest, answers={200: GameLeft},
                     refusals={403: "The token holds no seat at this table.",
                               404: "No started online table has that id.",
                               409: "The game had already ended when the leave reached "
                                    "the table (the deciding card came first): nothing is "
                                    "charged and the person's share stands.",
                               503: "The table is moving to another server: try again "
                                    "(nothing is charged twice)."},
                     bot_token=True),
        ],
        parts=make_parts,
        startup=startup,
    )
