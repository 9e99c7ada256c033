"""Stakes against people: each person's stake goes into the table's pot at the start; the
winning side's people share it at the end; a person who leaves forfeits the stake and pays
the leaving fee.

The coin tables' ledger rules hold. Each operation is one transaction that locks the pot's
row first, then the accounts it touches in ascending id order (so two operations on one
table, or on tables sharing a person, run one after the other and never deadlock); it
changes a pot or seat only from ``active``, and posts entries with fixed idempotency keys:
``stake:{table}:{seat}``, ``fee:{table}:{seat}``, ``payout:{table}:{seat}``,
``refund:{table}:{seat}``. Repeating an operation (a retry, a double click, two requests
at once, a restart that runs the finish hook again) changes nothing.

Sharing the pot (:func:`shares`): the pot is every stake taken at the start. It is split
equally between the winning side's seats where a person staked, rounded down to whole
coins (a computer that sat there from the start staked nothing and is due nothing, so a
person whose partner is a computer takes the whole pot when they win). Each part is paid
to its person if they are still in the game; the part of a person who left (or was away
past the grace) goes to nobody, as do the coins that do not divide, and the whole pot when
no person staked on the winning side. So a person who stays wins the same whether or not
their partner left, and the house never adds coins to a pot.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..hand import SEAT_NAMES
from ..storage.accounts_models import accounts
from ..storage.stake_models import stake_pots, stake_seats
from . import rules
from .cover import held_for_fees, legacy_short, short_of
from .errors import BadStakeError, CoinsError, InsufficientCoinsError, NotActiveError
from .ledger import in_transaction, lock_account, post, utcnow
from .service import check_fence

ACTIVE = "active"
"""A pot (or a person's part of it) while the game runs."""
SETTLED = "settled"
"""A pot shared out at the end of the game."""
REFUNDED = "refunded"
"""A pot given back (the table could not be opened)."""


class StakeRefused(InsufficientCoinsError):
    """A stake that cannot be taken (nothing moved); the message names who and why."""

    short: tuple[str, ...] = ()
    """At a start: the names of the people seated who cannot cover the stake."""


@dataclass(frozen=True, slots=True)
class PotSeat:
    """One person's part of a pot."""

    seat: int
    """The seat (0-3)."""
    account_id: int
    """Who staked."""
    status: str
    """``active``, ``won``, ``lost``, ``left`` or ``refunded``."""
    fee: int | None
    """The leaving fee charged (``left`` only)."""
    payout: int | None
    """Coins paid at the end (``won`` only)."""


@dataclass(frozen=True, slots=True)
class Pot:
    """A stake table's pot."""

    table_id: str
    """The table."""
    stake: int
    """Each person's stake."""
    status: str
    """``active``, ``settled`` or ``refunded``."""
    seats: tuple[PotSeat, ...]
    """The people who staked, by seat."""
    winner: int | None = None
    """The winning side, once settled."""
    paid_out: int | None = None
    """Coins paid to the winners, once settled."""
    house: int | None = None
    """Coins of the pot paid to nobody, once settled."""

    @property
    def total(self) -> int:
        """Coins in the pot: every stake taken at the start."""
        return self.stake * len(self.seats)

    def seat(self, seat: int) -> PotSeat | None:
        """The part of the person at ``seat``, or None (a computer's seat)."""
        return next((s for s in self.seats if s.seat == seat), None)

    def to_json(self) -> dict[str, Any]:
        """The pot as the API shows it (no account ids)."""
        return {
            "stake": self.stake,
            "pot": self.total,
            "status": self.status,
            "winner": self.winner,
            "paid_out": self.paid_out,
            "house": self.house,
            "seats": [{"seat": s.seat, "status": s.status, "fee": s.fee, "payout": s.payout}
                      for s in self.seats],
        }


def shares(total: int, staked: Sequence[int], staying: Sequence[int]) -> tuple[dict[int, int], int]:
    """The pot ``total`` shared at the end: each winning seat where a person staked
    (``staked``) is due an equal part, rounded down; it is paid to those of them still in
    the game (``staying``); the rest (the parts of people who left, what does not divide,
    everything if no person of the winning side staked) goes to nobody. Returns each
    paid seat's coins, and what goes to nobody."""
    if not staked:
        return {}, total
    each = total // len(staked)
    paid = {seat: each for seat in staked if seat in staying}
    return paid, total - sum(paid.values())


def check_stake(stake: object) -> int:
    """The stake if it is one on offer (the coin tables' stakes) or 0, else a refusal."""
    if isinstance(stake, bool) or not isinstance(stake, int) \
            or (stake != 0 and stake not in rules.STAKES):
        offered = ", ".join(str(s) for s in rules.STAKES)
        raise BadStakeError(f"stake must be 0 (no stake) or one of {offered} coins")
    return stake


async def _lock_pot(conn: AsyncConnection, table_id: str) -> Pot | None:
    """Lock the pot's row (a write before any read) and read it with its seats."""
    result = await conn.execute(update(stake_pots).where(stake_pots.c.table_id == table_id)
                                .values(status=stake_pots.c.status))
    if result.rowcount != 1:
        return None
    return await _read(conn, table_id)


async def _read(conn: AsyncConnection, table_id: str) -> Pot | None:
    row = (await conn.execute(select(stake_pots).where(stake_pots.c.table_id == table_id))
           ).first()
    if row is None:
        return None
    seats = (await conn.execute(select(stake_seats).where(stake_seats.c.table_id == table_id)
                                .order_by(stake_seats.c.seat))).all()
    return Pot(
        table_id=row.table_id, stake=int(row.stake), status=row.status,
        seats=tuple(PotSeat(int(s.seat), int(s.account_id), s.status,
                            None if s.fee is None else int(s.fee),
                            None if s.payout is None else int(s.payout)) for s in seats),
        winner=row.winner,
        paid_out=None if row.paid_out is None else int(row.paid_out),
        house=None if row.house is None else int(row.house),
    )


async def _set_seat(conn: AsyncConnection, table_id: str, seat: int, **values: Any) -> None:
    await conn.execute(update(stake_seats).where(
        stake_seats.c.table_id == table_id, stake_seats.c.seat == seat,
        stake_seats.c.status == ACTIVE).values(**values))


class PotService:
    """Stake pots over the ledger's database."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """The service on ``engine`` (migrated); ``now`` stamps entries and rows."""
        self.engine = engine
        """The database (the accounts')."""
        self.now = now
        """The clock."""

    async def covers(self, account_id: int, stake: int) -> int:
        """The account's balance if it covers a seat at ``stake`` (the stake plus its
        leaving fee, beyond the fees of the games it is in: ``cover.py``), else
        :class:`StakeRefused` (nothing moves: a seat claim checks this, the start takes
        the stake). ``stake`` 0: just the balance."""
        async with self.engine.connect() as conn:
            balance = await conn.scalar(select(accounts.c.balance)
                                        .where(accounts.c.id == account_id))
            held = await held_for_fees(conn, account_id) if stake else 0
        short = short_of(stake, int(balance or 0), held) if stake else None
        if balance is None or short is not None:
            raise StakeRefused(f"{short or 'no such account'}: top up or choose a smaller "
                               "stake")
        return int(balance)

    async def escrow(self, table_id: str, stake: int, people: Mapping[int, int],
                     names: Mapping[int, str]) -> Pot:
        """Take ``stake`` from each person (``people``: seat -> account) into the table's
        pot, in one transaction: all of them or, if anyone cannot cover it, nobody
        (:class:`StakeRefused` naming who). A repeat returns the pot already made."""
        if stake <= 0 or not people:
            raise CoinsError("a pot needs a stake and at least one person")

        async def work(conn: AsyncConnection) -> Pot:
            pot = await _lock_pot(conn, table_id)
            if pot is not None:
                return pot
            now = self.now()
            balances = {a: await lock_account(conn, a) for a in sorted(set(people.values()))}
            # What each has free: the balance less the fees of the games they are in
            # (cover.py); sitting here needs the stake and this table's fee.
            free = {a: b - await held_for_fees(conn, a) for a, b in balances.items()}
            need = rules.cover(stake)
            # Named with their seat, never with their balance: that is theirs alone.
            short = [f"{names.get(seat, SEAT_NAMES[seat])} ({SEAT_NAMES[seat]})"
                     for seat, a in sorted(people.items()) if free[a] < need]
            if short:
                who = short[0] if len(short) == 1 else f"{', '.join(short[:-1])} and {short[-1]}"
                refused = StakeRefused(f"the stake is {stake} coins (with the leaving fee's "
                                       f"cover, {need}) and {who} cannot cover it: the game "
                                       "cannot start until everyone seated covers it")
                refused.short = tuple(names.get(seat, SEAT_NAMES[seat])
                                      for seat, a in sorted(people.items())
                                      if free[a] < need)
                raise refused
            await conn.execute(stake_pots.insert().values(
                table_id=table_id, stake=stake, status=ACTIVE, created_at=now))
            for seat, account in sorted(people.items()):
                await conn.execute(stake_seats.insert().values(
                    table_id=table_id, seat=seat, account_id=account, status=ACTIVE))
                await post(conn, account, -stake, "stake", f"stake:{table_id}:{seat}", now,
                           table_id=table_id)
            pot = await _read(conn, table_id)
            assert pot is not None
            return pot

        return await in_transaction(self.engine, work)

    async def leave(self, table_id: str, seat: int, fence: int | None = None) -> Pot:
        """The person at ``seat`` left (or was away too long): the stake is forfeit and
        the leaving fee charged (10% of the stake rounded up, in full: the balance kept it
        from the start, ``cover.py``). Once per seat; after the end (or a second time)
        nothing moves.
        With ``fence``, refused if the table has a newer owner."""

        async def work(conn: AsyncConnection) -> Pot:
            pot = await _lock_pot(conn, table_id)
            if pot is None:
                raise NotActiveError("that table has no stake")
            if fence is not None:
                await check_fence(conn, table_id, fence)
            part = pot.seat(seat)
            if pot.status != ACTIVE or part is None or part.status != ACTIVE:
                return pot
            await self._charge_fee(conn, pot, part)
            fresh = await _read(conn, table_id)
            assert fresh is not None
            return fresh

        return await in_transaction(self.engine, work)

    async def _charge_fee(self, conn: AsyncConnection, pot: Pot, part: PotSeat) -> None:
        balance = await lock_account(conn, part.account_id)
        entry = await post(conn, part.account_id, -rules.leaving_fee(pot.stake), "fee",
                           f"fee:{pot.table_id}:{part.seat}", self.now(),
                           table_id=pot.table_id,
                           up_to_balance=legacy_short(balance, pot.stake))
        await _set_seat(conn, pot.table_id, part.seat, status="left", fee=-entry.amount)

    async def settle(self, table_id: str, winner: int, replaced: Sequence[int] = (),
                     fence: int | None = None) -> Pot:
        """The game ended with side ``winner`` ahead: charge the fee of anyone in
        ``replaced`` (seats a computer took over) not yet charged, then share the pot
        (:func:`shares`). Once per pot; a repeat returns the settled pot. With ``fence``,
        refused (nothing moves) if the table has a newer owner."""

        async def work(conn: AsyncConnection) -> Pot:
            pot = await _lock_pot(conn, table_id)
            if pot is None:
                raise NotActiveError("that table has no stake")
            if fence is not None:
                await check_fence(conn, table_id, fence)
            if pot.status != ACTIVE:
                return pot
            for account in sorted({p.account_id for p in pot.seats}):
                await lock_account(conn, account)
            now = self.now()
            for part in pot.seats:
                if part.status == ACTIVE and part.seat in replaced:
                    await self._charge_fee(conn, pot, part)
            pot = await _read(conn, table_id)
            assert pot is not None
            staying = [p for p in pot.seats if p.status == ACTIVE]
            paid, house = shares(pot.total, [p.seat for p in pot.seats if p.seat % 2 == winner],
                                 [p.seat for p in staying])
            for part in staying:
                coins = paid.get(part.seat)
                if coins:
                    await post(conn, part.account_id, coins, "payout",
                               f"payout:{table_id}:{part.seat}", now, table_id=table_id)
                await _set_seat(conn, table_id, part.seat,
                                status="won" if part.seat in paid else "lost",
                                payout=coins if part.seat in paid else None)
            await conn.execute(update(stake_pots).where(
                stake_pots.c.table_id == table_id, stake_pots.c.status == ACTIVE).values(
                status=SETTLED, winner=winner, paid_out=sum(paid.values()), house=house,
                settled_at=now))
            fresh = await _read(conn, table_id)
            assert fresh is not None
            return fresh

        return await in_transaction(self.engine, work)

    async def refund(self, table_id: str) -> Pot | None:
        """Give every stake back (the table could not be opened); once. None: no pot."""

        async def work(conn: AsyncConnection) -> Pot | None:
            pot = await _lock_pot(conn, table_id)
            if pot is None or pot.status != ACTIVE:
                return pot
            now = self.now()
            for part in pot.seats:
                if part.status == ACTIVE:
                    await post(conn, part.account_id, pot.stake, "refund",
                               f"refund:{table_id}:{part.seat}", now, table_id=table_id)
                    await _set_seat(conn, table_id, part.seat, status=REFUNDED)
            await conn.execute(update(stake_pots).where(
                stake_pots.c.table_id == table_id, stake_pots.c.status == ACTIVE).values(
                status=REFUNDED, paid_out=0, house=0, settled_at=now))
            return await _read(conn, table_id)

        return await in_transaction(self.engine, work)

    async def get(self, table_id: str) -> Pot | None:
        """The table's pot, if it has one."""
        async with self.engine.connect() as conn:
            return await _read(conn, table_id)

    async def active(self) -> list[Pot]:
        """Pots whose game has not been settled (a restart settles or resumes them)."""
        async with self.engine.connect() as conn:
            ids = (await conn.execute(select(stake_pots.c.table_id)
                                      .where(stake_pots.c.status == ACTIVE)
                                      .order_by(stake_pots.c.created_at))).scalars().all()
            pots = [await _read(conn, i) for i in ids]
        return [p for p in pots if p is not None]
