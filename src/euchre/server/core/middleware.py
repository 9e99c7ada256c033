"""ASGI middleware on every response: security headers, and a request id for the logs.

Every HTTP answer carries a Content-Security-Policy (scripts, styles and connections only
from this site; never framed), X-Frame-Options, X-Content-Type-Options and Referrer-Policy
(a socket's handshake and messages pass untouched). Each request gets an id (the caller's
``X-Request-ID`` if it is a reasonable token, else a new one), echoed in the answer and put
on its log lines.
"""

from __future__ import annotations

import re
import secrets
from contextvars import ContextVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ...table.actor.logcontext import TABLE_ID

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
"""The Content-Security-Policy of every answer."""

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
"""Set on every HTTP answer."""

REQUEST_ID: ContextVar[str | None] = ContextVar("euchre_request_id", default=None)
"""The id of the request being answered (a per-task value)."""

_GOOD_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_TABLE_PATH = re.compile(r"^/(?:ws|api)/(?:tables|games|online)/([A-Za-z0-9_-]+)")


class EdgeMiddleware:
    """Security headers and request ids."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer with the headers set."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers") or []).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if _GOOD_ID.match(given) else secrets.token_hex(8)
        REQUEST_ID.set(request_id)
        match = _TABLE_PATH.match(scope.get("path", ""))
        if match:
            TABLE_ID.set(match.group(1))
        if scope["type"] == "websocket":
            # A socket's messages carry no HTTP headers: its sends go straight through (a
            # table socket sends several messages a move).
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                headers.append((b"x-request-id", request_id.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
