"""When the shared counters cannot be reached, limited requests are refused (503, JSON,
Retry-After), never let through uncounted, and nothing changes."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from euchre.limits.redis import RedisLimits
from euchre.server import Given, Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions


def test_a_redis_that_is_down_refuses_with_a_json_503(tmp_path: Path) -> None:
    app = create_app(Settings(bot_delay=0.0, hand_pause=0.0,
                              database_url=f"sqlite+aiosqlite:///{tmp_path}/down.db"),
                     accounts=AccountsOptions(password_profile="cheapest"),
                     # nothing listens on port 1
                     given=Given(limits=RedisLimits.from_url("redis://127.0.0.1:1/0")))
    with TestClient(app) as client:
        for method, path, body in (
                ("POST", "/api/session", {"username": "ann", "password": "correct horse"}),
                ("POST", "/api/accounts", {"username": "ann", "password": "correct horse"}),
                ("POST", "/api/tables", {"kind": "practice"})):
            r = client.request(method, path, json=body)
            assert r.status_code == 503, r.text
            assert r.headers["retry-after"] == "5"
            assert r.json()["code"] == "limits_unavailable"
            assert r.json()["error"].startswith("the server cannot check its limits just now")
        assert client.get("/api/health").json()["tables"] == 0
        assert client.post("/api/session", json={"username": "ann", "password":
                                                 "correct horse"}).status_code == 503
