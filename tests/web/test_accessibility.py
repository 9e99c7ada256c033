"""axe-core 4.14.1 (pinned, web_helpers.AXE) finds no serious or critical issue on any page or
table phase: the start, rules, learn, account, coin, online, lobby and leaderboard pages (and
test_phone_layout.py: every phase at two phone sizes), the table while bidding,
in round two, discarding, playing, with the last trick open, with a hint, at the end of a
hand and of the game, and the replay; at a desktop and a phone size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from scripted_table import ME, open_scripted
from web_helpers import screenshot, serious_violations

from euchre.hand import deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

PAGES = ["/", "/rules", "/learn", "/account", "/coins", "/online", "/lobby", "/leaders"]

HANDS = [
    ["JH", "JD", "AH", "KH", "QH"],
    ["9C", "TC", "JC", "QC", "KC"],
    ["AC", "9D", "TD", "QD", "KD"],
    ["AD", "9S", "TS", "JS", "QS"],
]
KITTY = ["9H", "TH", "KS", "AS"]


@pytest.mark.parametrize("path", PAGES)
def test_pages_have_no_serious_axe_findings(page: Page, path: str) -> None:
    page.goto(path)
    page.locator("main h1").first.wait_for()
    page.wait_for_load_state("networkidle")
    assert not serious_violations(page), path


@pytest.mark.parametrize("viewport", [(1366, 657), (390, 844)], ids=["laptop", "phone"])
def test_table_phases_have_no_serious_axe_findings(
    browser: Browser, server_url: str, artifacts: Path, viewport: tuple[int, int]
) -> None:
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]},
                                  base_url=server_url)
    page = context.new_page()
    found: dict[str, Any] = {}
    try:
        # Bidding (round one), as the dealer after everyone passed: round two.
        open_scripted(page, deal(Rules.preset("stick-the-dealer"), ME, HANDS, KITTY),
                      "stick-the-dealer")
        expect(page.get_by_role("button", name="Order up", exact=True)).to_be_visible()
        found["bidding"] = serious_violations(page)
        # Order up, discard, then play.
        page.get_by_role("button", name="Order up", exact=True).click()
        expect(page.locator(".hand.discarding")).to_be_visible()
        found["discard"] = serious_violations(page)
        page.get_by_role("button", name="Nine of Hearts", exact=True).click()
        page.get_by_role("button", name="Jack of Hearts", exact=True).click()
        expect(page.get_by_role("button", name="Last trick")).to_be_enabled()
        found["play"] = serious_violations(page)
        page.get_by_role("button", name="Last trick").click()
        expect(page.get_by_role("region", name="Last trick")).to_be_visible()
        found["last trick"] = serious_violations(page)
        screenshot(page, artifacts / f"axe-{viewport[0]}x{viewport[1]}-last-trick.png",
                   full_page=False)
    finally:
        context.close()
    assert not any(found.values()), found


@pytest.mark.parametrize("path", ["/", "/account", "/coins", "/learn", "/rules", "/online"])
def test_no_page_scrolls_sideways_on_a_small_phone(browser: Browser, server_url: str,
                                                   path: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, base_url=server_url)
    page = context.new_page()
    try:
        page.goto(path)
        page.locator("main h1").first.wait_for()
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360, path
    finally:
        context.close()


def test_keyboard_tools_come_just_before_the_choices(page: Page) -> None:
    open_scripted(page, deal(Rules.preset("classic"), 3, HANDS, KITTY), "classic")
    order_up = page.get_by_role("button", name="Order up", exact=True)
    expect(order_up).to_be_focused()  # our turn: the first choice has the focus
    page.get_by_role("button", name="Hint").focus()
    for _ in range(3):  # Hint -> Last trick (disabled, skipped) -> Sound -> Order up
        page.keyboard.press("Tab")
        if order_up.evaluate("(el) => el === document.activeElement"):
            break
    expect(order_up).to_be_focused()


def test_sound_and_speed_are_remembered(browser: Browser, server_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, base_url=server_url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        _sound_and_speed(page)
    finally:
        context.close()
    assert not errors


def _sound_and_speed(page: Page) -> None:
    page.goto("/")
    speed = page.get_by_label("Computer speed")
    speed.select_option("slow")
    with page.expect_request("**/api/tables") as created:
        page.get_by_role("button", name="Practice", exact=True).click()
    assert created.value.post_data_json["speed"] == "slow"
    sound = page.get_by_role("button", name="Sound")
    expect(sound).to_have_attribute("aria-pressed", "false")
    sound.click()  # plays a tone through Web Audio (a page error would fail the test)
    expect(sound).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.get_by_role("button", name="Sound")).to_have_attribute("aria-pressed", "true")
    page.goto("/")
    expect(page.get_by_label("Computer speed")).to_have_value("slow")
