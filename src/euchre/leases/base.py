"""The leases interface: acquire (set-if-absent with expiry), renew, release, look up.

A lease is held by one owner until it is released or its time to live runs out without a
renewal. Each successful :meth:`Leases.acquire` of a name gets a fencing number strictly
higher than every earlier acquisition of that name (``at_least`` raises the floor, so a
store that remembers a higher number than the lease service, after the service lost its
data, still gets a higher one). Renewing and releasing are compare-and-act on the
acquisition's token: an owner whose lease ran out, even if it was never taken by another,
cannot renew it back.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


class LeaseError(ValueError):
    """A lease request that makes no sense (an empty name or owner, a time to live <= 0)."""


@dataclass(frozen=True, slots=True)
class Lease:
    """One acquisition of a named lease."""

    name: str
    """What is leased (``table:{id}``)."""
    owner: str
    """Who holds it (a process id)."""
    fence: int
    """The fencing number of this acquisition (higher than every earlier one of ``name``)."""

    @property
    def token(self) -> str:
        """What the lease service stores for this acquisition (unique per acquisition)."""
        return f"{self.owner} {self.fence}"


@dataclass(frozen=True, slots=True)
class LeaseState:
    """Who holds a lease now, as :meth:`Leases.holder` sees it."""

    owner: str
    """The holder."""
    fence: int
    """The fencing number of the holder's acquisition."""
    ttl: float
    """Seconds left before it runs out unless renewed."""


def check_request(name: str, owner: str, ttl: float) -> None:
    """Raise :class:`LeaseError` for an empty name or owner, or a time to live <= 0."""
    if not name:
        raise LeaseError("a lease needs a name")
    if not owner or " " in owner:
        raise LeaseError(f"a lease owner is a non-empty word without spaces, not {owner!r}")
    if not ttl > 0:
        raise LeaseError(f"a lease's time to live must be positive, not {ttl!r}")


class Leases(ABC):
    """Named leases, one owner each, with fencing numbers."""

    @abstractmethod
    async def acquire(self, name: str, owner: str, ttl: float, *,
                      at_least: int = 0) -> Lease | None:
        """Take the lease for ``ttl`` seconds if nobody holds it, with a fencing number
        higher than every earlier one and than ``at_least``; None if it is held."""

    @abstractmethod
    async def renew(self, lease: Lease, ttl: float) -> bool:
        """Extend a lease still held by this acquisition to ``ttl`` seconds from now;
        False (and nothing changes) if it ran out or another acquisition holds it."""

    async def renew_many(self, leases: list[Lease], ttl: float) -> list[bool]:
        """:meth:`renew` each of ``leases`` (in one round trip where the service allows);
        for each, whether it is still held (extended) or lost."""
        return [await self.renew(lease, ttl) for lease in leases]

    @abstractmethod
    async def release(self, lease: Lease) -> bool:
        """Give the lease up if this acquisition still holds it; whether it did."""

    @abstractmethod
    async def holder(self, name: str) -> LeaseState | None:
        """Who holds the lease now, or None."""

    async def holders(self, names: list[str]) -> dict[str, str | None]:
        """The owner of each lease now (None where nobody holds it)."""
        out: dict[str, str | None] = {}
        for name in names:
            state = await self.holder(name)
            out[name] = state.owner if state is not None else None
        return out

    async def close(self) -> None:  # noqa: B027 - memory holds nothing to release
        """Release connections."""
