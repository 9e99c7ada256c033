"""Where games are kept: a small :class:`GameStore` interface with memory and SQL backends."""

from __future__ import annotations

from .base import FINISHED, PLAYING, GameStore, StaleFenceError, StoredGame
from .memory import MemoryStore

__all__ = ["FINISHED", "PLAYING", "GameStore", "MemoryStore", "StaleFenceError", "StoredGame",
           "open_store"]


async def open_store(url: str | None, *, upgrade: bool = True) -> GameStore:
    """A store for a database URL (``memory:`` or None for memory; else SQL, its migrations
    run first unless ``upgrade`` is False)."""
    if url is None or url in ("memory", "memory:"):
        return MemoryStore()
    from .sql import SqlStore

    return await SqlStore.open(url, run_migrations=upgrade)
