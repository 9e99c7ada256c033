"""A :class:`GameStore` in a dict: for tests and for running without a database."""

from __future__ import annotations

import json
from dataclasses import replace

from .base import PLAYING, GameStore, StaleFenceError, StoredGame


def _freeze(game: StoredGame) -> tuple[StoredGame, str, str]:
    record = game.record_text or json.dumps(game.record)
    return replace(game, record_text=None), json.dumps(game.meta), record


def _thaw(item: tuple[StoredGame, str, str]) -> StoredGame:
    game, meta, record = item
    return replace(game, meta=json.loads(meta), record=json.loads(record))


class MemoryStore(GameStore):
    """Games kept in memory; the JSON parts are kept encoded, so what is read back is a
    fresh copy, as from a real database."""

    def __init__(self) -> None:
        """An empty store."""
        self._games: dict[str, tuple[StoredGame, str, str]] = {}

    async def save(self, game: StoredGame) -> None:
        """Insert or replace, unless the stored fence is higher."""
        self._check_fence(game.id, game.fence)
        self._games[game.id] = _freeze(game)

    async def claim(self, game_id: str, fence: int) -> StoredGame | None:
        """Raise the stored fence to ``fence``; the game as stored, or None."""
        item = self._games.get(game_id)
        if item is None:
            return None
        self._check_fence(game_id, fence)
        game, meta, record = item
        self._games[game_id] = (replace(game, fence=fence), meta, record)
        return _thaw(self._games[game_id])

    async def max_fence(self) -> int:
        """The highest fence stored (0 if none)."""
        return max((item[0].fence for item in self._games.values()), default=0)

    def _check_fence(self, game_id: str, fence: int) -> None:
        item = self._games.get(game_id)
        if item is not None and item[0].fence > fence:
            raise StaleFenceError(game_id, fence, item[0].fence)

    async def get(self, game_id: str) -> StoredGame | None:
        """The game, or None."""
        item = self._games.get(game_id)
        return _thaw(item) if item is not None else None

    async def unfinished(self) -> list[StoredGame]:
        """Games in progress, oldest first."""
        items = [i for i in self._games.values() if i[0].status == PLAYING]
        return [_thaw(i) for i in sorted(items, key=lambda i: i[0].created_at)]

    async def close(self) -> None:
        """Nothing to release."""

    async def recent(self, limit: int = 50, status: str | None = None) -> list[StoredGame]:
        """Newest first."""
        items = [i for i in self._games.values() if status is None or i[0].status == status]
        items.sort(key=lambda i: i[0].updated_at, reverse=True)
        return [_thaw(i) for i in items[:limit]]
