"""A token revoked in one process closes the bot's socket in another (two apps on one
database and one Redis, as two processes of a site): the revocation is published on the
broker's ``bot-revoked`` channel."""

from __future__ import annotations

from pathlib import Path

from bot_helpers import as_bot, changing
from starlette.applications import Starlette
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from euchre.bots import make
from euchre.server.accounts.accounts_api import AccountsOptions, accounts_extension
from euchre.server.accounts.bots_api import bots_extension
from euchre.server.app import Given, Settings, build_app
from euchre.server.tables.practice_api import practice_extension
from redis_fixtures import REDIS_URL, fresh_prefix, needs_redis


def _redis_app(database_url: str, prefix: str) -> Starlette:
    from euchre.broker.redis import RedisBroker

    assert REDIS_URL
    settings = Settings(database_url=database_url, bot_delay=0.0, hand_pause=0.0,
                        bot_factory=lambda level, seed: make("easy", 7))
    cheapest = AccountsOptions(password_profile="cheapest")
    app = build_app(settings, [practice_extension(), accounts_extension(cheapest),
                               bots_extension()],
                    Given(broker=RedisBroker(REDIS_URL, prefix=prefix)))
    return app


@needs_redis
def test_a_revocation_in_one_process_closes_the_socket_in_another(tmp_path: Path) -> None:
    url, prefix = f"sqlite+aiosqlite:///{tmp_path}/two.db", fresh_prefix()
    with TestClient(_redis_app(url, prefix)) as one, TestClient(_redis_app(url, prefix)) as two:
        r = one.post("/api/accounts", json={"username": "ann", "password": "correct horse"})
        csrf = r.json()["csrf"]
        made = one.post("/api/me/bots", json={"name": "annbot"},
                        headers={"X-CSRF-Token": csrf}).json()
        table = two.post("/api/tables", json={"kind": "practice"},
                         headers=as_bot(made["token"])).json()
        with two.websocket_connect(f"/ws/tables/{table['id']}") as bot:
            bot.send_json({"type": "join", "protocol": 2, "token": table["token"]})
            assert bot.receive_json()["type"] == "joined"
            r = one.delete(f"/api/me/bots/{made['id']}", headers=changing(csrf))
            assert r.status_code == 200
            while (message := bot.receive_json())["type"] != "error":
                pass
            assert message["code"] == "revoked"
            try:
                while True:
                    bot.receive_json()
            except WebSocketDisconnect as closed:
                assert closed.code == 4401
