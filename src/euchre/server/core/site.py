"""The composition root's value: :class:`Site`, every part one process serves with.

One ``Site`` is built once at start, in order, by :func:`euchre.server.root.open_site`, and
never changed after: the store, the process's one Redis client, the limits, the broker, the
leases, table ownership and the table manager are typed fields; the server's own services
(the registry, metrics, hints, the socket guard, relays ...) and each extension's parts
(accounts, coins, ratings, the lobby ...) are found by their type, since they are defined
in the layers above this one. Extensions declare the parts they need
(:attr:`~euchre.server.core.registry.Extension.needs`) and are handed the site.

A request, a socket or the app reaches it through :func:`site_of`, the one place that reads
the app's state.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ...broker import Broker
from ...leases import Leases
from ...limits import Limits
from ...storage.base import GameStore
from ...table.hosting.manager import TableManager
from ...table.hosting.owners import TableOwners

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from sqlalchemy.ext.asyncio import AsyncEngine

T = TypeVar("T")


class MissingPart(LookupError):
    """A part the site was asked for and does not have (its extension is not in the app)."""


def parts_by_type(parts: Iterable[object]) -> dict[type[Any], object]:
    """``parts`` keyed by their own types; two of one type is an error."""
    found: dict[type[Any], object] = {}
    for part in parts:
        if type(part) in found:
            raise ValueError(f"the site has two parts of type {type(part).__name__}")
        found[type(part)] = part
    return found


class Background:
    """The tasks the site runs until it stops (sweepers, listeners): cancelled when it
    stops, the last started first."""

    def __init__(self) -> None:
        """No tasks yet."""
        self._tasks: list[asyncio.Task[None]] = []

    def start(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run ``work`` until the site stops."""
        task = asyncio.ensure_future(work)
        self._tasks.append(task)
        return task

    async def stop(self) -> None:
        """Cancel every task and wait for each to end."""
        while self._tasks:
            task = self._tasks.pop()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@dataclass(frozen=True)
class Site:
    """Everything one process of the site serves with, built once at start."""

    store: GameStore
    """Where games are kept (with a Redis URL, writes that are not a table's take the
    table's lease: :class:`~euchre.table.hosting.owners.LeasedStore`)."""
    engine: AsyncEngine | None
    """The SQL database the games are in (None: games in memory)."""
    redis: Redis | None
    """The process's one Redis client (None: one process, everything in memory)."""
    limits: Limits
    """Rate-limit counters (in Redis with a Redis URL)."""
    broker: Broker
    """Messages between the site's processes (in memory without a Redis URL)."""
    leases: Leases
    """Leases (table ownership, a person's requests one at a time)."""
    owners: TableOwners | None
    """This process's table leases (None without a Redis URL: every table runs here)."""
    manager: TableManager
    """The tables this process runs."""
    public_url: str
    """The site's address as people reach it (invite links)."""
    parts: Mapping[type[Any], object] = field(default_factory=dict)
    """The server's own services and the extensions' parts, by type."""

    @property
    def site_wide(self) -> bool:
        """Whether several processes serve the site (it has a Redis URL)."""
        return self.redis is not None

    def get(self, kind: type[T]) -> T | None:
        """The part of type ``kind`` (its own type, else the one part that is an instance
        of ``kind``: a base class or a runtime-checkable protocol), or None if the site has
        none."""
        part = self.parts.get(kind)
        if isinstance(part, kind):
            return part
        found = [p for p in self.parts.values() if isinstance(p, kind)]
        if len(found) > 1:
            raise MissingPart(f"the site has {len(found)} parts that are {kind.__name__}")
        return found[0] if found else None

    def __getitem__(self, kind: type[T]) -> T:
        """The part of type ``kind``; raises :class:`MissingPart` if the site has none."""
        part = self.get(kind)
        if part is None:
            raise MissingPart(f"the site has no {kind.__name__}")
        return part

    def __contains__(self, kind: object) -> bool:
        """Whether the site has a part of type ``kind``."""
        return kind in self.parts


def keep_site(app: Any, site: Site) -> None:
    """Keep ``site`` as the started app's (the root calls it once, at start): the one
    attribute of the app's state, ``site``."""
    app.state.site = site


def site_of(conn: Any) -> Site:
    """The started site of ``conn``: a request, a socket, the app itself (or the site)."""
    if isinstance(conn, Site):
        return conn
    app = getattr(conn, "app", conn)
    try:
        site = app.state.site
    except AttributeError:  # Starlette's State: an attribute never set
        site = None
    if not isinstance(site, Site):
        raise RuntimeError("the app has not started (its site is built at start-up)")
    return site
