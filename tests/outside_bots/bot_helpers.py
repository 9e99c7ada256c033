"""Helpers for the outside bots' tests: an app with fast settings, people who sign up and
make bot tokens, and requests as a bot."""

from __future__ import annotations

import itertools
from typing import Any

from starlette.applications import Starlette
from starlette.testclient import TestClient

from euchre.bots import make
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from limits_helpers import roomy_limits

_seeds = itertools.count()


def quick_bots(level: str, seed: int | None) -> Any:
    """Quick computer players."""
    return make("easy", 7 if seed is None else seed)


def bot_app(database_url: str, **settings: Any) -> Starlette:
    """The whole site with computers at once, roomy limits, the cheapest argon2."""
    options: dict[str, Any] = {"database_url": database_url, "bot_delay": 0.0,
                               "hand_pause": 0.0, "bot_factory": quick_bots,
                               "seed_source": lambda: f"bots-{next(_seeds)}",
                               "limits": roomy_limits(), **settings}
    app = create_app(Settings(**options), accounts=AccountsOptions(password_profile="cheapest"))
    return app


def sign_up(client: TestClient, username: str) -> str:
    """Create an account (the client keeps its cookie); its CSRF token."""
    r = client.post("/api/accounts", json={"username": username,
                                           "password": "correct horse"})
    assert r.status_code == 201, r.text
    csrf: str = r.json()["csrf"]
    return csrf


def make_token(client: TestClient, csrf: str, name: str) -> dict[str, Any]:
    """A new bot token for the signed-in person's bot ``name``; the answer."""
    r = client.post("/api/me/bots", json={"name": name}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def as_bot(token: str) -> dict[str, str]:
    """The header a bot's requests carry."""
    return {"Authorization": f"Bearer {token}"}


def bot_call(client: TestClient, method: str, path: str, token: str,
             body: Any = None) -> Any:
    """A request as the bot holding ``token``, with no cookie (a program has none)."""
    kept = dict(client.cookies)
    client.cookies.clear()
    try:
        return client.request(method, path, json=body, headers=as_bot(token))
    finally:
        for name, value in kept.items():
            client.cookies.set(name, value)


def changing(csrf: str) -> dict[str, str]:
    """The headers of a signed-in request that changes something (JSON, the CSRF token)."""
    return {"Content-Type": "application/json", "X-CSRF-Token": csrf}
