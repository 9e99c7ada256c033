"""The tables this process owns when many processes serve one site: each table's lease,
fence and store.

Each live table runs in exactly one process: the one holding the table's lease
(``table:{id}``). To own a table (:func:`take_table`), a process takes the lease with the
game's stored fence as the floor, claims the game with the lease's fence (so everything an
earlier owner writes from then on is refused), and gets back an :class:`Ownership`: the game
as claimed, a store stamped with its fence and the keeper of its lease (docs/scaling.md).
:class:`TableOwners` is one process's side of that: it takes tables' leases, keeps the
leases it holds (renewing them all in one request a tick), says who holds a table it does
not, lists the orphans (unfinished tables nobody holds: their owner died) and writes a stray
save (retiring a table, closing a left coin game) under the table's lease
(:class:`LeasedStore`).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from dataclasses import dataclass

from ...errors import DomainError
from ...leases import Lease, LeaseClock, LeaseKeeper, LeaseRenewer, Leases
from ...leases.keeper import MONOTONIC, LostHook
from ...storage.base import GameStore, StaleFenceError, StoredGame
from ...storage.fenced import FencedStore
from ...storage.passthrough import PassThroughStore


def table_lease_name(table_id: str) -> str:
    """The name of a table's lease."""
    return f"table:{table_id}"


@dataclass
class Ownership:
    """A table this process owns: run its actor with :attr:`store` and guard it with
    :meth:`is_held`."""

    table_id: str
    """The table."""
    keeper: LeaseKeeper
    """Renews the table's lease (started)."""
    store: FencedStore
    """The site's store, every save stamped with the lease's fence."""
    stored: StoredGame | None
    """The game as claimed (None for a table not saved yet)."""

    @property
    def fence(self) -> int:
        """The fencing number this owner writes with."""
        return self.keeper.fence

    def is_held(self) -> bool:
        """Whether the table is surely still ours (the actor's guard)."""
        return self.keeper.is_held()

    async def release(self) -> None:
        """Give the table up (after its actor stopped and saved)."""
        await self.keeper.stop(release=True)


async def take_table(leases: Leases, store: GameStore, table_id: str, owner: str,
                     ttl: float, on_lost: LostHook | None = None,
                     renewer: LeaseRenewer | None = None, *,
                     new: bool = False, clock: LeaseClock = MONOTONIC) -> Ownership | None:
    """Take the table's lease and claim its game; None if another process owns it (its
    lease is held, or a newer fence than ours reached the store meanwhile). The lease is
    renewed with the others of ``renewer`` if given, else by itself. A ``new`` table (an
    id never saved) has nothing to read or claim: just the lease (should a row with its id
    exist after all, one with a higher fence refuses the first save: nothing changes).
    The lease is kept on ``clock``."""
    before = None if new else await store.fence_of(table_id)  # the fence alone, no record
    keeper = await LeaseKeeper.acquire(leases, table_lease_name(table_id), owner, ttl,
                                       on_lost, at_least=before or 0, now=clock.now,
                                       sleep=clock.sleep, renewer=renewer)
    if keeper is None:
        return None
    try:
        claimed = None if new else await store.claim(table_id, keeper.fence)
    except StaleFenceError:
        await keeper.stop(release=True)
        return None
    except BaseException:
        await keeper.stop(release=True)
        raise
    keeper.start()
    return Ownership(table_id, keeper, FencedStore(store, keeper.fence), claimed)


log = logging.getLogger(__name__)

LostTable = Callable[[str, str], None]
"""Told a table's id and why, once, when this process lost the table's lease."""


class TableUnavailable(DomainError):
    """Table ownership cannot be decided now (Redis cannot be reached): nothing changed."""

    code = "unavailable"


class OwnedElsewhere(StaleFenceError):
    """A save for a table another process owns now: refused, nothing changed."""

    def __init__(self, game_id: str, owner: str) -> None:
        """``owner`` holds the table ``game_id``."""
        Exception.__init__(self, f"table {game_id} is run by another process ({owner})")
        self.game_id = game_id
        """The game written to."""
        self.owner = owner
        """Who holds it."""
        self.fence = 0
        """No fence was tried."""
        self.stored_fence = 0
        """Not read."""


class TableOwners:
    """This process's table leases: take, look up, give up."""

    def __init__(self, leases: Leases, store: GameStore, owner: str, ttl: float, *,
                 clock: LeaseClock = MONOTONIC) -> None:
        """Leases in ``leases`` for games in ``store`` (unfenced), held as ``owner`` for
        ``ttl`` seconds each renewal, kept on ``clock``."""
        self.leases = leases
        """Where the leases live."""
        self.store = store
        """The site's store, not fenced (each table gets its own fenced view)."""
        self.owner = owner
        """This process as a lease owner."""
        self.ttl = ttl
        """Seconds a table's lease lives without a renewal."""
        self.held: dict[str, Ownership] = {}
        """The tables this process owns, by id."""
        self.clock = clock
        """The clock the leases are kept on."""
        self.renewer = LeaseRenewer(leases, now=clock.now, sleep=clock.sleep)
        """Renews every table lease held here in one request a tick."""

    async def take(self, table_id: str, on_lost: LostTable | None = None, *,
                   new: bool = False) -> Ownership | None:
        """Take the table's lease and claim its game (a ``new`` table's id has no game to
        claim yet); None if another process owns it. :class:`TableUnavailable` if Redis
        cannot be reached (nothing taken)."""
        mine = self.held.get(table_id)
        if mine is not None and mine.is_held():
            return mine

        own_box: list[Ownership | None] = [None]

        def lost(lease: Lease, why: str) -> None:
            if self.held.get(table_id) is own_box[0]:
                del self.held[table_id]
            if on_lost is not None:
                on_lost(table_id, why)

        try:
            own = await take_table(self.leases, self.store, table_id, self.owner, self.ttl,
                                   lost, self.renewer, new=new, clock=self.clock)
        except Exception as e:
            raise TableUnavailable(f"tables cannot be opened or moved between servers now "
                                   f"(their leases cannot be reached: {e}): try again "
                                   f"shortly") from e
        if own is None:
            return None
        own_box[0] = own
        self.held[table_id] = own
        return own

    async def release(self, table_id: str) -> None:
        """Give the table's lease up (its actor stopped and saved)."""
        own = self.held.pop(table_id, None)
        if own is not None:
            await own.release()

    async def holder(self, table_id: str) -> str | None:
        """Who holds the table's lease now (this process's name if it does), or None.
        :class:`TableUnavailable` if Redis cannot be reached."""
        try:
            state = await self.leases.holder(table_lease_name(table_id))
        except Exception as e:
            raise TableUnavailable(f"table ownership cannot be decided: {e}") from e
        return state.owner if state is not None else None

    async def holders(self, table_ids: list[str]) -> dict[str, str | None]:
        """Who holds each table's lease now (None where nobody does), in one lookup.
        :class:`TableUnavailable` if Redis cannot be reached."""
        try:
            found = await self.leases.holders([table_lease_name(t) for t in table_ids])
        except Exception as e:
            raise TableUnavailable(f"table ownership cannot be decided: {e}") from e
        return {t: found.get(table_lease_name(t)) for t in table_ids}

    async def orphans(self, skip: Callable[[str], bool] = lambda table_id: False
                      ) -> list[tuple[str, str, float]]:
        """(id, kind, updated_at) of the unfinished tables whose lease nobody holds, oldest
        first, except those ``skip(id)`` leaves out (in memory here, say)."""
        games = [g for g in await self.store.unfinished_ids() if not skip(g[0])]
        holders = await self.leases.holders([table_lease_name(g[0]) for g in games])
        return [g for g in games if holders.get(table_lease_name(g[0])) is None]

    async def close(self) -> None:
        """Give every lease up (the actors stopped and saved)."""
        for table_id in list(self.held):
            await self.release(table_id)
        await self.renewer.close()


class LeasedStore(PassThroughStore):
    """The site's store for writers that are not a table's actor (retiring an abandoned
    table, closing a left coin game at start-up): a save takes the table's lease first
    (or uses this process's, if it owns the table), and is refused (:class:`OwnedElsewhere`)
    while another process owns it, or (:class:`StaleFenceError`) if the game changed
    since it was read. Reads go straight to the store."""

    def __init__(self, owners: TableOwners) -> None:
        """Saves under ``owners``' leases."""
        super().__init__(owners.store)
        self.owners = owners
        """This process's table leases."""

    async def save(self, game: StoredGame) -> None:
        """Save ``game`` with its table's fence (taking the lease for this one write)."""
        mine = self.owners.held.get(game.id)
        if mine is not None:
            await mine.store.save(game)
            return
        own = await self.owners.take(game.id)
        if own is None:
            raise OwnedElsewhere(game.id, await self.owners.holder(game.id) or "?")
        try:
            claimed = own.stored
            if claimed is not None and claimed.version != game.version:
                # Played on since it was read: this write would undo moves.
                raise StaleFenceError(game.id, own.fence, claimed.fence)
            await own.store.save(dataclasses.replace(game, fence=own.fence))
        finally:
            await self.owners.release(game.id)
