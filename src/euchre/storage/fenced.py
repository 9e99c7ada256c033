"""A store seen through one owner's fence: every save carries it, and loading the
unfinished games claims them first.

A process that holds a lease wraps the site's store in a :class:`FencedStore` with the
lease's fencing number. Its saves are then refused (:class:`StaleFenceError`) once a newer
owner has claimed the games, and the newer owner claims every unfinished game before it
resumes it, so anything the old owner writes after that is refused.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from .base import GameStore, StaleFenceError, StoredGame

log = logging.getLogger(__name__)


class FencedStore(GameStore):
    """``inner`` with every save stamped with ``fence``."""

    def __init__(self, inner: GameStore, fence: int) -> None:
        """The games of ``inner``, written as the owner holding ``fence``."""
        self.inner = inner
        """The store underneath."""
        self.fence = fence
        """The owner's fencing number."""

    @property
    def engine(self) -> Any:
        """The SQL engine of the store underneath (None in memory)."""
        return getattr(self.inner, "engine", None)

    async def ping(self) -> None:
        """Reach the store underneath (raises if it cannot be reached)."""
        await self.inner.ping()

    async def save(self, game: StoredGame) -> None:
        """Save with this owner's fence (refused if a newer owner claimed the game)."""
        await self.inner.save(dataclasses.replace(game, fence=self.fence))

    async def claim(self, game_id: str, fence: int) -> StoredGame | None:
        """Claim on the store underneath."""
        return await self.inner.claim(game_id, fence)

    async def max_fence(self) -> int:
        """The highest fence stored."""
        return await self.inner.max_fence()

    async def get(self, game_id: str) -> StoredGame | None:
        """The game as stored."""
        return await self.inner.get(game_id)

    async def unfinished(self) -> list[StoredGame]:
        """Every game in progress, each claimed with this owner's fence first (a game a
        newer owner claimed already is left out)."""
        claimed = []
        for game in await self.inner.unfinished():
            try:
                fresh = await self.inner.claim(game.id, self.fence)
            except StaleFenceError as e:
                log.warning("not resuming %s: %s", game.id, e)
                continue
            if fresh is not None:
                claimed.append(fresh)
        return claimed

    async def unfinished_ids(self) -> list[tuple[str, str, float]]:
        """(id, kind, updated_at) of the games in progress (nothing claimed)."""
        return await self.inner.unfinished_ids()

    async def recent(self, limit: int = 50, status: str | None = None) -> list[StoredGame]:
        """The most recently updated games."""
        return await self.inner.recent(limit, status)

    async def close(self) -> None:
        """Close the store underneath."""
        await self.inner.close()
