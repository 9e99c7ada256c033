"""A page on another port of the same host, in the browser where a person is signed in,
tries to open the person's table socket (issue 34, item 2). The browser sends the session
cookie (``SameSite`` does not tell ports apart), but the socket is closed before any join
with 4403 and the reason, and nothing of the table reaches the page; the site's own page
opens the same seat from the cookie as ever."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.server.core.web_origin import CLOSE_OTHER_ORIGIN, SOCKET_REFUSAL
from live_server import live_server

pytestmark = pytest.mark.browser

# Opens the table socket, sends a join without a token (the seat from the session cookie)
# and gathers what comes until the socket closes or two messages have come.
_TRY_SOCKET = """async (url) => await new Promise((done) => {
  const got = [];
  const ws = new WebSocket(url);
  ws.onopen = () => ws.send(JSON.stringify({type: "join", token: null, protocol: 2}));
  ws.onmessage = (e) => { got.push(JSON.parse(e.data)); if (got.length >= 2) ws.close(); };
  ws.onclose = (e) => done({code: e.code, reason: e.reason, got});
})"""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("other-origin") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              hand_pause=0.0, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


@pytest.fixture(scope="module")
def other_port() -> Iterator[str]:
    """A page served on another port of the same host (127.0.0.1)."""
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    async def page(request: object) -> HTMLResponse:
        return HTMLResponse("<!doctype html><title>Another port</title><p>hello</p>")

    with live_server(Starlette(routes=[Route("/", page)])) as url:
        yield url + "/"


@pytest.mark.console_errors(r"status of 404 .*/favicon\.ico")
def test_a_page_on_another_port_gets_nothing_from_the_table_socket(
        new_context: Callable[..., BrowserContext], base_url: str, other_port: str) -> None:
    context = new_context(base_url=base_url)
    own = context.new_page()
    own.goto("/account")
    signed = own.evaluate("""async () => (await fetch("/api/accounts", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({username: "ann_port", password: "correct horse"})})).json()""")
    made = own.evaluate("""async (csrf) => (await fetch("/api/tables", {method: "POST",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
        body: JSON.stringify({kind: "practice"})})).json()""", signed["csrf"])
    url = base_url.replace("http://", "ws://") + made["ws"]

    other = context.new_page()  # the same browser: the session cookie goes along
    other.goto(other_port)
    assert other.evaluate("location.port") != own.evaluate("location.port")
    refused: dict[str, Any] = other.evaluate(_TRY_SOCKET, url)
    assert refused == {"code": CLOSE_OTHER_ORIGIN, "reason": SOCKET_REFUSAL, "got": []}

    # The site's own page: the same socket, the same cookie, the seat and its hand.
    joined: dict[str, Any] = own.evaluate(_TRY_SOCKET, url)
    assert joined["got"][0]["type"] == "joined" and joined["got"][0]["seat"] == 0
    # Five cards, or six while South, the dealer, holds the upcard it was ordered to take
    # (the computers bid before the socket joined).
    assert len(joined["got"][1]["table"]["view"]["hand"]) in (5, 6)
