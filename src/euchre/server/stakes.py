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

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response

from ..coins.pots import PotService
from ..record import GameRecord
from ..storage.base import FINISHED, GameStore
from ..table.actor import LEFT, TableStopped
from ..table.kinds import FinishedTable
from ..table.online import GUEST_STAKE_REFUSED, ONLINE, OnlineForbidden, OpenTable
from .api import manager_of, read_body
from .encoder import json_answer
from .errors import ApiError
from .people import Person, person_of
from .registry import Endpoint, Extension, Param
from .wire.online import GameLeft, TokenRequest

log = logging.getLogger(__name__)

NO_STAKES = "coin stakes are not available on this server"
"""The refusal of a stake where the accounts extension is off."""


def pots_of(app: Starlette) -> PotService | None:
    """The app's stake pots (None: no accounts on this server)."""
    pots: PotService | None = getattr(app.state, "pots", None)
    return pots


async def check_stake(app: Starlette, stake: int, person: Person | None) -> None:
    """Refuse (nothing moves) a seat at a table with ``stake`` for a guest, or for a
    person whose balance does not cover it."""
    if not stake:
        return
    if person is None:
        raise OnlineForbidden(GUEST_STAKE_REFUSED)
    pots = pots_of(app)
    if pots is None:
        raise ApiError("not_available", NO_STAKES)
    await pots.covers(person.account_id, stake)


async def take_stakes(app: Starlette, table: OpenTable) -> None:
    """Put each seated person's stake into the table's pot, all or nothing (refused naming
    who cannot cover it); nothing to do at a table with no stake."""
    stake = table.options.stake
    if not stake:
        return
    pots = pots_of(app)
    if pots is None:
        raise ApiError("not_available", NO_STAKES)
    names = {i: p[0] for i, p in enumerate(table.people) if p is not None}
    await pots.escrow(table.id, stake, table.stakers(), names)


async def give_back(app: Starlette, table_id: str) -> None:
    """Refund every stake of a table that could not be opened (once)."""
    pots = pots_of(app)
    if pots is not None:
        await pots.refund(table_id)


async def post_leave_game(request: Request) -> Response:
    """``POST /api/online/{id}/leave-game {"token"}``: leave a started game. A computer
    (expert) plays the seat to the end; at a stake table the stake is forfeit and the
    leaving fee charged, once, however many requests (or processes) it reaches."""
    table_id = request.path_params["table_id"]
    body = await read_body(request, TokenRequest)
    actor = await manager_of(request).get(table_id)
    if actor is None or actor.config.kind != ONLINE:
        raise ApiError("no_table", f"no started online table {table_id!r}")
    seat = actor.seat_of(body.token) if isinstance(body.token, str) else None
    if seat is None:
        raise ApiError("bad_token", "that token holds no seat at this table")
    already = actor.is_replaced(seat)
    if actor.finished and not already:
        raise ApiError("not_active", "the game is over: there is nothing to leave")
    stake = int(actor.config.extra.get("stake") or 0)
    pots = pots_of(request.app)
    fee, charged = 0, False
    if stake and pots is not None:
        pot = await pots.leave(table_id, seat)  # the charge: once per seat, by its key
        part = pot.seat(seat)
        charged = part is not None and part.status == "left"
        fee = (part.fee or 0) if part is not None else 0
    if not already:
        try:
            already = not await actor.replace(seat, LEFT)
        except TableStopped:
            # The table is moving to another process: a retry charges nothing again and
            # reaches the new owner.
            raise ApiError("unavailable", "the table is moving to another server: try "
                                          "again in a moment") from None
    if not actor.is_replaced(seat) and not charged:
        raise ApiError("not_active", "the game is over: there is nothing to leave")
    balance = None
    person = await person_of(request)
    account = actor.config.seats[seat].account_id
    if person is not None and account == person.account_id and pots is not None:
        balance = await pots.covers(person.account_id, 0)
    return json_answer(GameLeft(id=table_id, seat=seat, left=True, already=already,
                                stake=stake, stake_forfeit=stake, fee=fee, balance=balance))


def _fence(table: Any) -> int | None:
    fence: int | None = getattr(getattr(table, "store", None), "fence", None)
    return fence


def _stake(table: Any) -> int:
    config = getattr(table, "config", None)
    return int(config.extra.get("stake") or 0) if config is not None else 0


async def reconcile(pots: PotService, store: GameStore) -> None:
    """Settle stake pots a crash left half done: refund a pot whose table was never
    stored, share the pot of a game that ended before its finish hook ran, charge the fee
    of a seat a computer took over before the charge, and mark taken over a seat whose
    person's leave was charged before the table heard of it."""
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
        left = {p.seat: LEFT for p in pot.seats if p.status == "left" and p.seat not in replaced}
        if left:
            meta = {**stored.meta, "replaced": {str(s): w for s, w in
                                                sorted({**replaced, **left}.items())}}
            await store.save(dataclasses.replace(stored, meta=meta))


async def startup(app: Starlette) -> None:
    """Wire the pots and the online kind's hooks; settle what a crash left."""
    accounts = getattr(app.state, "accounts", None)
    manager = app.state.manager
    online = manager.kinds.get(ONLINE)
    if accounts is None or online is None:
        return
    pots = PotService(accounts.engine)
    app.state.pots = pots

    async def settle(table: FinishedTable) -> None:
        winner = table.game.winner
        if winner is not None and _stake(table):
            await pots.settle(table.id, winner, sorted(table.replaced), fence=_fence(table))

    async def charge(table: FinishedTable, seat: int, reason: str) -> None:
        if _stake(table):
            await pots.leave(table.id, seat, fence=_fence(table))

    manager.register(dataclasses.replace(online, finish=(*online.finish, settle),
                                         on_replaced=(*online.on_replaced, charge)))
    await reconcile(pots, app.state.store)


def stakes_extension() -> Extension:
    """Coin stakes against people, and leaving a started online game."""
    return Extension(
        "stakes",
        endpoints=[
            Endpoint("POST", "/api/online/{table_id}/leave-game", post_leave_game,
                     "Leave a started online game (a computer plays the seat to the end)",
                     "At a stake table the stake is forfeit and the leaving fee (10% of the "
                     "stake rounded up, never more than the balance) is charged, once: a "
                     "repeat answers ``already`` and moves nothing.",
                     params=[Param("table_id", "path", "The table id.")],
                     body=TokenRequest, answers={200: GameLeft},
                     refusals={403: "The token holds no seat at this table.",
                               404: "No started online table has that id.",
                               409: "The game is over.",
                               503: "The table is moving to another server: try again "
                                    "(nothing is charged twice)."}),
        ],
        startup=startup,
    )
