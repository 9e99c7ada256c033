"""A store over another store: every call goes to the store underneath.

The base of the stores that change one or two things about writing (:class:`FencedStore`
stamps saves with a fence; the table owners' leased store takes a table's lease for a
save): they override those and inherit every other call unchanged.
"""

from __future__ import annotations

from typing import Any

from .base import GameStore, StoredGame


class PassThroughStore(GameStore):
    """``inner``, every call handed on to it as it is."""

    def __init__(self, inner: GameStore) -> None:
        """The games of ``inner``."""
        self.inner = inner
        """The store underneath."""

    @property
    def engine(self) -> Any:
        """The SQL engine of the store underneath (None in memory)."""
        return getattr(self.inner, "engine", None)

    async def ping(self) -> None:
        """Reach the store underneath (raises if it cannot be reached)."""
        await self.inner.ping()

    async def save(self, game: StoredGame) -> None:
        """Save on the store underneath."""
        await self.inner.save(game)

    async def claim(self, game_id: str, fence: int) -> StoredGame | None:
        """Claim on the store underneath."""
        return await self.inner.claim(game_id, fence)

    async def max_fence(self) -> int:
        """The highest fence stored."""
        return await self.inner.max_fence()

    async def get(self, game_id: str) -> StoredGame | None:
        """The game as stored."""
        return await self.inner.get(game_id)

    async def fence_of(self, game_id: str) -> int | None:
        """The game's fence as stored."""
        return await self.inner.fence_of(game_id)

    async def unfinished(self) -> list[StoredGame]:
        """Every game in progress, as stored."""
        return await self.inner.unfinished()

    async def unfinished_ids(self) -> list[tuple[str, str, float]]:
        """(id, kind, updated_at) of the games in progress."""
        return await self.inner.unfinished_ids()

    async def recent(self, limit: int = 50, status: str | None = None) -> list[StoredGame]:
        """The most recently updated games."""
        return await self.inner.recent(limit, status)

    async def close(self) -> None:
        """Close the store underneath."""
        await self.inner.close()
