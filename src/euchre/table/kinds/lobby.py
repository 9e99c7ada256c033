"""The lobby: open online tables kept in a store, quick play, and the changes to announce.

:class:`Lobby` is the registry the server uses (the tests' ``MemoryOnlineTables`` is the
same rules in one process's memory, for tests that drive it by hand). Each change
reads the table, applies one of :class:`~euchre.table.kinds.online.OpenTable`'s rules to the
copy and writes it only over the version read (:mod:`euchre.storage.open_tables`); when
another process changed it in between, the change is tried again on the fresh table, so
its refusals (a seat taken meanwhile) are those of the table as it now is.

``Play now`` (:meth:`Lobby.quick_seat`) seats a person at the oldest waiting quick-play
table with the same preset, clock, stake and rated flag that has a free seat (and where
their account does not sit already), or opens one. The store keeps at most one such table
per match key (:class:`~euchre.storage.open_tables.MatchTaken`), so two processes that
find none at once cannot both open one: the second sits at the first's. Each of
:attr:`Lobby.listeners` hears of every change written (the server pushes it to the lobby's
sockets); a start is announced by whoever opened the game, once it is open
(:meth:`Lobby.announce`).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ...storage.open_tables import (
    MatchTaken,
    MemoryOpenTableStore,
    OpenTableRow,
    OpenTableStore,
    SeatCheck,
)
from ..actor.errors import TooManySeats
from ..actor.seats import hash_token, new_table_id, new_token
from .online import (
    ALONE_FOR,
    GUEST_REFUSED,
    GUEST_STAKE_REFUSED,
    MAX_OPEN,
    OPEN_FOR,
    PAGE_SIZE,
    BotSeat,
    OnlineConflict,
    OnlineForbidden,
    OnlineNotFound,
    OnlineOptions,
    OpenTable,
    SameSource,
    check_bot_allowed,
    page_of,
)

LIVE_FOR = 6 * 3600.0
"""Seconds a started table stays listed to watch without a change (its game's end takes
it off at once; this only bounds what a crash might leave behind)."""

QUICK_SAME_SOURCE = ("the rated table waiting for these rules, clock and stake has someone "
                     "from your address or browser at it, and a rated game needs four people "
                     "on four different connections: wait until it starts, or choose another "
                     "clock")
"""Why ``Play now`` finds no rated seat for a person whose household waits already."""

START_HOLDS = 120.0
"""Seconds a started table's seats still count toward the cap on seats per person while
its game is not yet open: the start may be undone (a stake not covered), and the seats
come back; a start its process never finished stops counting after this."""

RETRIES = 8
"""Times a change is tried again when another request changed the table in between."""

T = TypeVar("T")

Sources = Callable[[str], list[str]]
"""Where a person sits down from, hashed for a table id (``server.core.sources.sources_of``)."""

Notify = Callable[[OpenTable | None, str, str], Awaitable[None]]
"""Told of each change written: the table as it now is (None once it is gone), its id, and
why it went (``empty``, ``finished``; empty when it did not)."""


class Lobby:
    """Open online tables in an :class:`OpenTableStore`; ``now`` is wall-clock seconds."""

    def __init__(self, store: OpenTableStore | None = None,
                 now: Callable[[], float] = time.time, open_for: float = OPEN_FOR,
                 limit: int = MAX_OPEN, alone_for: float = ALONE_FOR,
                 live_for: float = LIVE_FOR) -> None:
        """A lobby over ``store`` (default: in memory)."""
        self.store = store or MemoryOpenTableStore()
        """Where the tables are kept."""
        self.now = now
        """The clock that ages tables (seconds since the epoch: it outlives a restart)."""
        self.open_for = open_for
        """Seconds a table stays open."""
        self.alone_for = min(alone_for, open_for)
        """Seconds a table stays open with at most one person."""
        self.limit = limit
        """Tables waiting at once."""
        self.live_for = live_for
        """Seconds a started table stays listed without a change."""
        self.listeners: list[Notify] = []
        """Told of every change written."""
        self.seats_per_person: int | None = None
        """Seats one person (``holder``) may hold at once at waiting tables, checked in
        the transaction that seats them (:class:`SeatCheck`); None: no cap."""

    # -- reading --------------------------------------------------------------------------

    def expires_at(self, table: OpenTable) -> float:
        """When ``table`` will be forgotten if nothing changes."""
        alone = table.seated() <= 1 and table.waiting()
        return table.created_at + (self.alone_for if alone else self.open_for)

    def _alive(self, table: OpenTable) -> bool:
        if table.started:
            return True
        return self.now() < self.expires_at(table)

    async def get(self, table_id: str) -> OpenTable:
        """The table, or :class:`OnlineNotFound` (also once it expired)."""
        row = await self.store.get(table_id)
        table = None if row is None else OpenTable.from_stored(row.data)
        if table is None or not self._alive(table):
            raise OnlineNotFound(f"no open online table {table_id!r}")
        return table

    async def waiting(self) -> list[OpenTable]:
        """Tables waiting for their start, oldest first."""
        rows = await self.store.with_status("open", self.limit * 2)
        return [t for t in map(_table, rows) if self._alive(t)]

    async def open_tables(self) -> list[OpenTable]:
        """The listed tables waiting for their start, newest first: a private table is
        never listed (only its link leads there)."""
        listed = [t for t in await self.waiting() if not t.options.private]
        return sorted(listed, key=lambda t: (t.created_at, t.id), reverse=True)

    async def page(self, limit: int = PAGE_SIZE, cursor: str | None = None
                   ) -> tuple[list[OpenTable], str | None]:
        """One page of :meth:`open_tables` after ``cursor``, and the next page's cursor."""
        return page_of(await self.open_tables(), limit, cursor)

    async def live(self, limit: int = 20) -> list[OpenTable]:
        """Started games anyone may watch, newest start first (a private table's game is
        watched by its link only, never listed)."""
        rows = await self.store.with_status("started", 1000)
        games = [t for t in map(_table, rows)
                 if t.options.spectators and not t.options.private]
        games.sort(key=lambda t: (t.started_at or 0.0, t.id), reverse=True)
        return games[:limit]

    async def open_by(self, creator: str) -> list[OpenTable]:
        """The tables ``creator`` opened that wait for their start."""
        return [t for t in await self.waiting() if t.creator == creator]

    async def seats_held(self, holder: str) -> list[OpenTable]:
        """The waiting tables where ``holder`` (an account or an address) holds a seat, one
        entry per seat; their own seat at an invite table they opened is left out (the cap
        on open tables covers it)."""
        rows = await self.store.with_status("open", self.limit * 2)
        rows += [r for r in await self.store.with_status("started", 1000)
                 if r.updated_at >= self.now() - START_HOLDS]
        return [t for r in rows for t in [_table(r)] for _ in range(self._holds(t, holder))]

    def _holds(self, table: OpenTable, holder: str) -> int:
        """Seats ``holder`` holds at ``table`` toward the cap: at a waiting table (not
        their own seat at an invite table they opened), or one whose start is not yet
        open (it may be undone)."""
        starting = table.started and not table.opened and not table.cancelled \
            and (table.started_at or 0.0) >= self.now() - START_HOLDS
        if not ((table.waiting() and self._alive(table)) or starting):
            return 0
        return sum(1 for i, h in enumerate(table.holders)
                   if h == holder and (table.quick or i != 0))

    def _seat_check(self, table: OpenTable, holder: str | None) -> SeatCheck | None:
        """The check that ``table`` as changed leaves ``holder`` within the cap, counted
        on the tables as stored in the write's own transaction."""
        cap = self.seats_per_person
        if holder is None or cap is None:
            return None
        mine = self._holds(table, holder)
        if not mine:
            return None

        def check(rows: list[OpenTableRow]) -> None:
            held = sum(self._holds(_table(r), holder) for r in rows if r.id != table.id)
            if held + mine > cap:
                raise TooManySeats(f"you already hold {held} seats at tables waiting to "
                                   f"start (at most {cap}): leave one first")

        return SeatCheck(holder, self.now() - START_HOLDS, check)

    async def seats_of(self, account_id: int, bot: bool = False
                       ) -> list[tuple[OpenTable, int]]:
        """The waiting tables where the account holds a seat, with the seat (``bot``: an
        outside bot's account, its bot seats; else a person's seats)."""
        return [(t, i) for t in await self.waiting() for i, a in enumerate(t.accounts)
                if a == account_id and t.people[i] is not None
                and (t.bots[i] is not None) == bot]

    async def quick_seat_of(self, options: OnlineOptions, account_id: int
                            ) -> tuple[OpenTable, int] | None:
        """The account's seat at a waiting quick table matching ``options`` (``Play now``
        from a second browser leads there), or None."""
        key = OpenTable("", options, 0.0, [None] * 4).match_key()
        for table, seat in await self.seats_of(account_id):
            if table.quick and table.match_key() == key:
                return table, seat
        return None

    # -- changing -------------------------------------------------------------------------

    async def _announce(self, table: OpenTable | None, table_id: str, why: str = "") -> None:
        for listener in self.listeners:
            await listener(table, table_id, why)

    async def announce(self, table: OpenTable) -> None:
        """Tell the listeners of ``table`` as it is (a start, once the game is open)."""
        await self._announce(table, table.id)

    async def sweep(self) -> int:
        """Forget what expired (each waiting table that goes is announced, ``expired``);
        how many went."""
        gone = 0
        for row in await self.store.with_status("open", self.limit * 2):
            table = _table(row)
            if not self._alive(table) and await self.store.delete(table.id, row.version):
                gone += 1
                await self._announce(None, table.id, "expired")
        now = self.now()
        return gone + await self.store.sweep(now - self.open_for, now - self.alone_for,
                                             now - self.live_for)

    async def _add(self, table: OpenTable, holder: str | None = None) -> None:
        await self.store.add(_row(table, self.now()), self._seat_check(table, holder))
        await self._announce(table, table.id)

    async def _change(self, table_id: str, change: Callable[[OpenTable], T],
                      announce: bool = True, holder: str | None = None
                      ) -> tuple[OpenTable, T]:
        """Apply ``change`` to the table as stored and write it over the version read; a
        quick table nobody sits at any more is removed instead. A change that seats
        ``holder`` is written only within their cap on seats."""
        for _ in range(RETRIES):
            table = await self.get(table_id)
            version = table.version
            result = change(table)  # raises a refusal: nothing is written
            table.version = version + 1
            if table.quick and table.waiting() and not table.seated():
                if await self.store.delete(table_id, version):
                    await self._announce(None, table_id, "empty")
                    return table, result
            elif await self._replace(table, version, self._seat_check(table, holder)):
                if announce:
                    await self._announce(table, table_id)
                return table, result
        raise OnlineConflict("the table is changing too fast: try again")

    async def _replace(self, table: OpenTable, version: int,
                       check: SeatCheck | None = None) -> bool:
        try:
            return await self.store.replace(_row(table, self.now()), version, check)
        except MatchTaken:  # a table given back its free seat while another waits
            raise OnlineConflict("another table with these settings is waiting: use Play "
                                 "now to join it") from None

    async def create(self, options: OnlineOptions, table_id: str | None = None,
                     token: str | None = None, creator: str = "", account: int | None = None,
                     quick: bool = False, bot: BotSeat | None = None,
                     sources: Sources | None = None) -> tuple[OpenTable, str]:
        """Open a table with its first person (or outside bot) South; returns it and their
        token."""
        if options.rated and account is None:
            raise OnlineForbidden(GUEST_REFUSED)
        if options.stake and account is None:
            raise OnlineForbidden(GUEST_STAKE_REFUSED)
        check_bot_allowed(options, bot)
        await self.sweep()
        if len(await self.waiting()) >= self.limit:
            raise OnlineConflict("too many online tables are waiting to start: try again later")
        token = token or new_token()
        table = OpenTable(table_id or new_table_id(), options, self.now(),
                          [(options.name, hash_token(token)), None, None, None],
                          creator=creator, accounts=[account, None, None, None],
                          quick=quick, holders=[creator or None, None, None, None],
                          bots=[bot, None, None, None])
        if options.rated and sources is not None:
            table.sources[0] = sources(table.id)
        await self._add(table, creator or None)
        return table, token

    async def claim(self, table_id: str, seat: int, name: str, token: str | None = None,
                    account: int | None = None, holder: str | None = None,
                    bot: BotSeat | None = None, sources: Sources | None = None
                    ) -> tuple[OpenTable, str]:
        """Take a free seat (a person's, or an outside ``bot``'s); the table and the
        seat's token."""
        token = token or new_token()
        mine = sources(table_id) if sources is not None else None
        table, _ = await self._change(
            table_id, lambda t: t.take_seat(seat, name, token, account, holder, bot, mine),
            holder=holder)
        return table, token

    async def quick_seat(self, options: OnlineOptions, account: int | None, holder: str,
                         may_open: Callable[[], Awaitable[None]] | None = None,
                         bot: BotSeat | None = None, sources: Sources | None = None
                         ) -> tuple[OpenTable, int, str]:
        """``Play now``: a seat at the oldest matching quick table, or a new one (after
        ``may_open`` let it: the caps on new tables); the table, the seat and its token."""
        if options.rated and account is None:
            raise OnlineForbidden(GUEST_REFUSED)
        check_bot_allowed(options, bot)
        token = new_token()
        allowed = False
        for _ in range(RETRIES):
            found = await self._seat_at_match(options, account, holder, token, bot, sources)
            if found is not None:
                return found[0], found[1], token
            if may_open is not None and not allowed:
                await may_open()
                allowed = True
            try:
                made, token = await self.create(options, token=token, creator=holder,
                                                account=account, quick=True, bot=bot,
                                                sources=sources)
            except MatchTaken:  # opened elsewhere at the same moment: sit there instead
                if await self._only_for_others(options, sources):
                    raise SameSource(QUICK_SAME_SOURCE) from None
                continue
            return made, 0, token
        raise OnlineConflict("you already wait at a quick-play table with these rules, clock "
                             "and stake: leave it first, or choose others")

    async def _only_for_others(self, options: OnlineOptions, sources: Sources | None) -> bool:
        """Whether the waiting quick table of these settings is rated and seats someone of
        the person's network or browser (so they can neither sit there nor open another)."""
        if sources is None or not options.rated:
            return False
        key = OpenTable("", options, 0.0, [None] * 4).match_key()
        return any(t.quick and t.match_key() == key and t.free_seats()
                   and t.clash(sources(t.id)) is not None for t in await self.waiting())

    async def _seat_at_match(self, options: OnlineOptions, account: int | None, holder: str,
                             token: str, bot: BotSeat | None = None,
                             sources: Sources | None = None
                             ) -> tuple[OpenTable, int] | None:
        """A seat at the oldest waiting quick table that matches, or None."""
        key = OpenTable("", options, 0.0, [None] * 4).match_key()
        for table in await self.waiting():
            # A signed-in person is never matched with themselves; guests behind one address
            # (a family, an office) may be, the cap on seats per address bounds it; at a
            # rated table nobody is matched with someone of their network or browser.
            mine = sources(table.id) if sources is not None else None
            if not table.quick or table.match_key() != key or not table.free_seats() \
                    or (account is not None and account in table.accounts) \
                    or (mine is not None and table.clash(mine) is not None):
                continue
            take = functools.partial(_take_any, name=options.name, token=token,
                                     account=account, holder=holder, bot=bot, sources=mine)
            try:
                return await self._change(table.id, take, holder=holder)
            except (OnlineConflict, OnlineNotFound):
                continue  # filled or gone meanwhile: the next one
        return None

    async def start(self, table_id: str, check: Callable[[OpenTable], None]
                    ) -> OpenTable:
        """Mark the table started (after ``check`` lets it); not announced until the
        caller opened the game and calls :meth:`announce`."""
        def begin(table: OpenTable) -> None:
            check(table)
            table.begin(self.now())

        table, _ = await self._change(table_id, begin, announce=False)
        return table

    async def opened(self, table_id: str) -> OpenTable | None:
        """The started table's game is open: its start can no longer be undone, so its
        seats stop counting toward the cap on seats per person. The table, or None if it
        is gone already (its game over)."""
        def mark(table: OpenTable) -> None:
            table.opened = True

        try:
            table, _ = await self._change(table_id, mark, announce=False)
        except OnlineNotFound:
            return None
        return table

    async def unstart(self, table_id: str) -> None:
        """Undo :meth:`start` (the game could not be opened)."""
        def undo(table: OpenTable) -> None:
            table.started, table.started_at, table.opened = False, None, False

        await self._change(table_id, undo)

    async def finished(self, table_id: str) -> None:
        """The game ended: off the list of games to watch."""
        for _ in range(RETRIES):
            row = await self.store.get(table_id)
            if row is None:
                return
            if await self.store.delete(table_id, row.version):
                await self._announce(None, table_id, "finished")
                return

    async def add_started_soon(self, table: OpenTable) -> None:
        """Keep ``table``, its people seated already (a rematch's), unannounced: its caller
        starts it at once (:meth:`start`), and the start is what the lobbies are told."""
        await self.store.add(_row(table, self.now()))

    async def drop(self, table_id: str) -> None:
        """Forget a table whose start failed (a rematch's: nobody waits at it)."""
        for _ in range(RETRIES):
            row = await self.store.get(table_id)
            if row is None:
                return
            if await self.store.delete(table_id, row.version):
                await self._announce(None, table_id, "expired")
                return

    async def leave(self, table_id: str, token: Any) -> tuple[OpenTable, int]:
        """Give up the seat ``token`` holds before the start; the table (a quick table
        left empty is gone) and the seat."""
        return await self._change(table_id, lambda t: t.give_up(token))

    async def cancel(self, table_id: str, token: Any) -> OpenTable:
        """The creator cancels the table before the start."""
        table, _ = await self._change(table_id, lambda t: t.cancel_by(token))
        return table

    async def agree(self, table_id: str, token: Any) -> tuple[OpenTable, int]:
        """The person at ``token``'s seat agrees to fill free seats with computers."""
        return await self._change(table_id, lambda t: t.agree_to_fill(token))


def _take_any(table: OpenTable, name: str, token: str, account: int | None,
              holder: str, bot: BotSeat | None = None, sources: list[str] | None = None
              ) -> int:
    free = table.free_seats()
    if not free:
        raise OnlineConflict("the table is full")
    table.take_seat(free[0], name, token, account, holder, bot, sources)
    return free[0]


def _row(table: OpenTable, now: float) -> OpenTableRow:
    return OpenTableRow(id=table.id, status=table.status(), quick=table.quick,
                        match_key=table.match_key(), seated=table.seated(),
                        created_at=table.created_at, updated_at=now, version=table.version,
                        data=table.to_stored())


def _table(row: OpenTableRow) -> OpenTable:
    table = OpenTable.from_stored(row.data)
    table.version = row.version
    return table
