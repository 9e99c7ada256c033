"""Requests that change something take JSON only: a form or text post (what another site can
make a browser send without asking) gets 415 at every such route, and changes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from euchre.accounts import COOKIE_NAME
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions

NOT_JSON: list[dict[str, Any]] = [
    {"content": b'{"kind": "practice"}', "headers": {"content-type": "text/plain"}},
    {"content": b'{"kind": "practice"}', "headers": {"content-type": "text/plain;charset=UTF-8"}},
    {"data": {"kind": "practice", "username": "mal", "password": "correct horse"}},
    {"files": {"kind": (None, "practice")}},
    {"content": b""},
    {"content": b'{"kind": "practice"}', "headers": {"content-type": "application/jsonx"}},
]
"""Bodies another site's page could send (a form, text, nothing) and a near miss."""


def _site() -> Any:
    app = create_app(Settings(database_url="memory:", bot_delay=0.0, hand_pause=0.0),
                     accounts=AccountsOptions(password_profile="cheapest"))
    return app


def _changing_paths(client: TestClient) -> list[tuple[str, str]]:
    document = client.get("/openapi.json").json()
    return [(method.upper(), re.sub(r"\{[^}]+\}", "x", path))
            for path, ops in document["paths"].items() for method in ops
            if method in ("post", "put", "patch", "delete") and path.startswith("/api/")]


def test_every_changing_route_refuses_what_is_not_json() -> None:
    with TestClient(_site()) as client:
        me = client.post("/api/accounts", json={"username": "ann", "password": "correct horse"})
        assert me.status_code == 201
        csrf = {"X-CSRF-Token": me.json()["csrf"]}
        paths = _changing_paths(client)
        assert ("POST", "/api/tables") in paths and ("DELETE", "/api/session") in paths
        assert len(paths) >= 12
        document = client.get("/openapi.json").json()
        for method, path in paths:
            for bad in NOT_JSON:
                kwargs = {**bad, "headers": {**bad.get("headers", {}), **csrf}}
                r = client.request(method, path, **kwargs)
                assert r.status_code == 415, (method, path, bad, r.text)
                assert r.json()["code"] == "unsupported_media"
                assert "application/json" in r.json()["error"]
            template = next(p for p in document["paths"]
                            if re.sub(r"\{[^}]+\}", "x", p) == path)
            assert "415" in document["paths"][template][method.lower()]["responses"]
        # Nothing changed: no table, the same balance, still signed in, no other account.
        assert client.get("/healthz").json()["tables"] == 0
        mine = client.get("/api/me").json()
        assert mine["balance"] == 1000 and mine["active_table"] is None
        client.cookies.clear()
        taken = client.post("/api/accounts", json={"username": "mal",
                                                   "password": "correct horse"})
        assert taken.status_code == 201  # the form sign-up made nobody


@pytest.mark.parametrize("content_type", ["application/json", "application/json; charset=utf-8",
                                          "Application/JSON"])
def test_json_still_works_with_or_without_a_body(content_type: str) -> None:
    with TestClient(_site()) as client:
        made = client.post("/api/tables", content=b'{"kind": "practice"}',
                           headers={"content-type": content_type})
        assert made.status_code == 201, made.text
        me = client.post("/api/accounts", json={"username": "bob", "password": "correct horse"})
        csrf = {"X-CSRF-Token": me.json()["csrf"], "content-type": content_type}
        out = client.request("DELETE", "/api/session", headers=csrf)  # no body at all
        assert out.status_code == 200, out.text
        assert client.get("/api/me").status_code == 401
        assert not client.cookies.get(COOKIE_NAME)
