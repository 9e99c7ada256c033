"""Real browsers (Chromium through Playwright): a seat belongs to the signed-in person, not
the browser. Ann sits down on her laptop; on her phone (another browser context, signed in
as ann) the start page, the lobby and the header list her games first; "Back to your table"
opens her hand there and she plays from it, while the laptop is told its seat is open
elsewhere. Play now from the phone leads to the quick table the laptop waits at, and her
coin table opens from "Back to your table" on /coins. Every page fails on a console error.

Screenshots at 1366x657 and 390x844 go to test-artifacts/seats/.
"""

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

CHOICES = ".actions button:enabled, .hand .card-button:enabled"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "seats"
SIZES = {"wide": (1366, 657), "phone": (390, 844)}

NewContext = Callable[..., BrowserContext]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The platform on a free port, computers without delay, cheap password hashes."""
    db = tmp_path_factory.mktemp("seats-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              limits=roomy_limits(), hand_pause=0.5, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


class Browser:
    """One browser (a fresh context): its page and every console error it logged."""

    def __init__(self, new_context: NewContext, base_url: str, size: str = "wide") -> None:
        width, height = SIZES[size]
        self.context = new_context(base_url=base_url,
                                   viewport={"width": width, "height": height})
        self.context.set_default_timeout(20_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))

    def sign(self, path: str, username: str) -> None:
        """Sign up (``/api/accounts``) or in (``/api/session``) in this browser."""
        r = self.context.request.post(path, data={"username": username,
                                                  "password": "correct horse"})
        assert r.ok, r.text()

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _move(page: Page) -> str:
    """Make one offered move (a bid button, else a card); what it was."""
    bids = page.locator(".actions button:enabled")
    if bids.count():
        text = bids.first.inner_text()
        bids.first.click()
        expect(bids).to_have_count(0)
        return text
    card = page.locator(".hand .card-button:enabled").first
    name = card.get_attribute("aria-label") or ""
    card.click()
    expect(page.get_by_role("group", name="Your hand").get_by_role(
        "button", name=name, exact=True)).to_have_count(0)
    return name


@pytest.mark.parametrize("size", ["wide", "phone"])
def test_a_practice_seat_follows_the_person_to_another_browser(
        new_context: NewContext, base_url: str, size: str) -> None:
    user = f"ann_{size}"
    laptop = Browser(new_context, base_url)
    laptop.sign("/api/accounts", user)
    laptop.page.goto("/")
    laptop.page.get_by_role("button", name="Practice", exact=True).click()
    expect(laptop.page).to_have_url(re.compile(r"/table/[\w-]+$"))
    table_url = laptop.page.url
    expect(laptop.page.locator(".hand .card-button").first).to_be_visible()

    phone = Browser(new_context, base_url, size)
    phone.page.goto(table_url)  # not signed in: no seat here, and what to do next
    expect(phone.page.get_by_role("heading", name="This table is not yours")).to_be_visible()
    steps = phone.page.locator("main")
    expect(steps.get_by_role("link", name="Sign in")).to_be_visible()
    expect(steps.get_by_role("link", name="Watch this game")).to_be_visible()
    phone.sign("/api/session", user)
    phone.page.goto("/")
    mine = phone.page.get_by_role("list", name="Your games")
    expect(mine).to_contain_text("Practice: being played")
    expect(phone.page.locator(".my-games-slot")).to_contain_text("Back to your table")
    phone.shot(f"home-your-games-{size}")
    mine.get_by_role("link", name="Back to your table").click()
    expect(phone.page).to_have_url(table_url)
    # The same hand in both browsers (read at her turn: nothing changes it until she moves),
    # and the laptop is told.
    phone.page.locator(CHOICES).first.wait_for()
    laptop.page.locator(CHOICES).first.wait_for()
    laptop_hand = sorted(laptop.page.get_by_role("group", name="Your hand").get_by_role(
        "button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))"))
    phone_hand = sorted(phone.page.get_by_role("group", name="Your hand").get_by_role(
        "button").evaluate_all("bs => bs.map(b => b.getAttribute('aria-label'))"))
    assert phone_hand == laptop_hand and len(phone_hand) in (5, 6)  # 6: dealer picked up
    expect(laptop.page.locator(".also-open")).to_contain_text("also open in another window")
    laptop.shot(f"laptop-told-{size}")
    # The phone plays the seat; the laptop sees the move.
    made = _move(phone.page)
    assert made
    phone.shot(f"phone-plays-{size}")
    if made.endswith(("Clubs", "Diamonds", "Hearts", "Spades")):  # a card: gone there too
        expect(laptop.page.get_by_role("group", name="Your hand").get_by_role(
            "button", name=made, exact=True)).to_have_count(0)
    else:  # a bid: the laptop's list of bids has hers
        expect(laptop.page.locator("aside.side")).to_contain_text(
            re.compile(r"You: (Passed|Ordered up|Picked up|Called)"))
    assert not laptop.errors and not phone.errors, "\n".join(laptop.errors + phone.errors)


def test_play_now_and_coins_lead_a_second_browser_to_the_seat_it_holds(
        new_context: NewContext, base_url: str) -> None:
    laptop = Browser(new_context, base_url)
    laptop.sign("/api/accounts", "ann_q")
    laptop.page.goto("/lobby")
    laptop.page.get_by_role("button", name="Play now").click()
    expect(laptop.page).to_have_url(re.compile(r"/online/[\w-]+$"))
    waiting_url = laptop.page.url
    expect(laptop.page.get_by_role("status").first).to_contain_text("You sit South")

    phone = Browser(new_context, base_url, "phone")
    phone.sign("/api/session", "ann_q")
    phone.page.goto("/lobby")
    mine = phone.page.get_by_role("list", name="Your games")
    expect(mine).to_contain_text("Online table, quick play: waiting for players")
    phone.shot("lobby-your-games-phone")
    phone.page.get_by_role("button", name="Play now").click()  # the table waited at
    expect(phone.page).to_have_url(waiting_url)
    expect(phone.page.get_by_role("status").first).to_contain_text("You sit South")
    phone.shot("play-now-again-phone")
    phone.page.get_by_role("button", name="Leave my seat").click()
    expect(phone.page.get_by_role("button", name="Leave my seat")).to_have_count(0)
    phone.page.goto("/lobby")
    expect(phone.page.locator("#your-games")).to_be_hidden()

    # A coin table opened on the laptop opens on the phone from /coins.
    laptop.page.goto("/coins")
    laptop.page.get_by_role("button", name=re.compile("Play for")).first.click()
    expect(laptop.page).to_have_url(re.compile(r"/table/[\w-]+$"))
    phone.page.goto("/coins")
    # the page's link (the header's has the same words: one label for going back)
    phone.page.locator("main").get_by_role("link", name="Back to your table").click()
    expect(phone.page).to_have_url(laptop.page.url)
    expect(phone.page.locator(".hand .card-button").first).to_be_visible()
    phone.shot("coin-table-phone")
    laptop.page.set_viewport_size({"width": 1366, "height": 657})
    expect(laptop.page.locator(".also-open")).to_be_visible()
    laptop.shot("coin-table-laptop-told")
    assert not laptop.errors and not phone.errors, "\n".join(laptop.errors + phone.errors)


def test_a_guest_who_signs_up_keeps_the_seat_in_every_browser(
        new_context: NewContext, base_url: str) -> None:
    laptop = Browser(new_context, base_url)
    laptop.page.goto("/")
    laptop.page.get_by_role("button", name="Practice", exact=True).click()  # as a guest
    expect(laptop.page).to_have_url(re.compile(r"/table/[\w-]+$"))
    table_url = laptop.page.url
    laptop.page.goto("/account")
    form = laptop.page.locator('form[data-form="sign-up"]')
    form.get_by_label("Username").fill("ann_guest")
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    expect(laptop.page.locator(".my-games-slot")).to_contain_text("Back to your table")
    phone = Browser(new_context, base_url, "phone")
    phone.sign("/api/session", "ann_guest")
    phone.page.goto("/")
    phone.page.get_by_role("list", name="Your games").get_by_role(
        "link", name="Back to your table").click()
    expect(phone.page).to_have_url(table_url)
    expect(phone.page.locator(".hand .card-button").first).to_be_visible()
    phone.shot("guest-seat-kept-phone")
    assert not laptop.errors and not phone.errors, "\n".join(laptop.errors + phone.errors)
