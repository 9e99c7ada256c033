"""The tables a server is running: open, find (loading from storage), resume, close."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from ..game import GameState
from ..shuffle import new_seed
from ..storage.base import GameStore, StoredGame
from .actor import HISTORY_LIMIT, BotFactory, TableActor, restore
from .kinds import PRACTICE_KIND, TableKind, TableObserver
from .pacing import Pacing, Scheduler, pacing_for_speed
from .retire import ABANDONED, RETIRE_AFTER, Retirement, is_waiting_kind
from .seats import TableConfig

log = logging.getLogger(__name__)

OpenHook = Callable[[TableConfig], Awaitable[None]]
"""Called with a new table's settings before it is first saved (e.g. note who sits where);
if it raises, the table is not opened."""

class TableManager:
    """Every live table actor, by id; tables not in memory are loaded from storage."""

    def __init__(
        self,
        store: GameStore,
        scheduler: Scheduler,
        pacing: Pacing | None = None,
        *,
        bot_factory: BotFactory | None = None,
        seed_source: Callable[[], str] = new_seed,
        history_limit: int = HISTORY_LIMIT,
        observer: TableObserver | None = None,
        retire_after: float = RETIRE_AFTER,
    ) -> None:
        """A manager with no tables yet."""
        self.store = store
        """Where games are saved."""
        self.scheduler = scheduler
        """The clock every table uses."""
        self.pacing = pacing or Pacing()
        """Bot delay and pauses for every table."""
        self.kinds: dict[str, TableKind] = {PRACTICE_KIND.name: PRACTICE_KIND}
        """The kinds of table this server runs (a stored table of another kind is run
        with no hints and no clock)."""
        self.observer = observer or TableObserver()
        """Told what every table does (the server's metrics)."""
        self.open_hooks: list[OpenHook] = []
        """Hooks called by :meth:`open` for every new table, before it is saved."""
        self.guard: Callable[[], bool] | None = None
        """Every table handles input only while this says True (the site's lease)."""
        self._bot_factory = bot_factory
        self._seed_source = seed_source
        self._history_limit = history_limit
        self._tables: dict[str, TableActor] = {}
        self._load_lock = asyncio.Lock()
        self.retirement = Retirement(store, retire_after)
        """Practice tables only in storage, and retiring the abandoned (``retire.py``)."""

    def __len__(self) -> int:
        """How many tables are in memory."""
        return len(self._tables)

    def register(self, kind: TableKind) -> None:
        """Run tables of ``kind`` with its clock, hints and finish hooks."""
        self.kinds[kind.name] = kind

    def count_by_kind(self) -> dict[str, int]:
        """Tables in memory, by kind."""
        counts: dict[str, int] = {}
        for actor in self._tables.values():
            counts[actor.config.kind] = counts.get(actor.config.kind, 0) + 1
        return counts

    def _actor_kwargs(self, config: TableConfig) -> dict[str, Any]:
        kind = self.kinds.get(config.kind) or TableKind(config.kind)
        return {
            "scheduler": self.scheduler,
            "pacing": pacing_for_speed(self.pacing, config.extra.get("speed")),
            "store": self.store,
            "policy": kind.policy(config),
            "bot_factory": self._bot_factory,
            "seed_source": self._seed_source,
            "on_finish": kind.finish,
            "history_limit": self._history_limit,
            "kind": kind,
            "observer": self.observer,
            "guard": self.guard,
        }

    async def open(self, config: TableConfig, game: GameState | None = None,
                   seeds: Sequence[str] = ()) -> TableActor:
        """Start a new table (saved at once; the first hand is dealt straight away, unless
        ``game`` is given already dealt, with ``seeds`` for its hands: "" for a set deal)."""
        for hook in self.open_hooks:
            await hook(config)
        actor = TableActor(config, game=game, seeds=seeds, **self._actor_kwargs(config))
        self._tables[config.id] = actor
        await self.store.save(actor.stored())
        actor.start()
        return actor

    def peek(self, table_id: str) -> TableActor | None:
        """The table if it is in memory (no loading), or None."""
        return self._tables.get(table_id)

    async def get(self, table_id: str) -> TableActor | None:
        """The table with this id (loaded from storage if needed), or None."""
        actor = self._tables.get(table_id)
        if actor is not None:
            return actor
        async with self._load_lock:
            actor = self._tables.get(table_id)
            if actor is not None:
                return actor
            stored = await self.store.get(table_id)
            if stored is None or "config" not in stored.meta:
                return None
            return self._resume(stored)

    async def resume_unfinished(self) -> list[str]:
        """Load and start every unfinished game in storage that runs by itself; returns
        their ids. Practice tables wait in storage until asked for (retired if abandoned)."""
        ids = []
        for stored in await self.retirement.sort(await self.store.unfinished()):
            if stored.id in self._tables:
                continue
            try:
                self._resume(stored)
            except Exception:
                log.exception("cannot resume table %s", stored.id)
                continue
            ids.append(stored.id)
        return ids

    def _resume(self, stored: StoredGame) -> TableActor:
        """Rebuild a stored table, keep it in memory and start it."""
        config = TableConfig.from_json(stored.meta["config"])
        actor = restore(stored, **self._actor_kwargs(config))
        self._tables[stored.id] = actor
        self.retirement.loaded(stored.id)
        actor.start()
        return actor

    async def sweep(self, idle_after: float = 600.0) -> list[str]:
        """Drop idle tables from memory (they stay in storage and reload on demand), and
        retire abandoned practice tables (in memory or not); returns the ids dropped."""
        now = self.scheduler.now()
        idle = [i for i, a in self._tables.items() if a.is_idle(now, idle_after)]
        retirement = self.retirement
        for table_id in idle:
            actor = self._tables[table_id]
            waiting = is_waiting_kind(actor.config.kind) and not actor.finished
            last_active = retirement.now() - (now - actor.last_active)
            if waiting and actor.is_idle(now, retirement.retire_after):
                await actor.close(ABANDONED)
                waiting = False
            await self.forget(table_id)
            if waiting:
                retirement.keep(table_id, last_active)
        async with self._load_lock:  # a table being loaded meanwhile is not retired
            await retirement.retire_due(lambda table_id: table_id in self._tables)
        return idle

    async def forget(self, table_id: str) -> None:
        """Stop a table and drop it from memory (it stays in storage)."""
        actor = self._tables.pop(table_id, None)
        if actor is not None:
            await actor.stop()

    async def close(self) -> None:
        """Stop every table."""
        for table_id in list(self._tables):
            await self.forget(table_id)
