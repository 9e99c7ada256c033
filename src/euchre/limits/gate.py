"""A concurrency gate with a share per client: at most ``total`` holders at once, and at
most ``per_client`` of them for one client, so one client cannot hold every place.

:class:`ShareGate` counts in this process's memory; :class:`SharedShares` counts the
per-client share in a :class:`~euchre.limits.base.Limits` (Redis: one count for every
process of a site), each place held at most ``hold`` seconds (a process that dies holding
one frees it then)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .base import Limits


class GateFull(Exception):
    """No place for this client now."""

    def __init__(self, own_share: bool) -> None:
        """Full because the client holds its whole share (``own_share``), or every place
        is taken."""
        super().__init__("this client holds its share" if own_share else "every place is taken")
        self.own_share = own_share
        """Whether the client's own share is what is used up."""


class ShareGate:
    """Places taken and given back without waiting (the caller refuses when full)."""

    def __init__(self, total: int, per_client: int) -> None:
        """At most ``total`` places, ``per_client`` per client."""
        self.total = total
        """Places in all."""
        self.per_client = per_client
        """Places one client may hold."""
        self._held: dict[str, int] = {}

    def in_use(self, client: str | None = None) -> int:
        """Places held, in all or by one client."""
        if client is None:
            return sum(self._held.values())
        return self._held.get(client, 0)

    def take(self, client: str) -> None:
        """Take a place for ``client``, or raise :class:`GateFull` at once."""
        if self._held.get(client, 0) >= self.per_client:
            raise GateFull(own_share=True)
        if self.in_use() >= self.total:
            raise GateFull(own_share=False)
        self._held[client] = self._held.get(client, 0) + 1

    def release(self, client: str) -> None:
        """Give back a place :meth:`take` gave ``client``."""
        left = self._held.get(client, 0) - 1
        if left > 0:
            self._held[client] = left
        else:
            self._held.pop(client, None)

    @contextlib.contextmanager
    def place(self, client: str) -> Iterator[None]:
        """Hold a place while the block runs, or raise :class:`GateFull` at once."""
        self.take(client)
        try:
            yield
        finally:
            self.release(client)


class SharedShares:
    """Per-client places counted in ``limits`` (shared by every process on one Redis), each
    given back when done or after ``hold`` seconds at the latest."""

    def __init__(self, limits: Limits, per_client: int, hold: float, name: str) -> None:
        """At most ``per_client`` places per client under the key ``{name}:{client}``."""
        self.limits = limits
        """Where the places are counted."""
        self.per_client = per_client
        """Places one client may hold at once."""
        self.hold = hold
        """Seconds a place lasts if it is never given back."""
        self.name = name
        """The keys' prefix."""

    def _key(self, client: str) -> str:
        return f"{self.name}:{client}"

    async def take(self, client: str) -> str:
        """Take a place for ``client`` and return its ticket, or raise :class:`GateFull`
        (the client's share is used up) at once; :class:`LimitsUnavailable` if the counts
        cannot be reached."""
        decision = await self.limits.hit(self._key(client), self.per_client, self.hold)
        if not decision.allowed:
            raise GateFull(own_share=True)
        return decision.ticket

    async def release(self, client: str, ticket: str) -> None:
        """Give back the place taken with ``ticket``."""
        await self.limits.give_back(self._key(client), ticket)
