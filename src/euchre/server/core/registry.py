"""One registry per app: the endpoints, pages and table kinds its extensions bring.

``create_app(settings, extensions)`` builds a :class:`Registry` from extension objects;
nothing is kept at module level, so two apps in one process serve exactly their own paths
and kinds. The generated ``/openapi.json`` reads the same registry.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

S = TypeVar("S", contravariant=True)
"""The site an extension's hooks are handed: the protocol of what they read of it (the
root's ``Site`` must be each of them; mypy checks it where the app gathers its extensions)."""

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


@dataclass(frozen=True)
class Extension(Generic[S]):
    """What one part of the site adds to an app; its hooks are handed the site, typed as
    ``S`` (what they read of it)."""

    name: str
    endpoints: Sequence[Endpoint] = ()
    pages: Sequence[str] = ()
    """Paths the web client serves itself (its ``index.html``)."""
    table_kinds: Sequence[TableKindApi] = ()
    startup: Callable[[S], Awaitable[None]] | None = None
    """Run with the finished site, before tables are resumed."""
    shutdown: Callable[[S], Awaitable[None]] | None = None
    """Run after the tables stopped (in reverse order of the extensions)."""
    ready: Callable[[S], Awaitable[dict[str, str]]] | None = None
    """Further checks ``/readyz`` makes: name -> outcome (``ok``, ``held``, ``not used``
    ... or why)."""
    schemas: Sequence[type[Any]] = ()
    """Further models the documents describe."""
    sockets: Sequence[SocketChannel] = ()
    """WebSocket routes, documented in ``/asyncapi.json``."""
    parts: Callable[[S], Awaitable[None]] | None = None
    """Makes this extension's parts at start, before any start-up hook runs, into its own
    typed field of the site (the extensions before it have made theirs)."""


class Registry(Generic[S]):
    """An app's extensions, their endpoints, pages and table kinds."""

    def __init__(self, extensions: Sequence[Extension[S]]) -> None:
        """Gather ``extensions``; two claiming one route or one kind is an error."""
        self.extensions = tuple(extensions)
        """In the order given."""
        self.kinds: dict[str, TableKindApi] = {}
        """Table kind -> how to open one."""
        seen: set[tuple[str, str]] = set()
        for ext in self.extensions:
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

    def makers(self) -> Iterator[Callable[[S], Awaitable[None]]]:
        """The extensions' part makers, in order."""
        for ext in self.extensions:
            if ext.parts is not None:
                yield ext.parts

    def startups(self) -> Iterator[Callable[[S], Awaitable[None]]]:
        """The startup hooks, in order."""
        for ext in self.extensions:
            if ext.startup is not None:
                yield ext.startup

    def shutdowns(self) -> Iterator[Callable[[S], Awaitable[None]]]:
        """The shutdown hooks, last extension first."""
        for ext in reversed(self.extensions):
            if ext.shutdown is not None:
                yield ext.shutdown

    def ready_checks(self) -> Iterator[Callable[[S], Awaitable[dict[str, str]]]]:
        """The extensions' readiness checks."""
        for ext in self.extensions:
            if ext.ready is not None:
                yield ext.ready


KIND_REQUESTS = "table kind requests"
"""As an :attr:`Endpoint.body`: the body of any table kind the app has."""

KIND_ANSWERS = "table kind answers"
"""As an answer: the 201 answer of any table kind the app has."""
