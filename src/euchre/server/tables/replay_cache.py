"""The replays of finished games, built once and kept (a finished game never changes).

Building a replay replays the whole game and draws every position open-handed: about 7 ms
of the event loop's time a read, against 0.4 ms for ``/healthz``. Kept encoded, a repeat
costs a dictionary look-up; readers of a replay being built wait for that one build (24
at once build it once). The cache holds at most :data:`BUDGET` bytes, least recently read
first out; each process keeps its own (what it holds is derived from the stored record).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable

BUDGET = 32 * 1024 * 1024
"""Bytes of encoded replays kept per process."""


class ReplayCache:
    """Encoded replays by game id, least recently read dropped first past the budget."""

    def __init__(self, budget: int = BUDGET) -> None:
        """A cache of at most ``budget`` bytes."""
        self.budget = budget
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._building: dict[str, asyncio.Future[bytes]] = {}
        self.builds = 0
        """Replays built so far (a test and the metrics read it)."""

    def __len__(self) -> int:
        """Replays kept."""
        return len(self._kept)

    async def get(self, game_id: str, build: Callable[[], Awaitable[bytes]]) -> bytes:
        """The replay of the finished game ``game_id``: kept, being built, or built now by
        ``build`` (whose refusal reaches every reader waiting for it, and is not kept)."""
        kept = self._kept.get(game_id)
        if kept is not None:
            self._kept.move_to_end(game_id)
            return kept
        pending = self._building.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._building[game_id] = future
        try:
            body = await build()
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # read here: nobody else may be waiting
            raise
        finally:
            del self._building[game_id]
        self.builds += 1
        future.set_result(body)
        self._keep(game_id, body)
        return body

    def _keep(self, game_id: str, body: bytes) -> None:
        if len(body) > self.budget:
            return
        self._kept[game_id] = body
        self._size += len(body)
        while self._size > self.budget:
            _, dropped = self._kept.popitem(last=False)
            self._size -= len(dropped)
