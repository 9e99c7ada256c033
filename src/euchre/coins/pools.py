"""Tournaments' coin pools: an entry fee from each person into the tournament's pool, prizes
from the pool by a stated table at the end, every coin in the ledger.

A tournament (named by its id, a string of the tournaments' own) opens a pool with a fee and
a prize table (:func:`euchre.tournament.prizes`). Then, each in one transaction that locks
the pool's row first and then the accounts it touches in ascending id order:

- **enter**: the fee is charged once per person and tournament (key
  ``tournament-entry:{tournament}:{account}``), whatever request repeats it: a double click,
  a retry or two requests at once charge once. The balance must pay it beyond the leaving
  fees it keeps for the coin games the person is in (``cover.py``), else nothing moves;
- **close entries** (at the start): no one enters after it, so the entries it returns are
  exactly those the tournament seats (an entry racing the start is in, or refused);
- **leave**: the entry is forfeit (it stays in the pool); nothing is paid back, before the
  start or after;
- **pay out**: the pool (every fee taken, forfeits included) is shared by the prize table
  among the finishers as ranked (key ``tournament-prize:{tournament}:{account}``); what the
  table does not give and the prizes of places nobody holds are the house's share. Once: a
  second call, or two at once, pays nothing more;
- **cancel**: every fee is given back, forfeits included (key
  ``tournament-refund:{tournament}:{account}``); once.

So for every pool: fees taken = prizes + refunds + ``house``. The ledger's reasons are
``entry``, ``prize`` and ``entry_refund``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..storage.pool_models import pool_entries, tournament_pools
from ..tournament.prizes import DEFAULT_PRIZE_TABLE, Prizes, check_prize_table, prizes
from .cover import held_for_fees
from .errors import CoinsError, IdempotencyConflictError, InsufficientCoinsError, NotActiveError
from .ledger import in_transaction, lock_account, post, utcnow

OPEN = "open"
"""A pool taking entries."""
RUNNING = "running"
"""A pool whose tournament started: no more entries; leaving still forfeits."""
PAID = "paid"
"""A pool shared out by its prize table."""
CANCELLED = "cancelled"
"""A pool given back (the tournament was cancelled)."""

ENTERED = "entered"
"""An entry still in the tournament."""
LEFT = "left"
"""An entry forfeit: the person left."""
FINISHED = "finished"
"""An entry whose tournament was paid out (its prize may be 0)."""
REFUNDED = "refunded"
"""An entry given back."""

T = TypeVar("T")

MAX_FEE = 100_000
"""The largest entry fee a pool takes."""


@dataclass(frozen=True, slots=True)
class PoolEntry:
    """One person's entry."""

    account_id: int
    """Who entered."""
    status: str
    """``entered``, ``left``, ``finished`` or ``refunded``."""
    request_id: str
    """The request that entered them."""
    place: int | None = None
    """Their place, once finished and ranked."""
    prize: int | None = None
    """Coins paid to them, once finished (0 out of the prizes)."""
    replayed: bool = False
    """True when :meth:`PoolService.enter` found them already entered (nothing charged)."""


@dataclass(frozen=True, slots=True)
class Pool:
    """A tournament's pool."""

    tournament_id: str
    """The tournament."""
    fee: int
    """Each person's entry fee."""
    table: tuple[int, ...]
    """The prize table: each paid place's whole percentage of the pool."""
    status: str
    """``open``, ``running``, ``paid`` or ``cancelled``."""
    entries: tuple[PoolEntry, ...]
    """Everyone who entered, by account id."""
    paid_out: int | None = None
    """Coins paid as prizes, once paid (0 if cancelled)."""
    house: int | None = None
    """The house's share, once paid (0 if cancelled)."""

    @property
    def total(self) -> int:
        """Coins in the pool: every fee taken (forfeits included)."""
        return self.fee * len(self.entries)

    def entry(self, account_id: int) -> PoolEntry | None:
        """The account's entry, if it entered."""
        return next((e for e in self.entries if e.account_id == account_id), None)

    def to_json(self) -> dict[str, Any]:
        """The pool as a page shows it (no account ids)."""
        return {"fee": self.fee, "prize_table": list(self.table), "pool": self.total,
                "status": self.status, "entries": len(self.entries),
                "paid_out": self.paid_out, "house": self.house}


def entry_key(tournament_id: str, account_id: int) -> str:
    """The ledger key of an entry fee."""
    return f"tournament-entry:{tournament_id}:{account_id}"


def prize_key(tournament_id: str, account_id: int) -> str:
    """The ledger key of a prize."""
    return f"tournament-prize:{tournament_id}:{account_id}"


def refund_key(tournament_id: str, account_id: int) -> str:
    """The ledger key of a refund."""
    return f"tournament-refund:{tournament_id}:{account_id}"


def _check_id(name: str, value: object, longest: int) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= longest:
        raise CoinsError(f"{name} must be text of 1 to {longest} characters")
    return value


async def _lock_pool(conn: AsyncConnection, tournament_id: str) -> Pool | None:
    """Lock the pool's row (a write before any read) and read it with its entries."""
    result = await conn.execute(
        update(tournament_pools).where(tournament_pools.c.tournament_id == tournament_id)
        .values(status=tournament_pools.c.status))
    if result.rowcount != 1:
        return None
    return await _read(conn, tournament_id)


async def _read(conn: AsyncConnection, tournament_id: str) -> Pool | None:
    row = (await conn.execute(select(tournament_pools).where(
        tournament_pools.c.tournament_id == tournament_id))).first()
    if row is None:
        return None
    entries = (await conn.execute(select(pool_entries).where(
        pool_entries.c.tournament_id == tournament_id)
        .order_by(pool_entries.c.account_id))).all()
    return Pool(
        tournament_id=row.tournament_id, fee=int(row.fee),
        table=tuple(int(p) for p in row.prize_table.split(",")), status=row.status,
        entries=tuple(PoolEntry(int(e.account_id), e.status, e.request_id, e.place,
                                None if e.prize is None else int(e.prize)) for e in entries),
        paid_out=None if row.paid_out is None else int(row.paid_out),
        house=None if row.house is None else int(row.house),
    )


async def _must(conn: AsyncConnection, tournament_id: str) -> Pool:
    pool = await _lock_pool(conn, tournament_id)
    if pool is None:
        raise NotActiveError("that tournament takes no entry fee")
    return pool


class PoolService:
    """Tournaments' coin pools over the ledger's database."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """The service on ``engine`` (migrated); ``now`` stamps entries and rows."""
        self.engine = engine
        """The database (the accounts')."""
        self.now = now
        """The clock."""

    async def open(self, tournament_id: str, fee: int,
                   table: Sequence[int] = DEFAULT_PRIZE_TABLE,
                   conn: AsyncConnection | None = None) -> Pool:
        """Open the tournament's pool with ``fee`` coins an entry, paid out by ``table``.

        Opening it again with the same fee and table returns it; with others,
        :class:`IdempotencyConflictError`. A fee that is not a whole number from 1 to
        :data:`MAX_FEE`, or a bad table, is a :class:`CoinsError` (nothing is made).
        """
        _check_id("a tournament id", tournament_id, 64)
        if isinstance(fee, bool) or not isinstance(fee, int) or not 1 <= fee <= MAX_FEE:
            raise CoinsError(f"an entry fee is a whole number of coins from 1 to {MAX_FEE}")
        try:
            shares = check_prize_table(table)
        except ValueError as e:
            raise CoinsError(str(e)) from e

        async def work(conn: AsyncConnection) -> Pool:
            pool = await _lock_pool(conn, tournament_id)
            if pool is None:
                await conn.execute(tournament_pools.insert().values(
                    tournament_id=tournament_id, fee=fee,
                    prize_table=",".join(str(p) for p in shares), status=OPEN,
                    created_at=self.now()))
                pool = await _read(conn, tournament_id)
                assert pool is not None
            elif (pool.fee, pool.table) != (fee, shares):
                raise IdempotencyConflictError(
                    f"that tournament's pool was opened with an entry fee of {pool.fee} "
                    f"coins and the table {'/'.join(str(p) for p in pool.table)}")
            return pool

        return await self._run(conn, work)

    async def enter(self, tournament_id: str, account_id: int, request_id: str,
                    conn: AsyncConnection | None = None) -> PoolEntry:
        """Charge the account the entry fee and enter it, once: if it is in already (a
        double click, a retry, two requests at once) nothing more is charged and the entry
        comes back with ``replayed``. Refused, with nothing moved, if the pool is closed
        (:class:`NotActiveError`), the person left it (the entry was forfeit), or the
        balance cannot pay the fee beyond the leaving fees it keeps
        (:class:`InsufficientCoinsError`)."""
        _check_id("a request id", request_id, 80)

        async def work(conn: AsyncConnection) -> PoolEntry:
            pool = await _must(conn, tournament_id)
            earlier = pool.entry(account_id)
            if earlier is not None and earlier.status == ENTERED:
                return PoolEntry(earlier.account_id, earlier.status, earlier.request_id,
                                 replayed=True)
            if earlier is not None and earlier.status == LEFT:
                raise NotActiveError("you left this tournament: its entry was forfeit")
            if pool.status != OPEN or earlier is not None:
                raise NotActiveError("this tournament takes no more entries")
            balance = await lock_account(conn, account_id)
            held = await held_for_fees(conn, account_id)
            if balance - held < pool.fee:
                kept = f" ({held} of it covers the leaving fees of games you are in)" \
                    if held else ""
                raise InsufficientCoinsError(
                    f"not enough coins: the entry fee is {pool.fee} coins and your balance "
                    f"is {balance}{kept}")
            now = self.now()
            await conn.execute(pool_entries.insert().values(
                tournament_id=tournament_id, account_id=account_id, status=ENTERED,
                request_id=request_id, entered_at=now))
            await post(conn, account_id, -pool.fee, "entry",
                       entry_key(tournament_id, account_id), now)
            return PoolEntry(account_id, ENTERED, request_id)

        return await self._run(conn, work)

    async def close_entries(self, tournament_id: str,
                            conn: AsyncConnection | None = None) -> Pool:
        """The tournament starts: take no more entries, and return the pool with exactly the
        entries made (the people to seat, less those who left). Once; a repeat returns the
        pool as it is."""

        async def work(conn: AsyncConnection) -> Pool:
            pool = await _must(conn, tournament_id)
            if pool.status != OPEN:
                return pool
            await conn.execute(update(tournament_pools).where(
                tournament_pools.c.tournament_id == tournament_id,
                tournament_pools.c.status == OPEN).values(status=RUNNING))
            fresh = await _read(conn, tournament_id)
            assert fresh is not None
            return fresh

        return await self._run(conn, work)

    async def leave(self, tournament_id: str, account_id: int,
                    conn: AsyncConnection | None = None) -> Pool:
        """The person left: their entry is forfeit (it stays in the pool). Once; after the
        pool is paid or cancelled, or for someone not entered, nothing changes."""

        async def work(conn: AsyncConnection) -> Pool:
            pool = await _must(conn, tournament_id)
            entry = pool.entry(account_id)
            if pool.status in (OPEN, RUNNING) and entry is not None \
                    and entry.status == ENTERED:
                await conn.execute(update(pool_entries).where(
                    pool_entries.c.tournament_id == tournament_id,
                    pool_entries.c.account_id == account_id,
                    pool_entries.c.status == ENTERED).values(status=LEFT))
                fresh = await _read(conn, tournament_id)
                assert fresh is not None
                return fresh
            return pool

        return await self._run(conn, work)

    async def pay_out(self, tournament_id: str, ranks: Sequence[tuple[int, int]],
                      conn: AsyncConnection | None = None, *,
                      unpaid: Sequence[int] = (),
                      partners: Mapping[int, int] | None = None) -> Pool:
        """Share the pool among the finishers: ``ranks`` is ``(account, place)`` for each
        person still in, places as the standings give them (level people share a place),
        level people listed in the order they entered. ``unpaid``: the places of finishers
        who win nothing (computers), listed after the people: level with a person they take
        their share of the tied places' prizes, and that share is the house's.
        ``partners``: in a team event, each ranked account's partner (a pair is ranked once,
        by one member); the pair's prize is split between the two, the odd coin to the one
        ranked, and both are placed. Once: a
        second call (or two at once) returns the paid pool and pays nothing more. A rank
        naming someone not in the tournament (or who left it) is a :class:`CoinsError`, and
        nothing moves; a cancelled pool is a :class:`NotActiveError`."""

        async def work(conn: AsyncConnection) -> Pool:
            pool = await _must(conn, tournament_id)
            if pool.status == PAID:
                return pool
            if pool.status == CANCELLED:
                raise NotActiveError("that tournament was cancelled: its pool was refunded")
            mates = dict(partners or {})
            for account in [a for a, _ in ranks] + list(mates.values()):
                entry = pool.entry(account)
                if entry is None or entry.status != ENTERED:
                    raise CoinsError(f"account {account} is not in this tournament, so it "
                                     "cannot be ranked for a prize")
            ghosts = [(-1 - i, place) for i, place in enumerate(unpaid)]
            try:
                shared = prizes(pool.total, pool.table, [*ranks, *ghosts])
            except ValueError as e:
                raise CoinsError(str(e)) from e
            to_ghosts = sum(shared.payouts.pop(g) for g, _ in ghosts)
            shared = Prizes(shared.payouts, shared.house + to_ghosts)
            now = self.now()
            place = dict(ranks)
            for lead, mate in mates.items():
                coins = shared.payouts.get(lead, 0)
                shared.payouts[lead], shared.payouts[mate] = coins - coins // 2, coins // 2
                place[mate] = place[lead]
            for account in sorted(shared.payouts):
                await lock_account(conn, account)
            for entry in pool.entries:
                if entry.status != ENTERED:
                    continue
                coins = shared.payouts.get(entry.account_id, 0)
                if coins:
                    await post(conn, entry.account_id, coins, "prize",
                               prize_key(tournament_id, entry.account_id), now)
                await conn.execute(update(pool_entries).where(
                    pool_entries.c.tournament_id == tournament_id,
                    pool_entries.c.account_id == entry.account_id,
                    pool_entries.c.status == ENTERED).values(
                    status=FINISHED, place=place.get(entry.account_id), prize=coins))
            await conn.execute(update(tournament_pools).where(
                tournament_pools.c.tournament_id == tournament_id,
                tournament_pools.c.status == pool.status).values(
                status=PAID, paid_out=shared.paid, house=shared.house, closed_at=now))
            fresh = await _read(conn, tournament_id)
            assert fresh is not None
            return fresh

        return await self._run(conn, work)

    async def cancel(self, tournament_id: str, conn: AsyncConnection | None = None) -> Pool:
        """The tournament was cancelled: give every entry fee back, forfeits included.
        Once: a repeat returns the cancelled pool. A paid pool is a
        :class:`NotActiveError` (nothing moves)."""

        async def work(conn: AsyncConnection) -> Pool:
            pool = await _must(conn, tournament_id)
            if pool.status == CANCELLED:
                return pool
            if pool.status == PAID:
                raise NotActiveError("that tournament's pool was already paid out")
            now = self.now()
            for entry in pool.entries:  # ascending account ids
                await post(conn, entry.account_id, pool.fee, "entry_refund",
                           refund_key(tournament_id, entry.account_id), now)
            await conn.execute(update(pool_entries).where(
                pool_entries.c.tournament_id == tournament_id).values(status=REFUNDED))
            await conn.execute(update(tournament_pools).where(
                tournament_pools.c.tournament_id == tournament_id,
                tournament_pools.c.status == pool.status).values(
                status=CANCELLED, paid_out=0, house=0, closed_at=now))
            fresh = await _read(conn, tournament_id)
            assert fresh is not None
            return fresh

        return await self._run(conn, work)

    async def _run(self, conn: AsyncConnection | None,
                   work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        # Inside a caller's transaction (a tournament's, holding its row first) the work
        # joins it, so the tournament and its pool move together or not at all.
        if conn is not None:
            return await work(conn)
        return await in_transaction(self.engine, work)

    async def get(self, tournament_id: str) -> Pool | None:
        """The tournament's pool, if it has one."""
        async with self.engine.connect() as conn:
            return await _read(conn, tournament_id)
