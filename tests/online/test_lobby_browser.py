"""A real browser: Ann (a laptop) and Bob (a phone) each press Play now in the lobby with
the same rules and clock, land at the same table, see each other arrive without reloading,
agree to fill the empty seats with computers, and the game starts for both; a third person's
lobby lists the game live with a Watch link. Screenshots at 1366x768 and 390x844."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect

from euchre.server import Settings, create_app
from live_server import live_server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "lobby"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

NewContext = Callable[..., BrowserContext]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("lobby-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              limits=roomy_limits(), hand_pause=0.5, resume=False))
    with live_server(app) as url:
        yield url


def _person(new_context: NewContext, base_url: str, viewport: dict[str, int],
            errors: list[str]) -> Page:
    options = {"is_mobile": True, "has_touch": True} if viewport == PHONE else {}
    context = new_context(base_url=base_url, viewport=viewport, **options)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _shot(page: Page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, animations="disabled")


def _play_now(page: Page, name: str, clock: str) -> None:
    page.get_by_label("Your name").fill(name)
    page.get_by_label("Clock").select_option(clock)
    page.get_by_role("button", name="Play now").click()
    expect(page).to_have_url(re.compile(r"/online/[\w-]+$"))


def test_two_people_meet_through_play_now_agree_to_fill_and_play(new_context: NewContext,
                                                                 base_url: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    ann = _person(new_context, base_url, LAPTOP, errors)
    bob = _person(new_context, base_url, PHONE, errors)
    cy = _person(new_context, base_url, LAPTOP, errors)

    # Ann finds the lobby from the home page's navigation.
    ann.goto("/")
    ann.get_by_role("navigation", name="Main").get_by_role("link", name="Lobby").click()
    expect(ann.get_by_role("heading", name="Lobby")).to_be_visible()
    expect(ann.locator(".lobby-status")).to_contain_text("Live")
    bob.goto("/lobby")
    expect(bob.locator(".lobby-status")).to_contain_text("Live")
    _shot(bob, "phone-lobby-empty")

    _play_now(ann, "Ann", "15")
    table_url = ann.url
    expect(ann.get_by_role("status").first).to_contain_text("Waiting for more people")

    # Bob's lobby lists Ann's table without a reload: her name, the clock, a Join button.
    row = bob.locator("#lobby-open li", has_text="Ann")
    expect(row).to_contain_text("15 s a move")
    expect(row).to_contain_text("3 seats free")
    expect(row.get_by_role("link", name=re.compile("^Join"))).to_be_visible()
    _shot(bob, "phone-lobby-one-table")
    cy.goto("/lobby")
    expect(cy.locator("#lobby-open li", has_text="Ann")).to_be_visible()
    _shot(cy, "laptop-lobby-one-table")

    _play_now(bob, "Bob", "15")
    assert bob.url == table_url, "Play now with the same rules and clock found Ann's table"
    # Ann's waiting page shows Bob arrive, pushed.
    expect(ann.get_by_role("list", name="Seats")).to_contain_text("Bob")
    expect(cy.locator("#lobby-open li", has_text="Ann")).to_contain_text("Ann, Bob")
    expect(cy.locator("#lobby-open li", has_text="Ann")).to_contain_text("2 seats free")

    ann.get_by_role("button", name="Fill the empty seats with computers").click()
    expect(ann.locator(".fill-wait")).to_contain_text("Waiting for Bob")
    expect(bob.get_by_role("list", name="Seats")).to_contain_text("agreed to fill")
    _shot(ann, "laptop-waiting-agreed")
    _shot(bob, "phone-waiting")

    bob.get_by_role("button", name="Fill the empty seats with computers").click()
    table_id = table_url.rsplit("/", 1)[1]
    for page in (ann, bob):
        expect(page).to_have_url(re.compile(rf"/table/{table_id}$"))
        expect(page.locator(".hand")).to_be_visible()
    expect(ann.get_by_text("Bob", exact=False).first).to_be_visible()
    _shot(bob, "phone-table")

    # Cy's lobby: the table left the open list, and the game is there to watch.
    expect(cy.locator("#lobby-open li", has_text="Ann")).to_have_count(0)
    watch = cy.locator("#lobby-games li", has_text="Ann").get_by_role("link", name=re.compile(
        "^Watch"))
    expect(watch).to_have_attribute("href", f"/watch/{table_id}")
    _shot(cy, "laptop-lobby-live-game")
    bob.goto("/lobby")
    expect(bob.locator("#lobby-games li", has_text="Ann")).to_be_visible()
    _shot(bob, "phone-lobby-live-game")
    assert not errors, errors
