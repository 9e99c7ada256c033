"""The ASGI application: ``build_app(settings, extensions)`` wires storage, tables, the API,
the socket, the documents and the pages.

Everything an app serves comes from its :class:`~euchre.server.core.registry.Registry`: the core
(tables, records, operations, documents, pages) and the extension objects it was given
(:func:`euchre.server.site_app.create_app` gives the whole site's). Nothing is kept at module
level, so apps built in one process never see each other's routes or kinds.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ..limits import open_limits
from ..shuffle import new_seed
from ..storage import GameStore, open_store
from ..table.actor import BotFactory
from ..table.manager import TableManager
from ..table.pacing import LoopScheduler, Pacing, Scheduler
from .core.asyncapi import asyncapi_document
from .core.encoder import json_answer
from .core.errors import handlers
from .core.guards import LimitSettings
from .core.json_only import JsonOnlyMiddleware
from .core.middleware import EdgeMiddleware
from .core.openapi import openapi_document
from .core.pages import client_page, static_dir
from .core.registry import Endpoint, Extension, Registry
from .ops import endpoints as ops
from .ops.metrics import Metrics
from .tables import api
from .tables.bot_gate import BotGate
from .tables.door import Tables
from .tables.hints import HintService
from .tables.socket_guard import SocketLimits
from .tables.ws import table_socket
from .wire.tables import Health

log = logging.getLogger(__name__)

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
    """Seconds each table's lease lives without a renewal (with a Redis URL): another
    process takes over a dead one's tables about this long after."""
    bot_delay: float = 0.67
    """Seconds before each computer move."""
    hand_pause: float = 2.0
    """Seconds between the end of a hand and the next deal."""
    trick_pause: float | None = None
    """Least seconds before a computer leads after a completed trick, so people read it
    (None: 1.8 times ``bot_delay``, 1.2 s at the default delay; none when bots are instant)."""
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
    public_url: str = "http://127.0.0.1:8000"
    """The site's address as people reach it: invite links are built from it (never from
    a request's Host header). ``euchre serve --public-url``; default from the bind address."""
    upgrade: bool = True
    """Run the database migrations at start (``euchre serve --no-upgrade`` leaves them to
    ``euchre db upgrade``)."""
    limits: LimitSettings = field(default_factory=LimitSettings)
    """How much each rate limit allows."""
    socket_limits: SocketLimits = field(default_factory=SocketLimits)
    """What table sockets may hold: join deadline, caps (``socket_guard.py``)."""
    metrics_token: str | None = None
    """The token a scraper shows to read ``/metrics`` (``Authorization: Bearer ...``;
    ``euchre serve`` reads ``$EUCHRE_METRICS_TOKEN``). None: ``/metrics`` is not served."""


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


async def get_openapi(request: Request) -> Response:
    """``GET /openapi.json``: this app's HTTP API, generated from its registry."""
    return json_answer(openapi_document(request.app.state.registry))


async def get_asyncapi(request: Request) -> Response:
    """``GET /asyncapi.json``: the table socket's protocol, generated from its models."""
    return json_answer(asyncapi_document(request.app.state.registry))


def core_extension() -> Extension:
    """What every app serves: tables, records, operations, documents and the core pages."""
    return Extension(
        "core",
        endpoints=[
            *api.endpoints(),
            *ops.endpoints(),
            Endpoint("GET", "/openapi.json", get_openapi, "This document",
                     answers={200: None}),
            Endpoint("GET", "/asyncapi.json", get_asyncapi,
                     "The table socket's protocol (AsyncAPI 3.0)", answers={200: None}),
        ],
        pages=["/", "/table/{table_id}", "/replay/{game_id}", "/rules", "/learn"],
        schemas=[Health],
    )


def build_app(settings: Settings | None = None,
               extensions: Sequence[Extension] = ()) -> Starlette:
    """An ASGI app serving the core and ``extensions`` (and nothing else)."""
    settings = settings or Settings()
    static = static_dir(settings.static_dir)
    registry = Registry([core_extension(), *extensions])
    metrics = Metrics()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = settings.store or await open_store(settings.database_url,
                                                   upgrade=settings.upgrade)
        manager = TableManager(
            store,
            settings.scheduler or LoopScheduler(),
            Pacing(bot_delay=settings.bot_delay, hand_pause=settings.hand_pause,
                   seed_wait=settings.seed_wait,
                   trick_pause=(settings.bot_delay * 1.8 if settings.trick_pause is None
                                else settings.trick_pause)),
            bot_factory=settings.bot_factory,
            seed_source=settings.seed_source,
            observer=metrics,
        )
        metrics.watch_tables(manager.count_by_kind)
        app.state.store = store
        app.state.manager = manager
        app.state.tables = Tables(manager, app.state.hints, app.state.bot_gate)
        if getattr(app.state, "limits", None) is None:  # tests may set their own
            app.state.limits = open_limits(settings.redis_url)
        if settings.redis_url:  # one hint at a time per client on the whole site
            app.state.hints.share_site_wide(app.state.limits)
        for startup in registry.startups():
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
            for shutdown in registry.shutdowns():
                await shutdown(app)
            await app.state.limits.close()
            if settings.store is None:
                await store.close()

    routes: list[BaseRoute] = [e.route() for e in registry.endpoints()]
    routes.append(WebSocketRoute("/ws/tables/{table_id}", table_socket))
    routes += [WebSocketRoute(s.path, s.handler) for s in registry.sockets()]
    routes += [Route(path, client_page, methods=["GET"]) for path in registry.pages()]
    routes.append(Mount("/static", app=StaticFiles(directory=static, check_dir=False),
                        name="static"))
    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers(),
                    middleware=[Middleware(EdgeMiddleware), Middleware(JsonOnlyMiddleware)])
    app.state.settings = settings
    app.state.registry = registry
    app.state.metrics = metrics
    app.state.hints = HintService(settings.hint_budget, metrics)
    app.state.bot_gate = BotGate(lambda: getattr(app.state, "bots", None))
    return app
