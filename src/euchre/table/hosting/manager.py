"""The tables a server is running: open, find (loading from storage), resume, close.

With :attr:`TableManager.owners` set (a site of many processes), a table runs here only
while this process holds its lease: opening a table takes the new table's lease, loading
one takes its lease (or says which process has it, :class:`Elsewhere`), every actor saves
through its own fenced store and handles input only while its lease is held, and an actor
whose lease is lost is stopped at once. :meth:`TableManager.claim_orphans` takes the tables
whose owner died (the site's sweeper calls it).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from ...game import GameState
from ...shuffle import new_seed
from ...storage.base import PLAYING, GameStore, StoredGame
from ..actor.actor import BotFactory, TableActor, restore
from ..actor.deps import HISTORY_LIMIT, Resumed, TableDeps
from ..actor.errors import NotStored, TableStopped
from ..actor.kind import PRACTICE_KIND, TableKind, TableObserver
from ..actor.pacing import LONGEST_SPEED, Pacing, Scheduler, pacing_for_speed
from ..actor.seats import TableConfig
from .owners import Ownership, TableOwners, TableUnavailable
from .retire import ABANDONED, RETIRE_AFTER, Retirement, is_waiting_kind

log = logging.getLogger(__name__)

OpenHook = Callable[[TableConfig], Awaitable[None]]
"""Called with a new table's settings before it is first saved (e.g. note who sits where);
if it raises, the table is not opened."""

LOST = "this server lost the right to run this table (its lease ran out): reconnect to carry on"
"""Why the subscribers of a table whose lease was lost are released."""

VERSION_JUMP = 1000
"""How far a table's versions jump when a process takes it under a new lease: moves are
stored before they are shown, but a few connection events (a spectator count, a presence
change whose save failed) are shown unsaved, and no client may see a version twice."""

@dataclass(frozen=True)
class Elsewhere:
    """A table another process runs now (what :meth:`TableManager.locate` says; the
    server's door to a table, ``euchre.server.tables.door``, is its one reader)."""

    owner: str
    """The process holding the table's lease."""


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
        owners: TableOwners | None = None,
    ) -> None:
        """A manager with no tables yet; ``owners``: this process's table leases when many
        processes serve the site (``store`` then saves under them)."""
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
        self.owners = owners
        """This process's table leases, when many processes serve the site (None: one
        process runs every table)."""
        self._bot_factory = bot_factory
        self._seed_source = seed_source
        self._history_limit = history_limit
        self._tables: dict[str, TableActor] = {}
        self._load_lock = asyncio.Lock()
        self._loading: dict[str, asyncio.Lock] = {}
        self._opening: dict[str, asyncio.Future[None]] = {}  # done once open() has ended
        self._stopping: set[asyncio.Future[None]] = set()
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

    def pacing_for(self, config: TableConfig, speed: str | None) -> Pacing:
        """The pacing of a table at ``speed``: a table with one person holds each hand's
        result (``pacing.result_hold``) unless that person continues sooner. At a practice
        table the page tells the speed (``pace``); elsewhere (coin) the speed is the page's
        own, so the table holds for the longest and the page's ``continue`` ends it. A table
        with other people pauses at least ``pacing.RESULT_HOLD_LEAST`` after each hand."""
        people = sum(not seat.is_bot() for seat in config.seats)
        hold_speed = None if config.kind == PRACTICE_KIND.name else LONGEST_SPEED
        return pacing_for_speed(self.pacing, speed, hold=people == 1, hold_speed=hold_speed,
                                shared=people > 1)

    def _deps(self, config: TableConfig, own: Ownership | None = None) -> TableDeps:
        """What the table ``config`` runs with here (under ``own``, its lease)."""
        kind = self.kinds.get(config.kind) or TableKind(config.kind)
        return TableDeps(
            scheduler=self.scheduler,
            pacing=self.pacing_for(config, config.extra.get("speed")),
            store=own.store if own is not None else self.store,
            policy=kind.policy(config),
            kind=kind,
            on_finish=kind.finish,
            bot_factory=self._bot_factory,
            seed_source=self._seed_source,
            observer=self.observer,
            history_limit=self._history_limit,
            guard=own.is_held if own is not None else self.guard,
            on_stale=self._stale,
            pace_for=lambda speed: self.pacing_for(config, speed),
        )

    async def open(self, config: TableConfig, game: GameState | None = None,
                   seeds: Sequence[str] = ()) -> TableActor:
        """Start a new table (saved at once; the first hand is dealt straight away, unless
        ``game`` is given already dealt, with ``seeds`` for its hands: "" for a set deal).
        With :attr:`owners`, this process takes the new table's lease first:
        :class:`TableUnavailable` if it cannot (nothing opened)."""
        # Until it runs, whoever asks for the table waits (:meth:`locate`): an actor not
        # started yet refuses a join as if it had stopped (a 1012 close), and an online
        # table is shown started in the lobby before its game is opened here.
        opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._opening[config.id] = opened
        try:
            return await self._open(config, game, seeds)
        finally:
            del self._opening[config.id]
            opened.set_result(None)

    async def _open(self, config: TableConfig, game: GameState | None,
                    seeds: Sequence[str]) -> TableActor:
        own: Ownership | None = None
        if self.owners is not None:
            own = await self.owners.take(config.id, self._lost, new=True)
            if own is None:
                raise TableUnavailable(f"table {config.id} is already run by another server")
        try:
            for hook in self.open_hooks:
                await hook(config)
            actor = TableActor(config, self._deps(config, own), Resumed(game=game, seeds=seeds))
            self._tables[config.id] = actor
            assert actor.store is not None
            await actor.store.save(actor.stored())
        except BaseException:
            self._tables.pop(config.id, None)
            if own is not None and self.owners is not None:
                await self.owners.release(config.id)
            raise
        actor.start()
        return actor

    def peek(self, table_id: str) -> TableActor | None:
        """The table if it is in memory (no loading), or None."""
        return self._tables.get(table_id)

    async def get(self, table_id: str) -> TableActor | None:
        """The table with this id (loaded from storage if needed), or None (no such table,
        or another process runs it)."""
        found = await self.locate(table_id)
        return found if isinstance(found, TableActor) else None

    async def locate(self, table_id: str) -> TableActor | Elsewhere | None:
        """The table here (loaded, and with :attr:`owners` taken, if nobody runs it), the
        process that runs it, or None if there is no such table.
        :class:`TableUnavailable` if ownership cannot be decided now. A table being opened
        here is handed out once it runs (None if its opening failed)."""
        found = await self._locate(table_id)
        opening = self._opening.get(table_id)
        if opening is not None:
            await asyncio.shield(opening)
            return self._tables.get(table_id)
        return found

    async def _locate(self, table_id: str) -> TableActor | Elsewhere | None:
        actor = self._tables.get(table_id)
        if actor is not None:
            return actor
        if self.owners is not None:
            return await self._locate_owned(self.owners, table_id)
        async with self._load_lock:
            actor = self._tables.get(table_id)
            if actor is not None:
                return actor
            stored = await self.store.get(table_id)
            actor = self._tables.get(table_id)  # opened here meanwhile: never a second actor
            if actor is not None:
                return actor
            if stored is None or "config" not in stored.meta:
                return None
            return self._resume(stored)

    async def stored_view(self, table_id: str) -> TableActor | None:
        """The table as last stored, rebuilt but not started and never saved: for reading
        a table another process runs (its snapshot may lag the owner's latest move)."""
        stored = await self.store.get(table_id)
        if stored is None or "config" not in stored.meta:
            return None
        config = TableConfig.from_json(stored.meta["config"])
        return restore(stored, dataclasses.replace(self._deps(config), store=None,
                                                   guard=lambda: False))

    async def _locate_owned(self, owners: TableOwners, table_id: str
                             ) -> TableActor | Elsewhere | None:
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                actor = self._tables.get(table_id)
                if actor is not None:
                    return actor
                for _ in range(3):  # a lease let go between our two looks: look again
                    own = await owners.take(table_id, self._lost)
                    if own is not None:
                        stored = own.stored
                        if stored is None or "config" not in stored.meta:
                            await owners.release(table_id)
                            return None
                        return self._resume(stored, own)
                    holder = await owners.holder(table_id)
                    if holder is not None:
                        return Elsewhere(holder)
                return None
        finally:
            if not lock.locked() and self._loading.get(table_id) is lock:
                del self._loading[table_id]

    def _lost(self, table_id: str, why: str) -> None:
        """The table's lease is lost: stop its actor at once (no more moves or saves that
        count: a new owner's claim refuses them)."""
        actor = self._tables.pop(table_id, None)
        if actor is None:
            return
        log.warning("table %s: lease lost (%s): stopped here", table_id, why)
        stopping = asyncio.ensure_future(actor.stop(LOST))
        self._stopping.add(stopping)
        stopping.add_done_callback(self._stopping.discard)

    def _stale(self, table_id: str) -> None:
        """A newer owner's fence refused the table's save: stop it here, as for a lost
        lease, and give up the lease if this process still holds it."""
        self._lost(table_id, "a newer owner's fence refused its save")
        if self.owners is not None:
            releasing = asyncio.ensure_future(self.owners.release(table_id))
            self._stopping.add(releasing)
            releasing.add_done_callback(self._stopping.discard)

    async def claim_orphans(self) -> list[str]:
        """Take and resume every unfinished table nobody runs (its owner died) that runs by
        itself; returns their ids. Orphaned practice tables wait in storage (kept to be
        retired if abandoned). Does nothing without :attr:`owners`."""
        owners = self.owners
        if owners is None:
            return []
        ids = []
        for table_id, kind, updated_at in await owners.orphans(lambda i: i in self._tables):
            if is_waiting_kind(kind):
                if table_id not in self.retirement.dormant:
                    self.retirement.keep(table_id, updated_at)
                continue
            lock = self._loading.setdefault(table_id, asyncio.Lock())
            try:
                async with lock:
                    if table_id in self._tables:
                        continue
                    own = await owners.take(table_id, self._lost)
                    if own is None:
                        continue  # another process was quicker
                    stored = own.stored
                    if stored is None or stored.status != PLAYING or "config" not in stored.meta:
                        await owners.release(table_id)
                        continue
                    try:
                        self._resume(stored, own)
                    except Exception:
                        log.exception("cannot resume table %s", table_id)
                        await owners.release(table_id)
                        continue
                    ids.append(table_id)
            finally:
                if not lock.locked() and self._loading.get(table_id) is lock:
                    del self._loading[table_id]
        return ids

    async def resume_unfinished(self) -> list[str]:
        """Load and start every unfinished game in storage that runs by itself; returns
        their ids. Practice tables wait in storage until asked for (retired if abandoned).
        With :attr:`owners`: only those nobody runs (:meth:`claim_orphans`)."""
        if self.owners is not None:
            return await self.claim_orphans()
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

    def _resume(self, stored: StoredGame, own: Ownership | None = None) -> TableActor:
        """Rebuild a stored table, keep it in memory and start it. Under a new lease its
        versions go on :data:`VERSION_JUMP` above the stored one: the last owner may have
        shown a few connection events it never saved, and no client may see a version
        twice."""
        config = TableConfig.from_json(stored.meta["config"])
        if own is not None:
            stored = dataclasses.replace(stored, version=stored.version + VERSION_JUMP)
        actor = restore(stored, self._deps(config, own))
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
                try:
                    await actor.close(ABANDONED)
                except NotStored:
                    continue  # the database is not answering: retired at a later sweep
                except TableStopped:
                    pass  # another process runs it now: not this one's to retire
                waiting = False
            await self.forget(table_id)
            if waiting:
                retirement.keep(table_id, last_active)
        async with self._load_lock:  # a table being loaded meanwhile is not retired
            await retirement.retire_due(lambda table_id: table_id in self._tables)
        return idle

    async def forget(self, table_id: str) -> None:
        """Stop a table and drop it from memory (it stays in storage); with
        :attr:`owners`, give its lease up once it is saved."""
        actor = self._tables.pop(table_id, None)
        if actor is not None:
            await actor.stop()
        if self.owners is not None:
            await self.owners.release(table_id)

    async def close(self) -> None:
        """Stop every table (and give their leases up)."""
        for table_id in list(self._tables):
            await self.forget(table_id)
        if self._stopping:
            await asyncio.gather(*self._stopping, return_exceptions=True)
        if self.owners is not None:
            await self.owners.close()
