"""Practice tables wait in storage until asked for, and are retired once abandoned.

A practice table runs only while its person plays: with nobody there it waits for ever.
So at start-up practice tables are not resumed (each is loaded when its page or socket
asks for it), and one that nobody has played or watched for :data:`RETIRE_AFTER` seconds
is *retired*: stored as finished, closed with the reason ``abandoned``, never resumed.
Coin and online tables are never retired: their clocks play them to the end.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import replace

from ...storage.base import FINISHED, PLAYING, GameStore, StoredGame
from ..actor.kind import PRACTICE

log = logging.getLogger(__name__)

RETIRE_AFTER = 3600.0
"""Seconds a practice table may sit with nobody connected and no move before it is retired."""

ABANDONED = "abandoned"
"""The ``closed`` reason of a retired table."""

WAITING_KINDS = frozenset({PRACTICE})
"""Kinds of table that only move when their person does: loaded on demand, retired when
abandoned."""


def is_waiting_kind(kind: str) -> bool:
    """Whether tables of ``kind`` wait for their person (see :data:`WAITING_KINDS`)."""
    return kind in WAITING_KINDS


def retired(stored: StoredGame, now: float) -> StoredGame:
    """The stored table marked finished, closed as abandoned."""
    return replace(stored, status=FINISHED, meta={**stored.meta, "closed": ABANDONED},
                   updated_at=now, record_text=None)


class Retirement:
    """The practice tables left in storage (not in memory), and retiring the abandoned."""

    def __init__(self, store: GameStore, retire_after: float = RETIRE_AFTER,
                 now: Callable[[], float] = time.time) -> None:
        """Nothing dormant yet; ``now`` is wall-clock time (as stored games carry)."""
        self.store = store
        """Where the tables are."""
        self.retire_after = retire_after
        """Seconds of abandonment before a table is retired."""
        self.now = now
        """The wall clock."""
        self.dormant: dict[str, float] = {}
        """Table id -> when it was last active (wall clock), for tables only in storage."""

    def keep(self, table_id: str, last_active: float) -> None:
        """Remember a waiting table that is only in storage now."""
        self.dormant[table_id] = last_active

    def loaded(self, table_id: str) -> None:
        """The table is in memory again."""
        self.dormant.pop(table_id, None)

    def is_due(self, last_active: float) -> bool:
        """Whether a table last active then is abandoned now."""
        return self.now() - last_active >= self.retire_after

    async def sort(self, unfinished: Iterable[StoredGame]) -> list[StoredGame]:
        """Of the unfinished games at start-up, those to resume now; waiting tables are
        kept dormant, or retired if abandoned."""
        resume = []
        for stored in unfinished:
            if not is_waiting_kind(stored.kind):
                resume.append(stored)
            elif self.is_due(stored.updated_at):
                await self.retire(stored)
            else:
                self.keep(stored.id, stored.updated_at)
        return resume

    async def retire(self, stored: StoredGame) -> None:
        """Store the table as finished and abandoned."""
        self.dormant.pop(stored.id, None)
        await self.store.save(retired(stored, self.now()))

    async def retire_due(self, in_memory: Callable[[str], bool]) -> list[str]:
        """Retire every dormant table now abandoned (not those loaded meanwhile)."""
        done = []
        for table_id, last_active in list(self.dormant.items()):
            if not self.is_due(last_active):
                continue
            self.dormant.pop(table_id, None)
            if in_memory(table_id):
                continue
            stored = await self.store.get(table_id)
            if stored is None or stored.status != PLAYING or not self.is_due(stored.updated_at):
                continue
            try:
                await self.retire(stored)
            except Exception:
                log.exception("could not retire table %s", table_id)
                continue
            done.append(table_id)
        return done
