"""A registry of open online tables in one process's memory, for tests that drive a table by
hand: the same rules as the server's :class:`euchre.table.kinds.lobby.Lobby` (they are methods of
:class:`~euchre.table.kinds.online.OpenTable`), kept in a dict with an injected clock instead of a
store."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from euchre.table.actor.seats import hash_token, new_table_id, new_token
from euchre.table.kinds.online import (
    ALONE_FOR,
    GUEST_REFUSED,
    GUEST_STAKE_REFUSED,
    MAX_OPEN,
    OPEN_FOR,
    PAGE_SIZE,
    OnlineConflict,
    OnlineForbidden,
    OnlineNotFound,
    OnlineOptions,
    OpenTable,
    check_creator,
    page_of,
)


class MemoryOnlineTables:
    """The open online tables of one server, in memory; ``now`` is injected."""

    def __init__(self, now: Callable[[], float] = time.monotonic, open_for: float = OPEN_FOR,
                 limit: int = MAX_OPEN, alone_for: float = ALONE_FOR) -> None:
        """No tables yet."""
        self.now = now
        """The clock that ages open tables."""
        self.open_for = open_for
        """Seconds a table stays open."""
        self.alone_for = min(alone_for, open_for)
        """Seconds a table stays open while only its creator has a seat."""
        self.limit = limit
        """Open tables kept at once."""
        self._tables: dict[str, OpenTable] = {}

    def sweep(self) -> None:
        """Forget tables older than :attr:`open_for` (started ones too, after as long), and
        tables nobody joined older than :attr:`alone_for`."""
        now = self.now()
        for table_id in [i for i, t in self._tables.items() if t.created_at < now - (
                self.alone_for if t.is_alone() and t.waiting() else self.open_for)]:
            del self._tables[table_id]

    def expires_at(self, table: OpenTable) -> float:
        """When ``table`` will be forgotten if nothing changes (the registry's clock)."""
        alone = table.is_alone() and table.waiting()
        return table.created_at + (self.alone_for if alone else self.open_for)

    def open_by(self, creator: str) -> list[OpenTable]:
        """The tables ``creator`` opened that are waiting for their start."""
        self.sweep()
        return [t for t in self._tables.values()
                if t.creator == creator and not t.started and not t.cancelled]

    def create(self, options: OnlineOptions, table_id: str | None = None,
               token: str | None = None, creator: str = "", account: int | None = None
               ) -> tuple[OpenTable, str]:
        """Open a table with the creator South (``account`` if signed in); returns it and
        the creator's token. A guest may not open a rated table."""
        if options.rated and account is None:
            raise OnlineForbidden(GUEST_REFUSED)
        if options.stake and account is None:
            raise OnlineForbidden(GUEST_STAKE_REFUSED)
        self.sweep()
        if sum(t.waiting() for t in self._tables.values()) >= self.limit:
            raise OnlineConflict("too many online tables are waiting to start: try again later")
        token = token or new_token()
        people: list[tuple[str, str] | None] = [(options.name, hash_token(token)), None, None,
                                                None]
        table = OpenTable(table_id or new_table_id(), options, self.now(), people,
                          creator=creator, accounts=[account, None, None, None])
        self._tables[table.id] = table
        return table, token

    def get(self, table_id: str) -> OpenTable:
        """The table with that id, or :class:`OnlineNotFound`."""
        self.sweep()
        table = self._tables.get(table_id)
        if table is None:
            raise OnlineNotFound(f"no open online table {table_id!r}")
        return table

    def open_tables(self) -> list[OpenTable]:
        """Tables waiting for their start, newest first (never a private one)."""
        self.sweep()
        waiting = [t for t in self._tables.values() if t.waiting() and not t.options.private]
        return sorted(waiting, key=lambda t: (t.created_at, t.id), reverse=True)

    def page(self, limit: int = PAGE_SIZE, cursor: str | None = None
             ) -> tuple[list[OpenTable], str | None]:
        """One page of :meth:`open_tables` after ``cursor`` (from the page before), and the
        cursor of the next page (None on the last). A table opened or gone between pages
        moves nothing: the cursor names a place in the order, not a position."""
        return page_of(self.open_tables(), limit, cursor)

    def claim(self, table_id: str, seat: int, name: str, token: str | None = None,
              account: int | None = None) -> str:
        """Take a free seat (as ``account`` if signed in); returns its token (409 if taken
        or started; at a rated table 403 for a guest, 409 for a second seat)."""
        table = self.get(table_id)
        token = token or new_token()
        table.take_seat(seat, name, token, account)
        table.version += 1
        return token

    def start(self, table_id: str, token: Any) -> OpenTable:
        """Mark the table started (the creator's token only); the caller opens it."""
        table = self.get(table_id)
        check_creator(table, token)
        table.begin(self.now())
        table.version += 1
        return table

    def leave(self, table_id: str, token: Any) -> int:
        """Give up a claimed seat before the start (that seat's token); returns the seat.
        The creator cancels the table instead; after the start leaving is another matter."""
        table = self.get(table_id)
        seat = table.give_up(token)
        table.version += 1
        return seat

    def cancel(self, table_id: str, token: Any) -> OpenTable:
        """Cancel the table before its start (the creator's token only): it leaves the list,
        and whoever asks about it is told it was cancelled until it is forgotten."""
        table = self.get(table_id)
        table.cancel_by(token)
        table.version += 1
        return table

    def unstart(self, table_id: str) -> None:
        """Undo :meth:`start` (the table could not be opened)."""
        table = self._tables.get(table_id)
        if table is not None:
            table.started = False
            table.started_at = None
