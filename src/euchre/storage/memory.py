"""A :class:`GameStore` in a dict: for tests and for running without a database."""

from __future__ import annotations

import copy

from .base import PLAYING, GameStore, StoredGame


class MemoryStore(GameStore):
    """Games kept in memory (deep-copied in and out, like a real database)."""

    def __init__(self) -> None:
        """An empty store."""
        self._games: dict[str, StoredGame] = {}

    async def save(self, game: StoredGame) -> None:
        """Insert or replace."""
        self._games[game.id] = copy.deepcopy(game)

    async def get(self, game_id: str) -> StoredGame | None:
        """The game, or None."""
        game = self._games.get(game_id)
        return copy.deepcopy(game) if game is not None else None

    async def unfinished(self) -> list[StoredGame]:
        """Games in progress, oldest first."""
        games = [g for g in self._games.values() if g.status == PLAYING]
        return copy.deepcopy(sorted(games, key=lambda g: g.created_at))

    async def close(self) -> None:
        """Nothing to release."""

    async def recent(self, limit: int = 50, status: str | None = None) -> list[StoredGame]:
        """Newest first."""
        games = [g for g in self._games.values() if status is None or g.status == status]
        games.sort(key=lambda g: g.updated_at, reverse=True)
        return copy.deepcopy(games[:limit])
