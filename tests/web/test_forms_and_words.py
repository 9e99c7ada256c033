"""Forms and words (issue 36 item 7), in a real browser at 1366x657, 390x844 and 360x740
(screenshots in test-artifacts/words/): an unknown page is the site's 404 page (the API
keeps JSON); the bot
protocol is a page of the site, linked from the account page, and a new bot token comes
into view; the sign-up form states the password rule before anything is sent; a guest
cannot tick Rated nor choose a stake, and a signed-in person is not asked for a name; the
Sound button says whether sound is on."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from live_server import live_server

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "words"
SIZES = (("wide", 1366, 657), ("phone", 390, 844), ("small", 360, 740))


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("words-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              limits=roomy_limits(), hand_pause=0.5, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


def test_the_bot_documents_served_are_the_projects_own() -> None:
    """/static/docs/ holds docs/outside_bots.md and docs/engine_protocol.md as they are (a
    change to one is copied to the other: `cp docs/outside_bots.md docs/engine_protocol.md
    src/euchre/web/static/docs/`)."""
    for name in ("outside_bots.md", "engine_protocol.md"):
        served = ROOT / "src" / "euchre" / "web" / "static" / "docs" / name
        assert served.read_text() == (ROOT / "docs" / name).read_text(), name


def _page(new_context: Callable[..., BrowserContext], base_url: str, width: int,
          height: int) -> Page:
    context = new_context(base_url=base_url, viewport={"width": width, "height": height})
    context.set_default_timeout(20_000)
    return context.new_page()


@pytest.mark.console_errors(r"status of 404")  # the 404 pages themselves, asked for on purpose
@pytest.mark.parametrize(("size", "width", "height"), SIZES)
def test_forms_and_words(new_context: Callable[..., BrowserContext], base_url: str, size: str,
                         width: int, height: int) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = _page(new_context, base_url, width, height)
    # An unknown page: the site's 404 page, in HTML; the API keeps its JSON.
    answer = page.goto("/no/such/page")
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    expect(page.get_by_role("link", name="The lobby")).to_have_attribute("href", "/lobby")
    page.screenshot(path=str(ARTIFACTS / f"404-{size}.png"))
    api = page.request.get("/api/no-such-thing", headers={"Accept": "text/html"})
    assert api.status == 404 and api.json()["code"] == "not_found"

    # A guest: Rated and the stake cannot be chosen; the name is asked.
    page.goto("/online")
    form = page.get_by_role("form", name="Create an online table")
    expect(form.get_by_label(re.compile("^Rated"))).to_be_disabled()
    expect(form.get_by_label(re.compile("^Coin stake"))).to_be_disabled()
    expect(form.get_by_label("Your name")).to_be_visible()
    expect(form).to_contain_text("Rated tables and stakes are for signed-in people.")
    page.goto("/lobby")
    expect(page.get_by_label(re.compile("^Rated"))).to_be_disabled()

    # Sign-up states its rules before anything is sent.
    page.goto("/account")
    signup = page.locator('form[data-form="sign-up"]')
    expect(signup.locator("#password-rule")).to_have_text(re.compile(r"^At least 8 characters"))
    expect(signup.get_by_label("Password")).to_have_attribute("aria-describedby",
                                                             "password-rule")
    signup.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"sign-up-{size}.png"))
    signup.get_by_label("Username").fill(f"words_{size}")
    signup.get_by_label("Password").fill("correct horse")
    signup.get_by_role("button", name="Create account").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"words_{size}")

    # Signed in: no name asked, Rated may be ticked.
    page.goto("/online")
    form = page.get_by_role("form", name="Create an online table")
    expect(form.get_by_label("Your name")).to_be_hidden()
    expect(form.get_by_label(re.compile("^Rated"))).to_be_enabled()
    expect(form.locator(".guest-note")).to_be_hidden()

    # The bot protocol: a page of the site, linked from the account page; a new token in view.
    page.goto("/account")
    bots = page.get_by_role("region", name="Your bots")
    bots.get_by_label("Bot name").fill(f"bot_{size}")
    bots.get_by_role("button", name="Make a bot token").click()
    token = page.get_by_label("Your new token")
    expect(token).to_be_in_viewport()
    expect(token).to_be_focused()
    expect(token).to_have_value(re.compile(r"^eb_"))
    page.screenshot(path=str(ARTIFACTS / f"bot-token-{size}.png"))
    page.get_by_role("link", name="How a bot talks to the table").click()
    expect(page).to_have_url(re.compile(r"/bots$"))
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Outside bots: your program at a real table")
    expect(page.get_by_role("heading", name="Tokens", level=2)).to_be_visible()
    expect(page.locator(".doc-page pre").first).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"bots-page-{size}.png"))
    page.get_by_role("link", name="The engine protocol").first.click()
    expect(page).to_have_url(re.compile(r"/bots/engine$"))
    expect(page.locator(".doc-page h1")).to_be_visible()

    # The Sound button says its state, in words and in aria-pressed.
    page.goto("/")
    page.get_by_role("button", name="Practice", exact=True).click()
    sound = page.get_by_role("button", name=re.compile("^Sound"))
    expect(sound).to_have_text("Sound: off")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()
    expect(sound).to_have_text("Sound: on")
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.screenshot(path=str(ARTIFACTS / f"sound-{size}.png"))
