"""In real browsers against a real server: Bob, at Ann's home, tries to sit at Ann's rated
table and is told why not; Cyd, from elsewhere, sits; and Bob, signed in on Cyd's browser
from yet another network, is refused too (one browser, one person).

The test server takes each browser's address from ``X-Forwarded-For`` (the requests come
from 127.0.0.1, a trusted proxy, as ``euchre serve`` behind nginx)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from live_server import live_server

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ratings"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("same-origin") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              hand_pause=0.0, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


def _person(new_context: Callable[..., BrowserContext], base_url: str, name: str,
            address: str, errors: list[str]) -> tuple[Page, str]:
    context = new_context(base_url=base_url, viewport={"width": 1280, "height": 800},
                          extra_http_headers={"X-Forwarded-For": address})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
    page.goto("/account")  # the page gives the browser its id
    r = context.request.post("/api/accounts", data={"username": name,
                                                    "password": "correct horse"})
    assert r.status == 201, r.text()
    return page, str(r.json()["csrf"])


def _sit_west(page: Page, table_id: str) -> None:
    page.goto(f"/online/{table_id}")
    page.get_by_role("button", name="Sit West").click()


def test_a_household_is_refused_a_second_seat_at_a_rated_table(
        new_context: Callable[..., BrowserContext], base_url: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    ann, csrf = _person(new_context, base_url, "annhome", "203.0.113.7", errors)
    made: Any = ann.context.request.post("/api/tables", data={
        "kind": "online", "rated": True, "seconds_per_move": 60},
        headers={"X-CSRF-Token": csrf}).json()
    table_id = made["id"]

    bob, _ = _person(new_context, base_url, "bobhome", "203.0.113.7", errors)  # Ann's home
    _sit_west(bob, table_id)
    expect(bob.get_by_text("Could not take that seat: a rated game needs four people on "
                           "four different connections")).to_be_visible()
    bob.screenshot(path=str(SHOTS / "same-address-refused.png"))
    seats = bob.context.request.get(f"/api/online/{table_id}").json()["seats"]
    assert [s["taken"] for s in seats] == [True, False, False, False]

    cyd, _ = _person(new_context, base_url, "cydaway", "198.51.100.20", errors)
    _sit_west(cyd, table_id)
    expect(cyd.get_by_text("Could not take that seat")).to_have_count(0)
    expect(cyd.get_by_role("button", name="Sit West")).to_have_count(0)
    seats = cyd.context.request.get(f"/api/online/{table_id}").json()["seats"]
    assert [s["name"] for s in seats] == ["annhome", "cydaway", None, None]

    # Bob signs in on Cyd's browser, which is on a third network now: the browser is Cyd's.
    # The table page is left first: its requests would meet the moment nobody is signed in.
    cyd.goto("about:blank")
    cyd.context.set_extra_http_headers({"X-Forwarded-For": "192.0.2.55"})
    cyd.context.request.delete("/api/session", headers={"content-type": "application/json"})
    signed = cyd.context.request.post("/api/session", data={"username": "bobhome",
                                                            "password": "correct horse"})
    assert signed.status == 200
    cyd.goto("/account")
    cyd.evaluate("localStorage.clear()")  # the page would show Cyd's seat as this person's
    cyd.goto(f"/online/{table_id}")
    cyd.get_by_role("button", name="Sit North").click()
    expect(cyd.get_by_text("Could not take that seat: a rated game needs four people on "
                           "four different connections")).to_be_visible()
    cyd.screenshot(path=str(SHOTS / "same-browser-refused.png"))
    assert not errors, errors
