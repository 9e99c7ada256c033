"""Requests that change something take JSON only: another site cannot forge one.

A page on another site may make a browser send a form (``application/x-www-form-urlencoded``,
``multipart/form-data``) or ``text/plain`` POST, with no body or any body, without asking
this server first; a request with ``Content-Type: application/json`` it may send only after a
CORS preflight, which this server never grants. So every ``POST``, ``PUT``, ``PATCH`` and
``DELETE`` under ``/api`` must say ``application/json`` (a body may be empty), and anything
else is answered 415 before the route runs: nothing changes. The web client sends the header
on every such request, with a body or without.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from ..wire.common import ErrorAnswer
from .encoder import json_answer

CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change something."""

JSON = "application/json"
"""The one media type they may carry."""

REFUSAL = ErrorAnswer(error="send JSON: a request that changes something must carry "
                            "Content-Type: application/json", code="unsupported_media")
"""What a request of another type is answered (415)."""


def is_json(content_type: bytes | None) -> bool:
    """Whether a ``Content-Type`` header value names JSON (parameters such as a charset may
    follow)."""
    if not content_type:
        return False
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == JSON.encode()


class JsonOnlyMiddleware:
    """415 for a changing request under ``/api`` that is not ``application/json``."""

    def __init__(self, app: ASGIApp) -> None:
        """Wrap ``app``."""
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse what is not JSON; pass everything else on."""
        if scope["type"] == "http" and scope.get("method") in CHANGING \
                and str(scope.get("path", "")).startswith("/api/"):
            content_type = dict(scope.get("headers") or []).get(b"content-type")
            if not is_json(content_type):
                await json_answer(REFUSAL, 415)(scope, receive, send)
                return
        await self.app(scope, receive, send)
