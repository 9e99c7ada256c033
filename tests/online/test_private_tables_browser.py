"""A real browser, private means private (issue 36): Ann opens a private table from the
online form (the choice beside "Let people who are not playing watch the game", a choice
apart); its waiting page says it is private; Bob's lobby and the start page's list show
only the public table Cy opened (marked "public table"); Bob, given the link, sits. At
1366x657, 390x844 and 360x740, screenshots in test-artifacts/private/."""

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

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "private"
SIZES = (("wide", 1366, 657), ("phone", 390, 844), ("small", 360, 740))


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("private-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              limits=roomy_limits(), hand_pause=0.5, resume=False))
    with live_server(app) as url:
        yield url


def _page(new_context: Callable[..., BrowserContext], base_url: str, width: int,
          height: int) -> Page:
    context = new_context(base_url=base_url, viewport={"width": width, "height": height})
    context.set_default_timeout(20_000)
    return context.new_page()


def _open(page: Page, name: str, private: bool) -> str:
    page.goto("/online")
    form = page.get_by_role("form", name="Create an online table")
    form.get_by_label("Your name").fill(name)
    form.get_by_label(re.compile("^Private: not listed" if private else "^Public: listed")).check()
    page.get_by_role("button", name="Create an online table").click()
    expect(page).to_have_url(re.compile(r"/online/[\w-]+$"))
    return page.url.rsplit("/", 1)[1]


@pytest.mark.parametrize(("size", "width", "height"), SIZES)
def test_a_private_table_is_reached_only_by_its_link(
        new_context: Callable[..., BrowserContext], base_url: str, size: str, width: int,
        height: int) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    ann = _page(new_context, base_url, width, height)
    ann.goto("/online")
    form = ann.get_by_role("form", name="Create an online table")
    # Two choices, two names: who can find the table, and whether others may watch.
    expect(form.get_by_role("group", name="Who can find the table")).to_be_visible()
    expect(form.get_by_label(re.compile("^Public: listed"))).to_be_checked()
    expect(form.get_by_label("Let people who are not playing watch the game")).to_be_checked()
    form.get_by_label("Your name").fill(f"Ann{size}")
    form.get_by_label(re.compile("^Private: not listed")).check()
    form.get_by_role("group", name="Who can find the table").scroll_into_view_if_needed()
    ann.screenshot(path=str(ARTIFACTS / f"form-{size}.png"))
    ann.get_by_role("button", name="Create an online table").click()
    expect(ann).to_have_url(re.compile(r"/online/[\w-]+$"))
    secret = ann.url.rsplit("/", 1)[1]
    expect(ann.locator(".visibility-line")).to_have_text(
        "Private table: not listed in the lobby; only people with the invite link can join. "
        "People who are not playing may watch the game.")
    ann.screenshot(path=str(ARTIFACTS / f"waiting-private-{size}.png"), full_page=True)

    cy = _page(new_context, base_url, width, height)
    public = _open(cy, f"Cy{size}", private=False)
    expect(cy.locator(".visibility-line")).to_contain_text(
        "Public table: listed in the lobby, anyone may join.")

    bob = _page(new_context, base_url, width, height)
    bob.goto("/lobby")
    row = bob.locator(f'#lobby-open li[data-id="{public}"]')
    expect(row).to_contain_text("public table")
    expect(bob.locator(f'#lobby-open li[data-id="{secret}"]')).to_have_count(0)
    expect(bob.locator("#lobby-open")).not_to_contain_text(f"Ann{size}")
    bob.screenshot(path=str(ARTIFACTS / f"lobby-{size}.png"), full_page=True)
    bob.goto("/online")
    listed = bob.get_by_role("list", name="Open online tables")
    expect(listed).to_contain_text(f"Cy{size}'s table")
    expect(listed).not_to_contain_text(f"Ann{size}")
    # The link leads there, and Bob sits.
    bob.goto(f"/online/{secret}")
    expect(bob.locator(".visibility-line")).to_contain_text("Private table")
    bob.get_by_label("Your name").fill(f"Bob{size}")
    bob.get_by_role("button", name="Sit West").click()
    expect(bob.get_by_role("list", name="Seats")).to_contain_text(f"West: Bob{size} (you)")
    expect(ann.get_by_role("list", name="Seats")).to_contain_text(f"West: Bob{size}")
    bob.screenshot(path=str(ARTIFACTS / f"seated-by-link-{size}.png"), full_page=True)
