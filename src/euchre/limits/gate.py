"""A share per client: at most ``per_client`` places held at once by one client, so one
client cannot hold every place.

:class:`SharedShares` counts the per-client share in a :class:`~euchre.limits.base.Limits`
(Redis: one count for every process of a site), each place held at most ``hold`` seconds (a
process that dies holding one frees it then)."""

from __future__ import annotations

from .base import Limits


class GateFull(Exception):
    """No place for this client now."""

    def __init__(self, own_share: bool) -> None:
        """Full because the client holds its whole share (``own_share``), or every place
        is taken."""
        super().__init__("this client holds its share" if own_share else "every place is taken")
        self.own_share = own_share
        """Whether the client's own share is what is used up."""


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
