"""The ASGI application: ``build_app(settings, extensions)`` serves the API, the socket, the
documents and the pages of a site that the composition root (:mod:`.root`) builds at start.

Everything an app serves comes from its :class:`~euchre.server.core.registry.Registry`: the core
(tables, records, operations, documents, pages) and the extension objects it was given.
:func:`create_app` gives it the whole site's (:func:`site_extensions`: what ``euchre serve``
runs). Nothing is kept at module level, so apps built in one process never see each other's
routes or kinds.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Sequence

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from .accounts.accounts_api import AccountsOptions, accounts_extension
from .accounts.bots_api import bots_extension
from .accounts.ratings_api import ratings_extension
from .core.asyncapi import asyncapi_document
from .core.database_url import default_database_url
from .core.encoder import json_answer
from .core.errors import handlers
from .core.json_only import JsonOnlyMiddleware
from .core.middleware import EdgeMiddleware
from .core.openapi import openapi_document
from .core.pages import client_page, static_dir
from .core.registry import Endpoint, Extension, Registry
from .core.site import keep_site, registry_of
from .core.web_origin import SiteOriginMiddleware
from .nights.nights_api import nights_extension
from .online.my_games import my_games_extension
from .online.online_api import online_extension
from .online.stakes import stakes_extension
from .ops import endpoints as ops
from .root import (
    Given,
    Settings,
    Site,
    close_site,
    open_site,
    site_extension,
    start_site,
)
from .tables import api
from .tables.practice_api import practice_extension
from .tables.ws import table_socket_app
from .tournaments.tournaments_api import tournaments_extension
from .wire.tables import Health

__all__ = ["Given", "Settings", "build_app", "core_extension", "create_app",
           "default_database_url", "site_extensions"]

log = logging.getLogger(__name__)


async def get_openapi(request: Request) -> Response:
    """``GET /openapi.json``: this app's HTTP API, generated from its registry."""
    return json_answer(openapi_document(registry_of(request)))


async def get_asyncapi(request: Request) -> Response:
    """``GET /asyncapi.json``: the table socket's protocol, generated from its models."""
    return json_answer(asyncapi_document(registry_of(request)))


def core_extension() -> Extension[Site]:
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


def build_app(settings: Settings | None = None, extensions: Sequence[Extension[Site]] = (),
              given: Given | None = None) -> Starlette:
    """An ASGI app serving the core and ``extensions`` (and nothing else); its site is
    built when the app starts (:func:`~euchre.server.root.open_site`), from ``given``
    parts where there are any."""
    settings = settings or Settings()
    static = static_dir(settings.static_dir)
    # mypy checks here that the Site is what each extension's hooks read of it.
    registry = Registry[Site]([core_extension(), *extensions])

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        site = await open_site(settings, registry, given or Given())
        keep_site(app, site)
        await start_site(site)
        try:
            yield
        finally:
            await close_site(site)

    routes: list[BaseRoute] = [e.route() for e in registry.endpoints()]
    routes.append(WebSocketRoute("/ws/tables/{table_id}", table_socket_app))
    routes += [WebSocketRoute(s.path, s.handler) for s in registry.sockets()]
    routes += [Route(path, client_page, methods=["GET"]) for path in registry.pages()]
    routes.append(Mount("/static", app=StaticFiles(directory=static, check_dir=False),
                        name="static"))
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers=handlers(),
                     middleware=[Middleware(EdgeMiddleware), Middleware(JsonOnlyMiddleware),
                                 Middleware(SiteOriginMiddleware,
                                            public_url=settings.public_url)])


def site_extensions(accounts: AccountsOptions | None = None) -> list[Extension[Site]]:
    """The site's extensions, in the order they are started (each after those whose parts
    it stands on: a maker that finds a group it needs missing refuses to start,
    ``MissingPart``): the site's checks, practice tables, accounts and
    coin tables (``accounts``: its options, default from the environment), outside bots'
    tokens (after accounts: its database), online tables, their coin stakes and leaving a
    started game (after both), ratings and statistics (after accounts and online: it uses
    both), the person's games in progress (after them all), euchre nights in a room
    (after accounts: the host and the database), and online tournaments (after accounts and
    online tables: their rounds are online tables)."""
    return [site_extension(), practice_extension(), accounts_extension(accounts),
            bots_extension(), online_extension(), stakes_extension(), ratings_extension(),
            my_games_extension(), nights_extension(), tournaments_extension()]


def create_app(settings: Settings | None = None,
               extensions: Sequence[Extension[Site]] | None = None, *,
               accounts: AccountsOptions | None = None, given: Given | None = None
               ) -> Starlette:
    """The app with ``extensions`` (default: the whole site's, :func:`site_extensions`,
    with ``accounts`` options), its site using the ``given`` parts."""
    chosen = site_extensions(accounts) if extensions is None else extensions
    return build_app(settings, chosen, given)
