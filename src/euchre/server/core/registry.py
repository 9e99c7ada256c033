"""One registry per app: the endpoints, pages and table kinds its extensions bring.

``create_app(settings, extensions)`` builds a :class:`Registry` from extension objects;
nothing is kept at module level, so two apps in one process serve exactly their own paths
and kinds. The generated ``/openapi.json`` reads the same registry.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from .site import Site, site_of

Handler = Callable[[Request], Awaitable[Response]]
"""A route's handler."""

TEXT = "text/plain"
"""An answer documented as plain text."""


@dataclass(frozen=True)
class Param:
    """A path, query or header parameter of an endpoint."""

    name: str
    where: Literal["path", "query", "header"]
    description: str
    required: bool = False
    schema: Mapping[str, Any] = field(default_factory=lambda: {"type": "string"})


@dataclass(frozen=True)
class Endpoint:
    """One HTTP route with what the documents say of it."""

    method: str
    path: str
    handler: Handler
    summary: str
    description: str = ""
    body: Any = None
    """The request body's model (None: no body)."""
    answers: Mapping[int, Any] = field(default_factory=dict)
    """Status -> the answer's model (a model, :data:`TEXT`, or None for no schema)."""
    refusals: Mapping[int, str] = field(default_factory=dict)
    """Status -> when that refusal (an ``ErrorAnswer``) is given."""
    params: Sequence[Param] = ()
    text_too: bool = False
    """The 200 answer may also be plain text (a record's text form)."""
    documented: bool = True
    """False for operational routes kept out of the API document (``/metrics``)."""
    bot_token: bool = False
    """Whether an outside bot may call it with ``Authorization: Bearer <bot token>``
    (declared in the API document's security)."""

    def route(self) -> BaseRoute:
        """The Starlette route."""
        return Route(self.path, self.handler, methods=[self.method])


@dataclass(frozen=True)
class TableKindApi:
    """How ``POST /api/tables`` opens a table of one kind."""

    name: str
    request: type[Any]
    """The body's model (decoded and checked before :attr:`open` is called)."""
    answer: type[Any]
    """The 201 answer's model."""
    open: Callable[[Request, Any], Awaitable[Any]]
    """Opens the table from the decoded body; returns the answer."""
    repeat: Callable[[Request, Any], Awaitable[bool]] | None = None
    """Whether the decoded body repeats a request already answered (the same
    ``request_id``): then it is not counted again toward the limits on new tables."""


@dataclass(frozen=True)
class SocketChannel:
    """A WebSocket route an extension adds, with its messages for ``/asyncapi.json``."""

    name: str
    """The channel's name in the document."""
    path: str
    handler: Callable[[Any], Awaitable[None]]
    """The Starlette WebSocket endpoint."""
    description: str
    client_messages: Sequence[type[Any]] = ()
    """What a client may send (tagged structs)."""
    server_messages: Sequence[type[Any]] = ()
    """What the server sends (tagged structs)."""
    parameters: Mapping[str, str] = field(default_factory=dict)
    """Path parameter -> its description."""


Startup = Callable[[Site], Awaitable[None]]
"""Run with the finished site, before tables are resumed (shutdown hooks have the same
shape: run after the tables stopped, in reverse order)."""

ReadyCheck = Callable[[Site], Awaitable[dict[str, str]]]
"""Further ``/readyz`` checks: name -> outcome (``ok``, ``held``, ``not used`` ... or why)."""

PartsMaker = Callable[[Site], Awaitable[Sequence[object]]]
"""Makes an extension's parts from the site made so far (the root's parts and those of the
extensions before it)."""


@dataclass(frozen=True)
class Extension:
    """What one part of the site adds to an app."""

    name: str
    endpoints: Sequence[Endpoint] = ()
    pages: Sequence[str] = ()
    """Paths the web client serves itself (its ``index.html``)."""
    table_kinds: Sequence[TableKindApi] = ()
    startup: Startup | None = None
    shutdown: Startup | None = None
    """Run after the tables stopped (in reverse order of the extensions)."""
    ready: ReadyCheck | None = None
    """Further checks ``/readyz`` makes."""
    schemas: Sequence[type[Any]] = ()
    """Further models the documents describe."""
    sockets: Sequence[SocketChannel] = ()
    """WebSocket routes, documented in ``/asyncapi.json``."""
    parts: PartsMaker | None = None
    """Makes this extension's parts at start, before any start-up hook runs (the site's
    handlers and later extensions find each by its type)."""
    makes: Sequence[type[Any]] = ()
    """The types of the parts :attr:`parts` makes."""
    needs: Sequence[type[Any]] = ()
    """The types of the parts this extension needs from the extensions before it."""


class Registry:
    """An app's extensions, their endpoints, pages and table kinds."""

    def __init__(self, extensions: Sequence[Extension]) -> None:
        """Gather ``extensions``; two claiming one route or one kind is an error."""
        self.extensions = tuple(extensions)
        """In the order given."""
        self.kinds: dict[str, TableKindApi] = {}
        """Table kind -> how to open one."""
        seen: set[tuple[str, str]] = set()
        made: set[type[Any]] = set()
        for ext in self.extensions:
            missing = [t.__name__ for t in ext.needs if t not in made]
            if missing:
                raise ValueError(f"{ext.name} needs {missing}: put the extensions that make "
                                 "them before it")
            made.update(ext.makes)
            for endpoint in ext.endpoints:
                key = (endpoint.method, endpoint.path)
                if key in seen:
                    raise ValueError(f"{ext.name}: {endpoint.method} {endpoint.path} is taken")
                seen.add(key)
            for kind in ext.table_kinds:
                if kind.name in self.kinds:
                    raise ValueError(f"{ext.name}: table kind {kind.name!r} is taken")
                self.kinds[kind.name] = kind

    def endpoints(self) -> Iterator[Endpoint]:
        """Every endpoint, extension by extension."""
        for ext in self.extensions:
            yield from ext.endpoints

    def pages(self) -> Iterator[str]:
        """Every page path."""
        for ext in self.extensions:
            yield from ext.pages

    def schemas(self) -> Iterator[type[Any]]:
        """The extra models to document."""
        for ext in self.extensions:
            yield from ext.schemas

    def sockets(self) -> Iterator[SocketChannel]:
        """Every extension's WebSocket routes."""
        for ext in self.extensions:
            yield from ext.sockets

    def startups(self) -> Iterator[Startup]:
        """The startup hooks, in order."""
        for ext in self.extensions:
            if ext.startup is not None:
                yield ext.startup

    def shutdowns(self) -> Iterator[Startup]:
        """The shutdown hooks, last extension first."""
        for ext in reversed(self.extensions):
            if ext.shutdown is not None:
                yield ext.shutdown

    def ready_checks(self) -> Iterator[ReadyCheck]:
        """The extensions' readiness checks."""
        for ext in self.extensions:
            if ext.ready is not None:
                yield ext.ready


def registry_of(request: Request) -> Registry:
    """The app's registry."""
    return site_of(request)[Registry]


KIND_REQUESTS = "table kind requests"
"""As an :attr:`Endpoint.body`: the body of any table kind the app has."""

KIND_ANSWERS = "table kind answers"
"""As an answer: the 201 answer of any table kind the app has."""
