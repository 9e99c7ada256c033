"""Apps and clients for the lobby's tests: several people, each from their own address."""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

from euchre.bots import make
from euchre.server import Settings, create_app
from euchre.server.accounts_api import AccountsOptions
from euchre.server.guards import LimitSettings

ADDRESS = "x-test-address"
"""The header a test names its client address with (see :class:`Addressed`)."""


class Addressed:
    """An ASGI app that takes the client's address from the ``x-test-address`` header, so
    one test client can stand for people at several addresses."""

    def __init__(self, app: Starlette) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for key, value in scope.get("headers", []):
                if key == ADDRESS.encode():
                    scope = {**scope, "client": (value.decode(), 1)}
        await self.app(scope, receive, send)


def lobby_app(database_url: str = "memory:", **limits: Any) -> Starlette:
    """The whole site at fast pacing, with ``limits`` changed."""
    settings = Settings(database_url=database_url, bot_delay=0.0, hand_pause=0.0,
                        bot_factory=lambda level, seed: make("easy", 7),
                        limits=LimitSettings(**limits))
    app = create_app(settings)
    app.state.accounts_options = AccountsOptions(password_profile="cheapest")
    return app


def client_for(app: Starlette) -> TestClient:
    """A test client whose requests may name their address (``at(...)``)."""
    return TestClient(Addressed(app))


def at(address: str) -> dict[str, str]:
    """The headers of a request from ``address``."""
    return {ADDRESS: address}


def quick(client: TestClient, name: str, address: str | None = None, **body: Any) -> Any:
    """``Play now`` as the guest ``name`` (from an address of their own by default)."""
    return client.post("/api/online/quick", json={"name": name, **body},
                       headers=at(address or f"10.0.0.{abs(hash(name)) % 250 + 1}"))
