"""What the core asks of the site, and the one place that keeps it on the app.

The site itself, every part one process serves with, is the composition root's typed
:class:`~euchre.server.root.Site`, built once at start by
:func:`~euchre.server.root.open_site`. This layer cannot name it (most of its parts are
typed in the layers above), so it says in :class:`CoreSite` what the core reads of it; each
layer above declares its own small protocol the same way (``OpsSite``, ``TablesSite``,
``AccountsSite`` ...), and the root's module checks with mypy that its ``Site`` is every
one of them. A request, a socket or the app reaches the site through its layer's typed
accessor, each built on :func:`kept_site`, the one place that reads the app's state.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

from ...accounts.bots import BotService
from ...accounts.seat_claims import SeatClaims
from ...accounts.service import AccountService
from ...accounts.sessions import LoginSessionStore
from ...broker import Broker
from ...leases import Leases
from ...limits import Limits
from ...storage.base import GameStore
from ...table.hosting.manager import TableManager
from ...table.hosting.owners import TableOwners
from .registry import Registry

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from sqlalchemy.ext.asyncio import AsyncEngine

T = TypeVar("T")


class MissingPart(LookupError):
    """An extension made its parts before one it stands on (put that extension first)."""


def needed(part: T | None, who: str, what: str) -> T:
    """``part``, which extension ``who`` needs (``what`` names it); :class:`MissingPart`
    when the extension that makes it is not in the app, or comes after ``who``."""
    if part is None:
        raise MissingPart(f"{who} needs {what}: put the extension that makes it before it")
    return part


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


class CoreSite(Protocol):
    """What the core (pages, people, the registry's documents) reads of the site."""

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
    registry: Registry[Any]
    """What the app serves: its extensions' endpoints, pages, kinds and hooks."""
    static_folder: Path
    """The web client's files (``index.html``, scripts, styles)."""
    background: Background
    """The tasks the site runs until it stops."""
    bots: BotService | None
    """Outside bots' accounts and tokens (None: the app has no outside bots)."""
    claims: SeatClaims | None
    """The seats people took as guests and bound to their account (None: no accounts)."""

    @property
    def site_wide(self) -> bool:
        """Whether several processes serve the site (it has a Redis URL)."""
        ...

    @property
    def sessions(self) -> LoginSessionStore | None:
        """Sign-in sessions (None: the app has no accounts)."""
        ...

    @property
    def account_service(self) -> AccountService | None:
        """Accounts (None: the app has no accounts)."""
        ...


def keep_site(app: Any, site: CoreSite) -> None:
    """Keep ``site`` as the started app's (the root calls it once, at start): the one
    attribute of the app's state, ``site``."""
    app.state.site = site


def kept_site(conn: Any) -> object:
    """The started site of ``conn`` (a request, a socket or the app), as kept by
    :func:`keep_site`; each layer's accessor gives it the type that layer reads."""
    app = getattr(conn, "app", conn)
    try:
        site = app.state.site
    except AttributeError:  # Starlette's State: an attribute never set
        site = None
    if site is None:
        raise RuntimeError("the app has not started (its site is built at start-up)")
    return site


def core_site(conn: Any) -> CoreSite:
    """The site of ``conn``, as the core reads it."""
    return cast(CoreSite, kept_site(conn))


def registry_of(conn: Any) -> Registry[Any]:
    """The app's registry."""
    return core_site(conn).registry
