"""The storage interface for games: a table's settings and its record, saved after every move.

A game is stored as its record (rules, deals, actions, seeds) plus the table's settings;
the state is derived by replaying the record. A save after a move writes only the record's
lines added since the last save (:mod:`.journal`), so a move costs the same late in a game
as early. ``status`` is ``playing`` until the game
ends, so a restarted server can find the tables to resume.

Every game row keeps a fencing number: the fence of the lease its owner held when it last
wrote (0 when one process runs everything). A save carrying a lower fence than the stored
one is refused with :class:`StaleFenceError`, atomically in the database, and a new owner
:meth:`GameStore.claim` s the row before it loads it, so an owner that lost its lease
(paused, partitioned) can never write over the state of the owner after it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from .journal import RecordTail

PLAYING = "playing"
"""Status of a game in progress."""
FINISHED = "finished"
"""Status of a game that has ended."""


@dataclass(slots=True)
class StoredGame:
    """One game as stored (read-only by convention: not frozen, because a table builds one
    for every save and a frozen dataclass's ``__init__`` costs several times a plain one's;
    make changed copies with ``dataclasses.replace``)."""

    id: str
    """The game id (the table id)."""
    kind: str
    """The table kind (``practice``, ``coin`` ...)."""
    status: str
    """``playing`` or ``finished``."""
    version: int
    """The table's event version when saved."""
    meta: dict[str, Any]
    """The table settings and actor state (JSON): seats, token hashes, pending seeds."""
    record: dict[str, Any]
    """The full record so far (:meth:`GameRecord.to_json`), including the hand in progress:
    private; serve it only through :func:`euchre.table.actor.records.public_record`. Not read
    when saving with a :attr:`journal`."""
    created_at: float
    """When the table was made (seconds since the epoch)."""
    updated_at: float
    """When this was saved (seconds since the epoch)."""
    fence: int = 0
    """The fencing number of the owner that saved it (0: one process, no leases)."""
    record_text: str | None = field(default=None, compare=False, repr=False)
    """``record`` already encoded as compact JSON, if the caller has it (saves encoding it
    again); stores read it back into ``record``."""
    meta_text: str | None = field(default=None, compare=False, repr=False)
    """``meta`` already encoded as compact JSON, if the caller has it; stores read it back
    into ``meta``."""
    journal: RecordTail | None = field(default=None, compare=False, repr=False)
    """Saving only: the record's lines added since the last save (the game must be stored
    already; its record is then not written whole, and ``record`` is not read). None: the
    whole record is written (a new base, and no lines after it)."""


class StaleFenceError(Exception):
    """A write by an owner whose fence is older than the stored one: refused, nothing
    changed (a newer owner holds the table)."""

    def __init__(self, game_id: str, fence: int, stored_fence: int) -> None:
        """``fence`` was offered for ``game_id`` whose stored fence is ``stored_fence``."""
        super().__init__(f"table {game_id}: fence {fence} is older than the stored "
                         f"{stored_fence}: another process owns this table now")
        self.game_id = game_id
        """The game written to."""
        self.fence = fence
        """The fence the refused write carried."""
        self.stored_fence = stored_fence
        """The newer fence in storage."""


class GameStore(ABC):
    """Keeps games; every method is safe to call from the event loop."""

    @abstractmethod
    async def save(self, game: StoredGame) -> None:
        """Insert or replace the game with this id, unless the stored fence is higher than
        ``game.fence`` (then raise :class:`StaleFenceError`, and nothing changes). With a
        :attr:`StoredGame.journal`, append those record lines (from its ``start``) to the
        stored game instead of writing the record whole (:class:`LookupError` if there is
        no such game)."""

    @abstractmethod
    async def claim(self, game_id: str, fence: int) -> StoredGame | None:
        """Raise the game's stored fence to ``fence`` and return the game as stored then
        (a new owner's first step, before it resumes the table); None if there is no such
        game; :class:`StaleFenceError` if the stored fence is higher already."""

    @abstractmethod
    async def max_fence(self) -> int:
        """The highest fence stored (0 if none): a floor for the next lease's fence."""

    @abstractmethod
    async def get(self, game_id: str) -> StoredGame | None:
        """The game with this id, or None."""

    async def fence_of(self, game_id: str) -> int | None:
        """The game's fence as :meth:`get` would give it (None: no such game): what a new
        owner's lease must reach, read without its record (stores override it with a query
        that reads no record)."""
        game = await self.get(game_id)
        return None if game is None else game.fence

    @abstractmethod
    async def unfinished(self) -> list[StoredGame]:
        """Every game still in progress (to resume after a restart), oldest first."""

    async def unfinished_ids(self) -> list[tuple[str, str, float]]:
        """(id, kind, updated_at) of every game still in progress, oldest first: what a
        sweeper looks through (stores override it with a query that reads no records)."""
        return [(g.id, g.kind, g.updated_at) for g in await self.unfinished()]

    @abstractmethod
    async def recent(self, limit: int = 50, status: str | None = None) -> list[StoredGame]:
        """The most recently updated games, newest first (optionally of one status)."""

    async def ping(self) -> None:  # noqa: B027 - a store in memory is always reachable
        """Raise if the store cannot be reached now (a memory store always can)."""

    @abstractmethod
    async def close(self) -> None:
        """Release connections."""
