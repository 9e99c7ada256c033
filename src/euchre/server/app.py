"""The ASGI application: ``create_app(settings)`` wires storage, tables, API, socket and pages.

Other modules add to the app without editing this file: each module named in
:data:`EXTENSIONS` that can be imported contributes ``routes()`` (a list of Starlette
routes) and, optionally, ``async def startup(app)`` run after the table manager exists
(to register table kinds, turn policies and finish hooks) before tables are resumed, and
``async def shutdown(app)`` run after the tables stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import os
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ..limits import open_limits
from ..shuffle import new_seed
from ..storage import GameStore, open_store
from ..table.actor import BotFactory
from ..table.manager import TableManager
from ..table.pacing import LoopScheduler, Pacing, Scheduler
from . import api
from .guards import Limited, LimitSettings, limited_response
from .openapi import openapi_schema
from .pages import client_page, static_dir
from .socket_guard import SocketLimits
from .ws import table_socket

log = logging.getLogger(__name__)

EXTENSIONS: list[str] = ["euchre.server.site", "euchre.server.accounts_api",
                         "euchre.server.online_api", "euchre.server.ratings_api"]
"""Modules that add routes and startup hooks when they exist (``site`` first: it decides
whether this process may run tables, and fences the store, before the others use it)."""


def default_database_url() -> str:
    """``$EUCHRE_DATABASE_URL``, else an SQLite file ``./var/euchre.db``."""
    return os.environ.get("EUCHRE_DATABASE_URL") or "sqlite+aiosqlite:///./var/euchre.db"


@dataclass
class Settings:
    """Everything a server is configured with."""

    database_url: str | None = "memory:"
    """SQLAlchemy URL (``sqlite+aiosqlite:///...``, ``postgresql+asyncpg://...``) or
    ``memory:`` to keep games in memory only."""
    redis_url: str | None = None
    """Redis shared by the processes of one site (``redis://host:port/db``): rate-limit
    counters, broker and leases; None: one process, all in memory."""
    lease_ttl: float = 10.0
    """Seconds the site's lease lives without a renewal (with a Redis URL): a standby
    process takes over this long after the active one died."""
    bot_delay: float = 0.67
    """Seconds before each computer move."""
    hand_pause: float = 2.0
    """Seconds between the end of a hand and the next deal."""
    seed_wait: float = 0.0
    """Longest wait before a table's first deal for the people's shuffle seeds (``euchre
    serve``: 3 s; the deal is at once when every person has sent one)."""
    hint_budget: float = 1.0
    """Seconds an analysis for a hint may take."""
    resume: bool = True
    """Resume unfinished tables from storage at startup."""
    static_dir: Path | None = None
    """The web client's files (default: the ``euchre.web`` package's ``static`` folder)."""
    store: GameStore | None = None
    """A ready store to use instead of opening ``database_url``."""
    scheduler: Scheduler | None = None
    """The clock tables use (default: the event loop's)."""
    bot_factory: BotFactory | None = None
    """Makes computer players (default: :func:`euchre.bots.make`)."""
    seed_source: Callable[[], str] = new_seed
    """Makes each hand's shuffle seed (default: a secure random seed)."""
    idle_after: float = 600.0
    """Seconds after which a table nobody watches, waiting for a person, leaves memory."""
    sweep_every: float = 60.0
    """Seconds between sweeps for idle tables."""
    tune_gc: bool = False
    """Tune the garbage collector for a long-running server (``euchre serve`` sets it)."""
    extensions: list[str] = field(default_factory=lambda: list(EXTENSIONS))
    """Extension modules to load."""
    limits: LimitSettings = field(default_factory=LimitSettings)
    """How much each rate limit allows."""
    socket_limits: SocketLimits = field(default_factory=SocketLimits)
    """What table sockets may hold: join deadline, caps (``socket_guard.py``)."""


def _extensions(names: list[str]) -> list[ModuleType]:
    mods = []
    for name in names:
        try:
            mods.append(importlib.import_module(name))
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
    return mods


def tune_gc() -> None:
    """Collect cycles less often, and never re-examine what startup made.

    Everything imported and built at startup (a few hundred thousand objects) is frozen out
    of the collector, and the youngest generation is collected every 20 000 allocations
    instead of 700, the oldest far more rarely: full collections walk every live table and
    otherwise pause the event loop for hundreds of ms.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 100)


async def _sweep_forever(manager: TableManager, settings: Settings) -> None:
    while True:
        await asyncio.sleep(settings.sweep_every)
        try:
            dropped = await manager.sweep(settings.idle_after)
        except Exception:
            log.exception("sweeping idle tables failed")
            continue
        if dropped:
            log.info("dropped %d idle tables from memory", len(dropped))


def create_app(settings: Settings | None = None) -> Starlette:
    """The platform's ASGI app."""
    settings = settings or Settings()
    static = static_dir(settings.static_dir)
    extensions = _extensions(settings.extensions)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = settings.store or await open_store(settings.database_url)
        manager = TableManager(
            store,
            settings.scheduler or LoopScheduler(),
            Pacing(bot_delay=settings.bot_delay, hand_pause=settings.hand_pause,
                   seed_wait=settings.seed_wait),
            bot_factory=settings.bot_factory,
            seed_source=settings.seed_source,
        )
        app.state.store = store
        app.state.manager = manager
        if getattr(app.state, "limits", None) is None:  # tests may set their own
            app.state.limits = open_limits(settings.redis_url)
        for mod in extensions:
            startup = getattr(mod, "startup", None)
            if startup is not None:
                await startup(app)
        if settings.resume:
            resumed = await manager.resume_unfinished()
            if resumed:
                log.info("resumed %d unfinished tables", len(resumed))
        if settings.tune_gc:
            tune_gc()
        sweeper = asyncio.create_task(_sweep_forever(manager, settings))
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            await manager.close()
            for mod in reversed(extensions):
                shutdown = getattr(mod, "shutdown", None)
                if shutdown is not None:
                    await shutdown(app)
            await app.state.limits.close()
            if settings.store is None:
                await store.close()

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_schema())

    async def health(request: Request) -> Response:
        manager: TableManager = request.app.state.manager
        return JSONResponse({"ok": True, "tables": len(manager)})

    routes: list[BaseRoute] = [
        *api.routes(),
        Route("/api/health", health, methods=["GET"]),
        Route("/openapi.json", openapi, methods=["GET"]),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
    ]
    for mod in extensions:
        make_routes = getattr(mod, "routes", None)
        if make_routes is not None:
            routes.extend(make_routes())
    routes += [
        Route("/", client_page, methods=["GET"]),
        Route("/table/{table_id}", client_page, methods=["GET"]),
        Route("/replay/{game_id}", client_page, methods=["GET"]),
        Route("/rules", client_page, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=static, check_dir=False), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={Limited: limited_response})
    app.state.settings = settings
    return app

