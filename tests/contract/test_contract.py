"""The contract: every message the server sends fits its generated document, the OpenAPI
document and the routes agree both ways, and each app serves exactly its own extensions."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from contract_helpers import Recording, play_to_the_end, validate_http, validate_socket
from starlette.routing import Route
from starlette.testclient import TestClient

from euchre.bots import make
from euchre.server import Settings, build_app, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.root import root_of
from euchre.server.tables.practice_api import practice_extension

_seeds = itertools.count()


def quick_bots(level: str, seed: int | None) -> Any:
    """Easy computer players: whole games in test time."""
    return make("easy", 7)


def settings(**changes: Any) -> Settings:
    """No delays, games in memory, quick bots, deterministic shuffles."""
    base: dict[str, Any] = {"bot_delay": 0.0, "hand_pause": 0.0, "database_url": "memory:",
                            "bot_factory": quick_bots,
                            "seed_source": lambda: f"contract-{next(_seeds)}"}
    return Settings(**{**base, **changes})


def site(**changes: Any) -> Any:
    """The whole site, with the cheapest password hashing."""
    app = create_app(settings(**changes), accounts=AccountsOptions(password_profile="cheapest"))
    return app


def documents(client: TestClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """The app's OpenAPI and AsyncAPI documents."""
    return client.get("/openapi.json").json(), client.get("/asyncapi.json").json()


def check_everything_sent(client: TestClient, recording: Recording) -> tuple[int, int]:
    """Validate all that was sent; (HTTP answers, socket messages) checked."""
    openapi, asyncapi = documents(client)
    return validate_http(openapi, recording.sent), validate_socket(asyncapi, recording.sent)


def test_a_practice_game_sends_only_documented_messages() -> None:
    recording = Recording(site())
    with TestClient(recording) as client:
        table = client.post("/api/tables", json={"preset": "classic"}).json()
        with client.websocket_connect(table["ws"]) as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": table["token"]})
            ws.send_json({"type": "ping"})
            ws.send_json({"type": "hint"})
            ws.send_json({"type": "action"})  # refused: a documented error message
            last = play_to_the_end(ws, refusals=frozenset({"bad_message", "hint_unavailable"}))
        assert last["game_over"]
        client.get(f"/api/tables/{table['id']}", headers={"X-Seat-Token": table["token"]})
        client.get(f"/api/games/{table['id']}/record", params={"format": "json"})
        client.get(f"/api/games/{table['id']}/replay")
        client.get("/api/presets")
        client.get("/api/games/nope/replay")
        client.post("/api/tables", json={"kind": "nope"})
        client.get("/nothing/here")
        http, socket = check_everything_sent(client, recording)
    kinds = {m.split('"type":"', 1)[1].split('"')[0] for m in recording.sent.socket}
    assert {"joined", "snapshot", "event", "pong", "error"} <= kinds
    assert http >= 8 and socket > 50


def test_a_coin_game_sends_only_documented_messages() -> None:
    recording = Recording(site())
    with TestClient(recording) as client:
        me = client.post("/api/accounts", json={"username": "carol",
                                                "password": "correct horse"}).json()
        csrf = {"X-CSRF-Token": me["csrf"]}
        opened = client.post("/api/tables", json={"kind": "coin", "stake": 100}, headers=csrf)
        assert opened.status_code == 201, opened.text
        table = opened.json()
        client.post("/api/tables", json={"kind": "coin", "stake": 100}, headers=csrf)  # 409
        with client.websocket_connect(table["ws"]) as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": table["token"]})
            ws.send_json({"type": "hint"})  # refused at coin tables
            assert play_to_the_end(ws, refusals=frozenset({"hint_unavailable"}))["game_over"]
        for path in ("/api/me", "/api/me/ledger", "/api/me/games", "/api/stakes"):
            assert client.get(path).status_code == 200
        client.post("/api/me/topup", json={}, headers=csrf)
        client.post(f"/api/tables/{table['id']}/leave", json={}, headers=csrf)
        client.post("/api/session", json={"username": "carol", "password": "wrong horse"})
        client.request("DELETE", "/api/session", json={}, headers=csrf)
        http, socket = check_everything_sent(client, recording)
    assert http >= 10 and socket > 50


def test_an_online_game_sends_only_documented_messages() -> None:
    recording = Recording(site(public_url="https://euchre.example"))
    with TestClient(recording) as client:
        # Two people: the seats are claimed, the game starts, both are seated.
        made = client.post("/api/tables", json={"kind": "online", "name": "Ann"}).json()
        assert made["invite"] == f"https://euchre.example/online/{made['id']}"
        bob = client.post(f"/api/tables/{made['id']}/seats", json={"seat": 2, "name": "Bo"})
        assert bob.status_code == 201
        client.post(f"/api/tables/{made['id']}/seats", json={"seat": 2, "name": "Cy"})  # 409
        client.get("/api/online")
        client.get(f"/api/online/{made['id']}")
        client.post(f"/api/tables/{made['id']}/start", json={"token": "not the creator's"})
        assert client.post(f"/api/tables/{made['id']}/start",
                           json={"token": made["token"]}).status_code == 200
        with client.websocket_connect(made["ws"]) as ann, \
                client.websocket_connect(made["ws"]) as bo:
            ann.send_json({"type": "join", "protocol": 2, "token": made["token"]})
            bo.send_json({"type": "join", "protocol": 2, "token": bob.json()["token"]})
            bo.send_json({"type": "join", "token": bob.json()["token"],  # already joined
                          "protocol": 2})
            assert ann.receive_json()["type"] == "joined"
            seen = [bo.receive_json()]
            while seen[-1]["type"] != "error" and len(seen) < 10:
                seen.append(bo.receive_json())
            assert seen[0]["type"] == "joined"
            assert seen[-1]["message"].startswith("already joined")
        # One person and computers: a whole game (the computers never wait on a clock).
        alone = client.post("/api/tables", json={"kind": "online", "name": "Di"}).json()
        client.post(f"/api/tables/{alone['id']}/start", json={"token": alone["token"]})
        with client.websocket_connect(alone["ws"]) as di, \
                client.websocket_connect(alone["ws"]) as eve:
            # a spectator watches it all (from a snapshot: it holds no table)
            eve.send_json({"type": "watch", "since": None, "protocol": 2})
            eve.send_json({"type": "action", "action": "pass"})  # refused: no seat
            assert eve.receive_json()["seat"] is None
            di.send_json({"type": "join", "protocol": 2, "token": alone["token"]})
            di.send_json({"type": "hint"})  # refused at online tables
            assert play_to_the_end(di, refusals=frozenset({"hint_unavailable"}))["game_over"]
            while not eve.receive_json().get("table", {}).get("game_over"):
                pass
        private = client.post("/api/tables", json={"kind": "online", "spectators": False}).json()
        client.post(f"/api/tables/{private['id']}/start", json={"token": private["token"]})
        with client.websocket_connect(private["ws"]) as nosy:
            nosy.send_json({"type": "watch", "protocol": 2})
            assert nosy.receive_json()["code"] == "no_spectators"
        http, socket = check_everything_sent(client, recording)
    assert http >= 8 and socket > 50


def test_openapi_documents_every_route_and_serves_every_documented_path() -> None:
    for app in (site(), build_app(settings(), [practice_extension()])):
        with TestClient(app) as client:
            openapi = client.get("/openapi.json").json()
        served = {(m, r.path) for r in app.routes if isinstance(r, Route)
                  for m in (r.methods or ()) if m != "HEAD"}
        pages = {(m, p) for m, p in served if not p.startswith(("/api/", "/openapi",
                                                              "/asyncapi", "/healthz",
                                                              "/readyz", "/metrics"))}
        documented = {(m.upper(), p) for p, ops in openapi["paths"].items() for m in ops}
        assert served - pages - {("GET", "/metrics")} == documented
        assert all(client_page_only(app, p) for _, p in pages)


def test_openapi_declares_the_bot_token_where_a_bot_may_act() -> None:
    """Issue 34 item 7: the bearer scheme, on the operations that take a bot token (and
    as optional there: a person's cookie, or a guest, is as good); not elsewhere."""
    with TestClient(site()) as client:
        openapi = client.get("/openapi.json").json()
    scheme = openapi["components"]["securitySchemes"]["botToken"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    secured = {(m.upper(), p) for p, ops in openapi["paths"].items() for m, op in ops.items()
               if op.get("security") == [{"botToken": []}, {}]}
    assert {("POST", "/api/tables"), ("POST", "/api/tables/{table_id}/seats"),
            ("POST", "/api/online/quick"), ("GET", "/api/bot"),
            ("POST", "/api/online/{table_id}/leave")} <= secured
    assert ("POST", "/api/accounts") not in secured and ("GET", "/api/me") not in secured


def client_page_only(app: Any, path: str) -> bool:
    """Whether ``path`` serves the web client's page."""
    from euchre.server.core.pages import client_page

    return any(isinstance(r, Route) and r.path == path and r.endpoint is client_page
               for r in app.routes)


def test_two_apps_with_different_extensions_serve_only_their_own() -> None:
    full = site()
    practice_only = build_app(settings(), [practice_extension()])
    nothing = build_app(settings(), [])
    with TestClient(full) as a, TestClient(practice_only) as b, TestClient(nothing) as c:
        a_paths = set(a.get("/openapi.json").json()["paths"])
        b_paths = set(b.get("/openapi.json").json()["paths"])
        assert {"/api/online", "/api/me", "/api/stakes"} <= a_paths
        assert not {"/api/online", "/api/me", "/api/stakes"} & b_paths
        assert b.get("/api/online").status_code == 404
        coin = b.post("/api/tables", json={"kind": "coin", "stake": 100})
        assert coin.status_code == 400
        assert coin.json() == {"error": "unknown table kind 'coin': use one of practice",
                               "code": "unknown_kind"}
        assert b.post("/api/tables", json={}).status_code == 201
        assert c.post("/api/tables", json={}).json()["code"] == "unknown_kind"
        body = a.get("/openapi.json").json()["paths"]["/api/tables"]["post"]["requestBody"]
        kinds = body["content"]["application/json"]["schema"]["oneOf"]
        assert len(kinds) == 3
        body = b.get("/openapi.json").json()["paths"]["/api/tables"]["post"]["requestBody"]
        assert len(body["content"]["application/json"]["schema"]["oneOf"]) == 1
        assert a.post("/api/tables", json={"kind": "online", "name": "Ann"}).status_code == 201


def test_the_documents_enumerate_the_codes_own_levels_and_presets() -> None:
    from euchre.bots import LEVELS
    from euchre.rules import PRESETS

    with TestClient(site()) as client:
        openapi, asyncapi = documents(client)
    practice = openapi["components"]["schemas"]["PracticeTableRequest"]["properties"]
    assert practice["partner"]["enum"] == list(LEVELS)
    assert practice["preset"]["enum"] == list(PRESETS)
    assert asyncapi["asyncapi"].startswith("3.")
    assert set(asyncapi["components"]["messages"]) >= {"Join", "Act", "EventMessage"}


@pytest.mark.parametrize("body", [
    b"[" * 40 + b"]" * 40,
    b'{"a":' * 40 + b"1" + b"}" * 40,
    b"[" * 100000 + b"]" * 100000,
])
def test_deep_or_huge_json_is_a_bad_message(body: bytes) -> None:
    with TestClient(site()) as client:
        r = client.post("/api/tables", content=body,
                        headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "bad_message", r.text
        table = client.post("/api/tables", json={}).json()
        with client.websocket_connect(table["ws"]) as ws:
            ws.send_bytes(body[:5000])
            answer = ws.receive_json()
            assert answer["type"] == "error" and answer["code"] == "bad_message"


def test_errors_are_json_with_a_status_never_plain_text() -> None:
    with TestClient(site(), raise_server_exceptions=False) as client:
        missing = client.get("/no/such/page")
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        wrong_method = client.request("DELETE", "/api/presets", json={})
        assert wrong_method.status_code == 405
        assert wrong_method.json()["code"] == "method_not_allowed"
        assert client.get("/api/tables/nope").json() == {"error": "no table 'nope'",
                                                          "code": "no_table"}


def test_every_answer_has_the_security_headers_and_a_request_id() -> None:
    with TestClient(site()) as client:
        for path in ("/", "/api/presets", "/no/such/page", "/healthz"):
            r = client.get(path)
            assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["referrer-policy"] == "same-origin"
            assert r.headers["x-request-id"]
        assert client.get("/healthz", headers={"X-Request-ID": "abc-1"}).headers[
            "x-request-id"] == "abc-1"


def test_health_readiness_and_metrics() -> None:
    with TestClient(site(metrics_token="scrape-me")) as client:
        assert client.get("/healthz").json()["ok"] is True
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json() == {"ready": True, "database": "memory", "saver": "ok",
                                "solver": "ok", "redis": "not used"}
        table = client.post("/api/tables", json={}).json()
        with client.websocket_connect(table["ws"]) as ws:
            ws.send_json({"type": "join", "protocol": 2, "token": table["token"]})
            play_to_the_end(ws)
        text = client.get("/metrics", headers={"Authorization": "Bearer scrape-me"}).text
        assert 'euchre_tables{kind="practice"} 1.0' in text
        assert 'euchre_moves_total{by="person"}' in text
        assert "euchre_bot_decision_seconds_count" in text
        assert "euchre_save_seconds_count" in text


def test_metrics_are_served_only_for_the_operators_token() -> None:
    with TestClient(site()) as client:  # no token configured: not served at all
        for headers in ({}, {"Authorization": "Bearer "}, {"Authorization": "Bearer x"}):
            r = client.get("/metrics", headers=headers)
            assert r.status_code == 404 and "euchre_" not in r.text
            assert r.json()["code"] == "not_found"
    with TestClient(site(metrics_token="scrape-me")) as client:
        for headers in ({}, {"Authorization": "Bearer scrape-you"},
                        {"Authorization": "Basic scrape-me"}, {"Authorization": "scrape-me"},
                        {"Authorization": "Bearer scrape-me-too"}):
            r = client.get("/metrics", headers=headers)
            assert r.status_code == 401 and "euchre_" not in r.text, headers
            assert r.headers["www-authenticate"].startswith("Bearer")
        r = client.get("/metrics", headers={"Authorization": "bearer scrape-me"})
        assert r.status_code == 200 and "euchre_sockets" in r.text


def test_readiness_fails_with_the_reason_when_saves_fail() -> None:
    with TestClient(site()) as client:
        root_of(client.app).metrics.saved(0.01, False)
        r = client.get("/readyz")
        assert r.status_code == 503
        assert r.json()["saver"] == "the latest table save failed"
