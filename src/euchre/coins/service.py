"""Coin games: hold the stake, pay a win, charge a leaving fee, top up once a day.

Each operation is one transaction that locks the account first, changes the coin game's
status only from ``active``, and posts its entry with a fixed idempotency key:
``stake:{table}``, ``payout:{table}``, ``fee:{table}``, ``refund:{table}``,
``topup:{account}:{day}``. Repeating an operation (a retry, a double click, a replayed
request, a restart that runs the finish hook again) changes nothing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..storage.accounts_models import accounts, coin_games
from ..storage.base import StaleFenceError
from ..storage.models import GameRow
from . import rules
from .cover import held_for_fees, legacy_short, short_of
from .errors import (
    AlreadyPlayingError,
    BadStakeError,
    InsufficientCoinsError,
    NotActiveError,
    TopUpRefusedError,
)
from .ledger import (
    Ledger,
    LedgerEntry,
    find_entry,
    in_transaction,
    iso_utc,
    lock_account,
    post,
    utcnow,
)

ACTIVE = "active"
"""A coin game in progress (the stake is held)."""
FINISHED = ("won", "lost", "left", "refunded")
"""How a coin game can end."""


@dataclass(frozen=True, slots=True)
class CoinGame:
    """One coin table of one account."""

    table_id: str
    """The table."""
    account_id: int
    """The player."""
    seat: int
    """The player's seat."""
    stake: int
    """Coins held when the game started."""
    status: str
    """``active``, ``won``, ``lost``, ``left`` or ``refunded``."""
    seat_token: str
    """The seat's token (shown only to the owner)."""
    created_at: dt.datetime
    """When it started."""
    finished_at: dt.datetime | None
    """When it ended."""

    def to_json(self) -> dict[str, Any]:
        """The coin game as the API shows it."""
        return {
            "table": self.table_id,
            "stake": self.stake,
            "payout": rules.payout(self.stake),
            "leaving_fee": rules.leaving_fee(self.stake),
            "status": self.status,
            "started": iso_utc(self.created_at),
            "finished": iso_utc(self.finished_at) if self.finished_at else None,
        }


def _game(row: Any) -> CoinGame:
    return CoinGame(
        table_id=row.table_id,
        account_id=row.account_id,
        seat=row.seat,
        stake=int(row.stake),
        status=row.status,
        seat_token=row.seat_token,
        created_at=row.created_at,
        finished_at=row.finished_at,
    )


@dataclass(frozen=True, slots=True)
class Opened:
    """The result of opening a coin game."""

    game: CoinGame
    """The coin game."""
    created: bool
    """False when the same request had opened it already."""


@dataclass(frozen=True, slots=True)
class Settled:
    """The result of ending a coin game."""

    game: CoinGame
    """The coin game after the change."""
    entry: LedgerEntry | None
    """The payout or fee entry (None for a loss, or a leave that cost no fee)."""


async def _get(conn: AsyncConnection, table_id: str) -> CoinGame | None:
    row = (await conn.execute(select(coin_games).where(coin_games.c.table_id == table_id))).first()
    return None if row is None else _game(row)


async def _active_table(conn: AsyncConnection, account_id: int) -> str | None:
    """The table of the account's active coin game, if it has one."""
    return await conn.scalar(
        select(coin_games.c.table_id).where(
            coin_games.c.account_id == account_id, coin_games.c.status == ACTIVE
        )
    )


async def check_fence(conn: AsyncConnection, table_id: str, fence: int) -> None:
    """Lock the table's game row if its fence is not higher than ``fence`` (a new owner's
    claim then waits for this transaction), else raise :class:`StaleFenceError`."""
    result = await conn.execute(
        update(GameRow).where(GameRow.id == table_id, GameRow.fence <= fence)
        .values(fence=GameRow.fence))
    if result.rowcount != 1:
        stored = await conn.scalar(select(GameRow.fence).where(GameRow.id == table_id))
        raise StaleFenceError(table_id, fence, -1 if stored is None else int(stored))


def _top_up_key(account_id: int, now: dt.datetime) -> str:
    """The idempotency key of the account's top-up on ``now``'s UTC day."""
    return f"topup:{account_id}:{now.astimezone(dt.UTC).date().isoformat()}"


class CoinService:
    """Coin games over the ledger."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """The service on ``engine``; ``now`` gives entry times and the top-up day."""
        self.engine = engine
        """The database."""
        self.now = now
        """The clock."""
        self.ledger = Ledger(engine, now)
        """The ledger underneath."""

    async def open(
        self,
        account_id: int,
        table_id: str,
        stake: object,
        request_key: str | None = None,
        seat: int = 0,
        seat_token: str = "",
    ) -> Opened:
        """Start a coin game at ``table_id`` and hold the stake (key ``stake:{table}``).

        The same ``request_key`` returns the game it opened before, with nothing charged.
        Refused (nothing changes) for a stake not on offer, a balance below the stake, or
        an account that already has an active coin game.
        """
        if isinstance(stake, bool) or not isinstance(stake, int) or stake not in rules.STAKES:
            offered = ", ".join(str(s) for s in rules.STAKES)
            raise BadStakeError(f"choose a stake of {offered} coins")
        amount: int = stake

        async def work(conn: AsyncConnection) -> Opened:
            now = self.now()
            balance = await lock_account(conn, account_id)
            if request_key is not None:
                row = (
                    await conn.execute(
                        select(coin_games).where(
                            coin_games.c.account_id == account_id,
                            coin_games.c.request_key == request_key,
                        )
                    )
                ).first()
                if row is not None:
                    return Opened(_game(row), created=False)
            active = await _active_table(conn, account_id)
            if active is not None:
                raise AlreadyPlayingError(
                    "you are already playing a coin game: finish it or leave it first", active
                )
            short = short_of(amount, balance, await held_for_fees(conn, account_id))
            if short is not None:
                raise InsufficientCoinsError(f"not enough coins: {short}")
            await conn.execute(
                coin_games.insert().values(
                    table_id=table_id,
                    account_id=account_id,
                    seat=seat,
                    stake=amount,
                    status=ACTIVE,
                    request_key=request_key,
                    seat_token=seat_token,
                    created_at=now,
                )
            )
            await post(conn, account_id, -amount, "stake", f"stake:{table_id}", now,
                       table_id=table_id)
            game = await _get(conn, table_id)
            assert game is not None
            return Opened(game, created=True)

        return await in_transaction(self.engine, work)

    async def finish(self, table_id: str, winner_side: int, fence: int | None = None) -> Settled:
        """The game ended: pay a win (key ``payout:{table}``); a loss forfeits the stake.

        Only an active game is settled; calling again returns what happened the first time.
        With ``fence`` (the table owner's fencing number), the settlement is refused with
        :class:`~euchre.storage.StaleFenceError` and nothing changes if the table's stored
        fence is higher: an owner that lost its lease settles nothing.
        """

        async def work(conn: AsyncConnection) -> Settled:
            game = await self._locked(conn, table_id)
            if fence is not None:
                await check_fence(conn, table_id, fence)
            if game.status != ACTIVE:
                return Settled(game, await find_entry(conn, f"payout:{table_id}"))
            now = self.now()
            won = winner_side == game.seat % 2
            entry = None
            if won:
                entry = await post(
                    conn, game.account_id, rules.payout(game.stake), "payout",
                    f"payout:{table_id}", now, table_id=table_id,
                )
            await self._set_status(conn, table_id, "won" if won else "lost", now)
            return Settled(await self._fresh(conn, table_id), entry)

        return await in_transaction(self.engine, work)

    async def leave(self, table_id: str, account_id: int) -> Settled:
        """Leave an active coin game: the stake is forfeit and the leaving fee charged.

        The fee (key ``fee:{table}``) is 10% of the stake rounded up, in full: the balance
        kept it from the start (``cover.py``). Leaving a game that is over costs nothing.
        Repeating returns the first result.
        """

        async def work(conn: AsyncConnection) -> Settled:
            game = await self._locked(conn, table_id)
            balance = await lock_account(conn, game.account_id)
            if game.account_id != account_id:
                raise NotActiveError("that is not your coin table")
            if game.status != ACTIVE:
                return Settled(game, await find_entry(conn, f"fee:{table_id}"))
            now = self.now()
            entry = await post(
                conn, account_id, -rules.leaving_fee(game.stake), "fee", f"fee:{table_id}",
                now, table_id=table_id, up_to_balance=legacy_short(balance, game.stake),
            )
            await self._set_status(conn, table_id, "left", now)
            return Settled(await self._fresh(conn, table_id), entry)

        return await in_transaction(self.engine, work)

    async def refund(self, table_id: str) -> Settled:
        """Give the stake back (key ``refund:{table}``) when the table could not be opened."""

        async def work(conn: AsyncConnection) -> Settled:
            game = await self._locked(conn, table_id)
            if game.status != ACTIVE:
                return Settled(game, await find_entry(conn, f"refund:{table_id}"))
            now = self.now()
            entry = await post(conn, game.account_id, game.stake, "refund",
                               f"refund:{table_id}", now, table_id=table_id)
            await self._set_status(conn, table_id, "refunded", now)
            return Settled(await self._fresh(conn, table_id), entry)

        return await in_transaction(self.engine, work)

    async def top_up(self, account_id: int) -> LedgerEntry:
        """The free daily top-up to :data:`~euchre.coins.rules.TOP_UP_TO` coins.

        Once a UTC day (key ``topup:{account}:{day}``), only while the balance is below the
        smallest table's cover (:func:`~.rules.top_up_below`) and no coin game is active.
        """

        async def work(conn: AsyncConnection) -> LedgerEntry:
            now = self.now()
            key = _top_up_key(account_id, now)
            balance = await lock_account(conn, account_id)
            earlier = await find_entry(conn, key)
            if earlier is not None:
                raise TopUpRefusedError("you have had today's free top-up: come back tomorrow")
            if balance >= rules.top_up_below():
                raise TopUpRefusedError(
                    f"the free top-up is for balances below {rules.top_up_below()} coins "
                    "(what the smallest table needs)"
                )
            active = await _active_table(conn, account_id)
            if active is not None:
                raise TopUpRefusedError("finish your coin game before taking the top-up")
            return await post(conn, account_id, rules.TOP_UP_TO - balance, "topup", key, now)

        return await in_transaction(self.engine, work)

    async def can_top_up(self, account_id: int) -> bool:
        """Whether :meth:`top_up` would succeed now."""
        async with self.engine.connect() as conn:
            if await find_entry(conn, _top_up_key(account_id, self.now())) is not None:
                return False
            active = await _active_table(conn, account_id)
        return active is None and await self.ledger.balance(account_id) < rules.top_up_below()

    async def get(self, table_id: str) -> CoinGame | None:
        """The coin game at a table, if it is one."""
        async with self.engine.connect() as conn:
            return await _get(conn, table_id)

    async def opened_by_request(self, account_id: int, request_key: str) -> CoinGame | None:
        """The game the account opened with ``request_key`` before, if any (a repeat)."""
        query = select(coin_games).where(coin_games.c.account_id == account_id,
                                         coin_games.c.request_key == request_key)
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return _game(row) if row is not None else None

    async def active(self, account_id: int | None = None) -> list[CoinGame]:
        """Active coin games (of one account, or all: a restart resumes them)."""
        query = select(coin_games).where(coin_games.c.status == ACTIVE)
        if account_id is not None:
            query = query.where(coin_games.c.account_id == account_id)
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query.order_by(coin_games.c.created_at))).all()
        return [_game(r) for r in rows]

    async def games(self, account_id: int, limit: int = 50) -> list[CoinGame]:
        """An account's coin games, newest first."""
        query = (
            select(coin_games)
            .where(coin_games.c.account_id == account_id)
            .order_by(coin_games.c.created_at.desc(), coin_games.c.table_id)
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_game(r) for r in rows]

    async def _locked(self, conn: AsyncConnection, table_id: str) -> CoinGame:
        # Lock first (a write before any read), then read under the lock.
        owner = select(coin_games.c.account_id).where(coin_games.c.table_id == table_id)
        result = await conn.execute(
            update(accounts)
            .where(accounts.c.id == owner.scalar_subquery())
            .values(balance=accounts.c.balance)
        )
        game = await _get(conn, table_id)
        if game is None or result.rowcount != 1:
            raise NotActiveError("that is not a coin table")
        return game

    async def _set_status(
        self, conn: AsyncConnection, table_id: str, status: str, now: dt.datetime
    ) -> None:
        await conn.execute(
            update(coin_games)
            .where(coin_games.c.table_id == table_id, coin_games.c.status == ACTIVE)
            .values(status=status, finished_at=now)
        )

    async def _fresh(self, conn: AsyncConnection, table_id: str) -> CoinGame:
        game = await _get(conn, table_id)
        assert game is not None
        return game
