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

from .base import GameStore, StaleFenceError, StoredGame
from .passthrough import PassThroughStore

log = logging.getLogger(__name__)


class FencedStore(PassThroughStore):
    """``inner`` with every save stamped with ``fence``."""

    def __init__(self, inner: GameStore, fence: int) -> None:
        """The games of ``inner``, written as the owner holding ``fence``."""
        super().__init__(inner)
        self.fence = fence
        """The owner's fencing number."""

    async def save(self, game: StoredGame) -> None:
        """Save with this owner's fence (refused if a newer owner claimed the game)."""
        await self.inner.save(dataclasses.replace(game, fence=self.fence))

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
