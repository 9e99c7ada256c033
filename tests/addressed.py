"""One test client standing for people at several addresses: an ASGI wrapper that takes the
client's address from the ``x-test-address`` header (what a trusted proxy's
``X-Forwarded-For`` does for ``euchre serve``)."""

from __future__ import annotations

from typing import Any

ADDRESS = "x-test-address"
"""The header a test names its client address with (see :class:`Addressed`)."""


class Addressed:
    """An ASGI app that takes the client's address from the ``x-test-address`` header, so
    one test client can stand for people at several addresses. Other attributes (``state``)
    are the wrapped app's."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for key, value in scope.get("headers", []):
                if key == ADDRESS.encode():
                    scope = {**scope, "client": (value.decode(), 1)}
        await self.app(scope, receive, send)


def at(address: str) -> dict[str, str]:
    """The headers of a request from ``address``."""
    return {ADDRESS: address}
