"""Leases with fencing numbers: which process owns a table, for how long.

A :class:`Leases` implementation hands a named lease to one owner at a time, for a time to
live that its owner renews; every acquisition gets a fencing number higher than any
acquisition of that name before it, which the table store checks on every save (a paused
owner that lost its lease cannot write over the new owner). Memory (one process) and Redis
(every process of a site) implementations; :func:`open_leases` picks one (given the
process's Redis client, or None); :class:`LeaseKeeper` renews a held lease and says when it
is lost; :class:`LeaseRenewer` renews many keepers' leases in one request a tick, both
on a :class:`LeaseClock`.
"""

from .base import Lease, LeaseError, Leases, LeaseState
from .keeper import LeaseClock, LeaseKeeper, LeaseRenewer
from .memory import MemoryLeases
from .open import open_leases

__all__ = ["Lease", "LeaseClock", "LeaseError", "LeaseKeeper", "LeaseRenewer", "LeaseState",
           "Leases", "MemoryLeases", "open_leases"]
