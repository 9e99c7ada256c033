"""A :class:`GameStore` in a dict: for tests and for running without a database."""

from __future__ import annotations

import json
from dataclasses import replace

from .base import PLAYING, GameStore, StaleFenceError, StoredGame
from .journal import fold_lines

_Item = tuple[StoredGame, str, str, tuple[str, ...]]
"""A game as kept: its fields, its meta and record base as JSON text, its journal lines."""


def _freeze(game: StoredGame, before: _Item | None) -> _Item:
    fields = replace(game, record_text=None, record={}, meta_text=None, journal=None)
    meta = game.meta_text or json.dumps(game.meta)
    if game.journal is None:
        return fields, meta, game.record_text or json.dumps(game.record), ()
    if before is None:
        raise LookupError(f"no stored game {game.id} to add record lines to")
    kept = before[3][:game.journal.start]
    if len(kept) < game.journal.start:
        raise ValueError(f"game {game.id}: journal lines from {len(kept)} are missing")
    return fields, meta, before[2], kept + game.journal.lines


def _thaw(item: _Item) -> StoredGame:
    game, meta, base, lines = item
    return replace(game, meta=json.loads(meta), record=fold_lines(json.loads(base), lines))


class MemoryStore(GameStore):
    """Games kept in memory; the JSON parts are kept encoded, so what is read back is a
    fresh copy, as from a real database."""

    def __init__(self) -> None:
        """An empty store."""
        self._games: dict[str, _Item] = {}

    async def save(self, game: StoredGame) -> None:
        """Insert or replace (or append the journal's lines), unless the stored fence is
        higher."""
        self._check_fence(game.id, game.fence)
        self._games[game.id] = _freeze(game, self._games.get(game.id))

    async def claim(self, game_id: str, fence: int) -> StoredGame | None:
        """Raise the stored fence to ``fence``; the game as stored, or None."""
        item = self._games.get(game_id)
        if item is None:
            return None
        self._check_fence(game_id, fence)
        game, meta, base, lines = item
        self._games[game_id] = (replace(game, fence=fence), meta, base, lines)
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

    async def fence_of(self, game_id: str) -> int | None:
        """The game's fence, or None."""
        item = self._games.get(game_id)
        return item[0].fence if item is not None else None

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
