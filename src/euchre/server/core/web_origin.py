"""The web origin a browser request comes from (its ``Origin`` header): this site's pages only.

A browser names the page that made a request in ``Origin`` on every socket and every
``POST``/``PUT``/``PATCH``/``DELETE``, and attaches this site's cookies whatever the page.
A page on another origin of the same site (another port of the same host, a sibling
subdomain: ``SameSite`` does not tell those apart) could otherwise open a table socket
with the person's session cookie and read their hand. So:

- a socket (``/ws/...``) or a changing request whose ``Origin`` is not this site's is
  refused before anything runs: the socket is closed with :data:`CLOSE_OTHER_ORIGIN` and a
  reason, the request answered 403 ``other_site``;
- a socket without ``Origin`` is not a browser's (browsers always send it there): it goes on
  with its seat token or bot token, but its session cookie is not believed, so a cookie alone
  never opens a person's seat. (A changing HTTP request with a session cookie needs the
  session's CSRF header besides, which no other page can read.)

This site's origin is the public URL's (``Settings.public_url``). In development, where the
server is reached on a loopback name (``localhost``, ``127.0.0.1``, ``[::1]``), the page's
own address is accepted too: an ``Origin`` naming the very host and port the request was
sent to (``Host``), when that host is a loopback one; another port is another origin.

Not to be confused with a person's *sources* (their network and browser, for the rated
tables' one-person-one-seat rule: :mod:`.sources`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...accounts import COOKIE_NAME
from ..wire.common import ErrorAnswer
from .encoder import json_answer
from .json_only import CHANGING

CLOSE_OTHER_ORIGIN = 4403
"""The close code of a socket opened by a page of another origin."""

LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
"""Host names that reach this machine only: development."""

_DEFAULT_PORTS = {"http": "80", "https": "443", "ws": "80", "wss": "443"}


def origin_of(url: str) -> str | None:
    """``scheme://host:port`` of ``url`` (lower case, the port always written), or None if it
    is not an http(s) URL with a host (``null``, ``file:``, junk)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        return None
    host = parts.hostname.lower()
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port or _DEFAULT_PORTS[scheme]}"


def _host_port(host_header: str, scheme: str) -> str | None:
    """``host:port`` of a ``Host`` header (the scheme's default port when none is given)."""
    found = origin_of(f"{scheme}://{host_header}")
    return found.split("://", 1)[1] if found else None


def is_site_origin(origin: str, public_url: str, host_header: str | None) -> bool:
    """Whether a request's ``Origin`` is this site's: the public URL's origin, or in
    development a loopback page on the very host and port the request was sent to."""
    given = origin_of(origin)
    if given is None:
        return False
    if given == origin_of(public_url):
        return True
    scheme, _, host_port = given.partition("://")
    host = host_port.rsplit(":", 1)[0]
    if host not in LOOPBACK_HOSTS or not host_header:
        return False
    return _host_port(host_header, scheme) == host_port


SOCKET_REFUSAL = "this site's pages only: a page of another origin may not open this socket"
"""The close reason of a socket refused for its origin (at most 123 bytes, as a close
reason must be)."""


def refusal_text(origin: str) -> str:
    """What a refused request is told (the origin shortened, never echoed whole)."""
    return (f"this site's pages only: a page of another origin ({origin[:80]!r}) may not "
            "change anything here")


def without_session(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with the session cookie taken out of every ``Cookie`` header."""
    name = COOKIE_NAME.encode()
    kept: list[tuple[bytes, bytes]] = []
    for key, value in headers:
        if key.lower() == b"cookie":
            crumbs = [c for c in value.split(b";")
                      if c.strip().split(b"=", 1)[0].strip() != name]
            if not crumbs:
                continue
            value = b";".join(crumbs)
        kept.append((key, value))
    return kept


class SiteOriginMiddleware:
    """Sockets and changing ``/api`` requests from another origin are refused; a socket
    without ``Origin`` loses its session cookie (see the module's docstring)."""

    def __init__(self, app: ASGIApp, public_url: str) -> None:
        """Wrap ``app`` for the site reached at ``public_url``."""
        self.app = app
        self.public_url = public_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse, strip or pass on."""
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope.get("method") in CHANGING
                                   and str(scope.get("path", "")).startswith("/api/")):
            headers = list(scope.get("headers") or [])
            found = {k.lower(): v for k, v in headers}
            origin = found.get(b"origin")
            if origin is None:
                if kind == "websocket":
                    scope = {**scope, "headers": without_session(headers)}
            else:
                text = origin.decode("latin-1")
                host = found.get(b"host", b"").decode("latin-1") or None
                if not is_site_origin(text, self.public_url, host):
                    await self._refuse(scope, receive, send, text)
                    return
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse(scope: Scope, receive: Receive, send: Send, origin: str) -> None:
        if scope["type"] == "http":
            body = ErrorAnswer(error=refusal_text(origin), code="other_site")
            await json_answer(body, 403)(scope, receive, send)
            return
        message: Message = await receive()
        if message["type"] != "websocket.connect":
            return
        # Accepted only to be closed with a code and reason a page can read (a refused
        # handshake reaches it as 1006 with no reason); nothing else is sent.
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_OTHER_ORIGIN,
                    "reason": SOCKET_REFUSAL})
