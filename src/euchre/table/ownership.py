"""Owning one table when many processes serve a site: its lease, its fence, its store.

The building block of per-table ownership (docs/scaling.md; :mod:`.owners` uses it): a
process that wants to run a table takes the lease ``table:{id}`` with the game's stored fence as
the floor, claims the game with the lease's fence (so everything an earlier owner writes
from then on is refused), and gets back the game as claimed, a store stamped with its fence
and the keeper of its lease. :func:`orphans` lists the unfinished tables whose lease nobody
holds (their owner died): what a sweeper takes over.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..leases import LeaseKeeper, LeaseRenewer, Leases
from ..leases.keeper import LostHook
from ..storage.base import GameStore, StaleFenceError, StoredGame
from ..storage.fenced import FencedStore


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
                     new: bool = False) -> Ownership | None:
    """Take the table's lease and claim its game; None if another process owns it (its
    lease is held, or a newer fence than ours reached the store meanwhile). The lease is
    renewed with the others of ``renewer`` if given, else by itself. A ``new`` table (an
    id never saved) has nothing to read or claim: just the lease (should a row with its id
    exist after all, one with a higher fence refuses the first save: nothing changes)."""
    before = None if new else await store.fence_of(table_id)  # the fence alone, no record
    keeper = await LeaseKeeper.acquire(leases, table_lease_name(table_id), owner, ttl,
                                       on_lost, at_least=before or 0,
                                       renewer=renewer)
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


async def orphans(leases: Leases, store: GameStore) -> list[str]:
    """The unfinished tables whose lease nobody holds, oldest first (a sweeper's list)."""
    return [game.id for game in await store.unfinished()
            if await leases.holder(table_lease_name(game.id)) is None]
