"""Open online tables as stored: a row per table, changed only over the version last read.

An open table (before its start) is one :class:`OpenTableRow`: the table as JSON data plus
the few columns the lobby searches on. Every change is *optimistic*: the caller reads a row,
changes its copy, and :meth:`OpenTableStore.replace` writes it only if the stored version is
still the one it read (a conditional ``UPDATE ... WHERE version = ?`` in SQL). Two processes
claiming the same seat at once both read version 4; one write lands (version 5), the other
finds no row at version 4, reads again and sees the seat taken. So no seat is given twice
and no change is lost, whichever process serves which request.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

OPEN = "open"
"""Status of a table waiting for its start."""
STARTED = "started"
"""Status of a table whose game has started."""
CANCELLED = "cancelled"
"""Status of a table its creator cancelled."""


class MatchTaken(Exception):
    """Another waiting quick-play table with a free seat has the same match key: at most one
    may (a unique index in SQL), so two processes never open two for the same people."""


@dataclass(frozen=True)
class OpenTableRow:
    """One open online table as stored."""

    id: str
    """The table id."""
    status: str
    """``open``, ``started`` or ``cancelled``."""
    quick: bool
    """Whether ``Play now`` may seat people here."""
    match_key: str
    """What ``Play now`` matches on (preset, clock, stake, rated)."""
    seated: int
    """People seated (0 to 4)."""
    created_at: float
    """When it was opened (seconds since the epoch)."""
    updated_at: float
    """When it last changed (seconds since the epoch)."""
    version: int
    """Raised by one at every change."""
    data: dict[str, Any]
    """The whole table (token hashes included: private)."""

    def holds_match(self) -> bool:
        """Whether it is the one waiting quick table with a free seat for its match key."""
        return self.status == OPEN and self.quick and self.seated < 4


@dataclass(frozen=True)
class SeatCheck:
    """A check made in the same transaction as the write that seats a person, holding
    that person's lock (PostgreSQL: an advisory lock on ``person``; SQLite: the write
    lock, ``BEGIN IMMEDIATE``), so requests sent at once, from any process, each see the
    seats the others took: a cap on seats per person that no race can pass."""

    person: str
    """Whose seats (``account:N`` or ``ip:A``): the lock's key."""
    since: float
    """Started tables changed since then are read too (a start not yet opened may be
    undone, giving its seats back)."""
    check: Callable[[list[OpenTableRow]], None]
    """Given the waiting tables and the recently started ones as stored (the one being
    written among them as it was), raises to refuse the write."""


class OpenTableStore(ABC):
    """Where open online tables are kept; every method is safe from the event loop."""

    @abstractmethod
    async def add(self, row: OpenTableRow, check: SeatCheck | None = None) -> None:
        """Store a new table (its id is new); :class:`MatchTaken` if it would be a second
        waiting quick table with a free seat for its match key; ``check`` refuses it (see
        :class:`SeatCheck`)."""

    @abstractmethod
    async def get(self, table_id: str) -> OpenTableRow | None:
        """The table, or None."""

    @abstractmethod
    async def replace(self, row: OpenTableRow, version: int,
                      check: SeatCheck | None = None) -> bool:
        """Write ``row`` if the stored one is still at ``version``; whether it was written
        (:class:`MatchTaken` and ``check`` as for :meth:`add`)."""

    @abstractmethod
    async def delete(self, table_id: str, version: int) -> bool:
        """Remove the table if the stored one is still at ``version``; whether it was."""

    @abstractmethod
    async def with_status(self, status: str, limit: int = 1000) -> list[OpenTableRow]:
        """Tables of one status, oldest first (at most ``limit``)."""

    @abstractmethod
    async def sweep(self, open_before: float, alone_before: float,
                    started_before: float) -> int:
        """Remove tables opened before ``open_before`` (waiting or cancelled), waiting ones
        with at most one person opened before ``alone_before``, and started ones that
        changed last before ``started_before``; how many went."""

    async def close(self) -> None:  # noqa: B027 - a memory store holds nothing
        """Release connections."""


class MemoryOpenTableStore(OpenTableStore):
    """Open tables in this process's memory (copies in and out, as a database would)."""

    def __init__(self) -> None:
        """No tables."""
        self._rows: dict[str, OpenTableRow] = {}

    @staticmethod
    def _copy(row: OpenTableRow) -> OpenTableRow:
        return replace(row, data=copy.deepcopy(row.data))

    async def add(self, row: OpenTableRow, check: SeatCheck | None = None) -> None:
        """Keep a copy (no await between the check and the write: atomic here)."""
        if row.id in self._rows:
            raise ValueError(f"open table {row.id} exists")
        self._check_match(row)
        self._check_seats(check)
        self._rows[row.id] = self._copy(row)

    def _check_match(self, row: OpenTableRow) -> None:
        if row.holds_match() and any(
                r.id != row.id and r.match_key == row.match_key and r.holds_match()
                for r in self._rows.values()):
            raise MatchTaken(row.match_key)

    def _check_seats(self, check: SeatCheck | None) -> None:
        if check is not None:
            check.check([self._copy(r) for r in self._rows.values() if _counted(r, check)])

    async def get(self, table_id: str) -> OpenTableRow | None:
        """A copy, or None."""
        row = self._rows.get(table_id)
        return None if row is None else self._copy(row)

    async def replace(self, row: OpenTableRow, version: int,
                      check: SeatCheck | None = None) -> bool:
        """Compare the version and write, with no await in between (atomic here)."""
        stored = self._rows.get(row.id)
        if stored is None or stored.version != version:
            return False
        self._check_match(row)
        self._check_seats(check)
        self._rows[row.id] = self._copy(row)
        return True

    async def delete(self, table_id: str, version: int) -> bool:
        """Compare and remove."""
        stored = self._rows.get(table_id)
        if stored is None or stored.version != version:
            return False
        del self._rows[table_id]
        return True

    async def with_status(self, status: str, limit: int = 1000) -> list[OpenTableRow]:
        """Oldest first."""
        rows = sorted((r for r in self._rows.values() if r.status == status),
                      key=lambda r: (r.created_at, r.id))
        return [self._copy(r) for r in rows[:limit]]

    async def sweep(self, open_before: float, alone_before: float,
                    started_before: float) -> int:
        """Drop what is too old."""
        gone = [r.id for r in self._rows.values() if _expired(r, open_before, alone_before,
                                                               started_before)]
        for table_id in gone:
            del self._rows[table_id]
        return len(gone)


def _expired(row: OpenTableRow, open_before: float, alone_before: float,
             started_before: float) -> bool:
    if row.status == STARTED:
        return row.updated_at < started_before
    if row.created_at < open_before:
        return True
    return row.status == OPEN and row.seated <= 1 and row.created_at < alone_before


def _counted(row: OpenTableRow, check: SeatCheck) -> bool:
    """Whether ``check`` reads ``row``: waiting, or started since ``check.since``."""
    return row.status == OPEN or (row.status == STARTED and row.updated_at >= check.since)
