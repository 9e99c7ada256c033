"""Pairs entering a team event: one asks a partner by name, the partner accepts on the
tournament's page, and only then is the pair registered (both entry fees charged together,
or neither).

A person may have one invitation out at a time; several may ask the same person, who
accepts one (the others are closed). Withdrawing withdraws the pair, and with an entry fee
both fees are forfeit. :class:`PairRegistration` is a part of
:class:`euchre.tournaments.TournamentService`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..coins.errors import InsufficientCoinsError
from ..coins.ledger import in_transaction
from ..coins.pools import PoolService
from ..storage.accounts_models import accounts
from ..storage.bot_models import bots
from ..storage.tournament_models import tournament_entries, tournament_invites
from .errors import TournamentConflict, TournamentError
from .seat_tokens import new_seat_token, token_hash
from .teams import MAX_PAIRS, is_team

_conflict, _refused = TournamentConflict, TournamentError


class PairRegistration:
    """Invitations and pair entries (a part of the tournament service)."""

    engine: AsyncEngine
    now: Callable[[], dt.datetime]
    pools: PoolService

    if TYPE_CHECKING:
        async def _row(self, conn: AsyncConnection, tournament_id: str,
                       lock: bool = False) -> dict[str, Any]: ...

        async def _entries(self, conn: AsyncConnection, tournament_id: str
                           ) -> list[dict[str, Any]]: ...

    async def invite(self, tournament_id: str, account_id: int, partner_id: int,
                     partner_name: str) -> int:
        """``account_id`` asks ``partner_id`` to enter the team event with them; the
        invitation's id. Refused: not a team event or not registering, oneself, either of
        them registered already, an invitation of theirs still out, or full."""
        async def work(conn: AsyncConnection) -> int:
            await self._open_team(conn, tournament_id)
            if partner_id == account_id:
                raise _refused("you cannot be your own partner: name someone else")
            if await conn.scalar(select(bots.c.account_id).where(
                    bots.c.account_id.in_((account_id, partner_id)))) is not None:
                raise _refused("outside bots do not enter team events: pairs are people")
            entries = await self._entries(conn, tournament_id)
            for e in entries:
                if e["account_id"] == account_id:
                    raise _conflict("already registered for this tournament (withdraw "
                                    "first to enter with someone else)")
                if e["account_id"] == partner_id:
                    raise _conflict(f"{partner_name} is already registered for this "
                                    "tournament with a partner")
            _check_room(entries)
            out = await conn.scalar(select(tournament_invites.c.id).where(
                tournament_invites.c.tournament_id == tournament_id,
                tournament_invites.c.from_id == account_id,
                tournament_invites.c.status == "pending"))
            if out is not None:
                raise _conflict("you have already asked someone: withdraw that invitation "
                                "first")
            done = await conn.execute(tournament_invites.insert().values(
                tournament_id=tournament_id, from_id=account_id, to_id=partner_id,
                status="pending", created_at=self.now()))
            key = done.inserted_primary_key
            assert key is not None
            return int(key[0])

        return await in_transaction(self.engine, work)

    async def answer(self, tournament_id: str, invite_id: int, account_id: int,
                     accept: bool, request_id: str | None = None) -> None:
        """The invited person accepts (the pair is registered: both fees charged, or
        nothing moves) or declines; the asker may withdraw it (``accept`` false)."""
        async def work(conn: AsyncConnection) -> None:
            row = await self._open_team(conn, tournament_id)
            invite = (await conn.execute(select(tournament_invites).where(
                tournament_invites.c.id == invite_id,
                tournament_invites.c.tournament_id == tournament_id))).mappings().first()
            if invite is None or account_id not in (invite["from_id"], invite["to_id"]):
                raise _conflict("no such invitation for you in this tournament")
            if invite["status"] != "pending":
                raise _conflict(f"that invitation is no longer open (it was "
                                f"{invite['status']})")
            if not accept:
                status = "withdrawn" if account_id == invite["from_id"] else "declined"
                await conn.execute(update(tournament_invites).where(
                    tournament_invites.c.id == invite_id).values(status=status))
                return
            if account_id != invite["to_id"]:
                raise _conflict("only the person invited can accept")
            asker, me = int(invite["from_id"]), int(invite["to_id"])
            entries = await self._entries(conn, tournament_id)
            if any(e["account_id"] in (asker, me) for e in entries):
                raise _conflict("one of you is already registered with a partner")
            _check_room(entries)
            who = {int(r.id): str(r.username) for r in await conn.execute(
                select(accounts.c.id, accounts.c.username).where(
                    accounts.c.id.in_((asker, me))))}
            if row["entry_fee"]:
                for account in (asker, me):  # all or none: a refusal rolls both back
                    try:
                        await self.pools.enter(tournament_id, account,
                                               request_id or f"pair:{invite_id}:{account}",
                                               conn=conn)
                    except InsufficientCoinsError as e:
                        if account == me:
                            raise
                        raise InsufficientCoinsError(
                            f"{who.get(asker, 'your partner')} cannot pay: {e} (nothing was "
                            "charged to either of you)") from None
            now = self.now()
            for account, partner in ((asker, me), (me, asker)):
                await conn.execute(tournament_entries.insert().values(
                    tournament_id=tournament_id, account_id=account, owner_id=None,
                    name=who.get(account, f"#{account}"), kind="person", number=None,
                    from_round=1, token_hash=token_hash(new_seat_token()),
                    registered_at=now, partner_id=partner))
            await conn.execute(update(tournament_invites).where(
                tournament_invites.c.id == invite_id).values(status="accepted"))
            await conn.execute(update(tournament_invites).where(
                tournament_invites.c.tournament_id == tournament_id,
                tournament_invites.c.status == "pending",
                or_(tournament_invites.c.from_id.in_((asker, me)),
                    tournament_invites.c.to_id.in_((asker, me)))).values(status="closed"))

        await in_transaction(self.engine, work)

    async def invites_of(self, tournament_id: str, account_id: int) -> list[dict[str, Any]]:
        """The invitations ``account_id`` sent or received in this tournament, newest
        first (the page shows pending ones and the asker's declined one)."""
        async with self.engine.connect() as conn:
            rows = (await conn.execute(select(tournament_invites).where(
                tournament_invites.c.tournament_id == tournament_id,
                or_(tournament_invites.c.from_id == account_id,
                    tournament_invites.c.to_id == account_id))
                .order_by(tournament_invites.c.id.desc()))).mappings().all()
        return [dict(r) for r in rows]

    async def _open_team(self, conn: AsyncConnection, tournament_id: str) -> dict[str, Any]:
        row = await self._row(conn, tournament_id, lock=True)
        if not is_team(str(row["format"])):
            raise _conflict("this is a progressive event: people register on their own")
        if row["status"] != "registering":
            raise _conflict(f"registration has closed: the tournament is {row['status']}"
                            if row["status"] != "playing" else
                            "registration has closed: the tournament has started")
        return row


def _check_room(entries: list[dict[str, Any]]) -> None:
    if sum(e["kind"] != "computer" for e in entries) >= 2 * MAX_PAIRS:
        raise _conflict(f"the tournament is full ({MAX_PAIRS} pairs)")
