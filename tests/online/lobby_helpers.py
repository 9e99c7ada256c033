"""Apps and clients for the lobby's tests: several people, each from their own address."""

from __future__ import annotations

from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

from addressed import Addressed, at
from euchre.bots import make
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.core.limit_settings import LimitSettings
from euchre.server.tables.socket_guard import SocketLimits


def lobby_app(database_url: str = "memory:", *, socket_limits: SocketLimits | None = None,
              **limits: Any) -> Starlette:
    """The whole site at fast pacing, with ``limits`` (and ``socket_limits``) changed."""
    settings = Settings(database_url=database_url, bot_delay=0.0, hand_pause=0.0,
                        bot_factory=lambda level, seed: make("easy", 7),
                        limits=LimitSettings(**limits),
                        socket_limits=socket_limits or SocketLimits())
    app = create_app(settings, accounts=AccountsOptions(password_profile="cheapest"))
    return app


def client_for(app: Starlette) -> TestClient:
    """A test client whose requests may name their address (``at(...)``)."""
    return TestClient(Addressed(app))


def quick(client: TestClient, name: str, address: str | None = None, **body: Any) -> Any:
    """``Play now`` as the guest ``name`` (from an address of their own by default)."""
    return client.post("/api/online/quick", json={"name": name, **body},
                       headers=at(address or f"10.0.0.{abs(hash(name)) % 250 + 1}"))
