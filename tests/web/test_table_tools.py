"""The table's tools: hints, the last trick, the rules page, the record download."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from web_helpers import choices, make_a_move, screenshot, start_table

pytestmark = pytest.mark.browser


def test_hint_lists_an_estimate_for_every_choice(page: Page, artifacts: Path) -> None:
    start_table(page, "classic")
    choices(page).first.wait_for()
    offered = choices(page).count()
    page.get_by_role("button", name="Hint").click()
    hints = page.get_by_role("region", name="Hints").get_by_role("listitem")
    expect(hints.first).to_be_visible()
    expect(hints).to_have_count(offered)
    # The estimates are said against each other, not as bare gains or losses.
    expect(hints.first).to_contain_text("the best choice")
    if offered > 1:
        expect(hints.nth(1)).to_contain_text(re.compile(r"(worse than|as good as) "))
    # Asking for a hint does not scroll the page (the header stays in view).
    assert page.evaluate("scrollY") == 0
    screenshot(page, artifacts / "hint.png")


def test_last_trick_can_be_viewed_until_the_next_lead(page: Page, artifacts: Path) -> None:
    start_table(page, "classic")
    last = page.get_by_role("button", name="Last trick")
    for _ in range(200):
        choices(page).first.wait_for()
        if last.is_enabled():
            break
        make_a_move(page, ("Order up", "Pass"))
    expect(last).to_be_enabled()
    last.click()
    expect(last).to_have_attribute("aria-expanded", "true")
    panel = page.get_by_role("region", name="Last trick")
    expect(panel).to_contain_text("won it")
    assert panel.get_by_role("listitem").count() in (3, 4)  # 3 when a player sits out
    screenshot(page, artifacts / "last-trick.png")
    panel.get_by_role("button", name="Close").click()
    expect(panel).to_have_count(0)


def test_rules_page_shows_the_house_rules_of_the_table(page: Page, artifacts: Path) -> None:
    table_url = start_table(page, "stick-the-dealer")
    page.get_by_role("link", name="Rules", exact=True).last.click()
    rules = page.get_by_role("region", name="House rules at this table")
    expect(rules).to_contain_text("Game to 10 points.")
    expect(rules).to_contain_text("Stick the dealer")
    screenshot(page, artifacts / "rules.png")
    page.get_by_role("link", name="Back to your table").click()
    expect(page).to_have_url(table_url)
    choices(page).first.wait_for()


def test_record_downloads_as_text(page: Page) -> None:
    start_table(page, "classic")
    choices(page).first.wait_for()
    with page.expect_download() as download:
        page.get_by_role("button", name="Download record").click()
    path = download.value.path()
    assert download.value.suggested_filename.endswith(".txt")
    assert Path(path).read_text().startswith("euchre-record")


def test_start_page_choices_reach_the_table(page: Page) -> None:
    page.goto("/")
    page.get_by_label("Preset").select_option("classic")
    summary = page.locator(".preset-help")
    expect(summary).to_contain_text("the hand is thrown in")
    page.get_by_label("Stick the dealer").check()
    # The summary follows the options: no contradiction with the box just ticked.
    expect(summary).to_contain_text("Stick the dealer: if everyone passes twice")
    expect(summary).not_to_contain_text("the hand is thrown in")
    # The web tables check every card, so the renege penalty is not offered.
    expect(page.get_by_label("Renege penalty")).to_have_count(0)
    expect(page.get_by_label("Farmer's hand")).to_be_visible()
    page.get_by_label("Game to").select_option("7")
    page.get_by_label("Partner (North)").select_option("hard")
    page.get_by_label("Left opponent (West)").select_option("easy")
    page.get_by_role("button", name="Start this table").click()
    expect(page.locator(".seat-north .seat-detail")).to_have_text("partner")
    expect(page.locator(".seat-north .seat-mark")).to_have_text("computer · hard")
    expect(page.locator(".seat-west .seat-mark")).to_have_text("computer · easy")
    expect(page.locator(".seat-west .seat-title")).to_have_text("West")
    expect(page.locator(".score-target")).to_have_text("Game to 7")
    page.get_by_role("link", name="Rules", exact=True).last.click()
    rules = page.get_by_role("region", name="House rules at this table")
    expect(rules).to_contain_text("Game to 7 points.")
    expect(rules).to_contain_text("Stick the dealer")
    # The start page remembers the choices for next time.
    page.goto("/")
    expect(page.get_by_label("Stick the dealer")).to_be_checked()
    expect(page.get_by_label("Partner (North)")).to_have_value("hard")


def test_play_this_hand_from_the_guide(page: Page, artifacts: Path) -> None:
    page.goto("/learn")
    example = page.get_by_role("article", name="Order up with both bowers")
    expect(example).to_contain_text("Upcard")
    screenshot(page, artifacts / "learn.png")
    example.get_by_role("button", name="Play this hand").click()
    expect(page).to_have_url(re.compile(r"/table/[\w-]+$"))
    hand = page.get_by_role("group", name="Your hand")
    for card in ("Jack of Hearts", "Jack of Diamonds", "Ace of Hearts", "King of Clubs",
                 "Nine of Spades"):
        expect(hand.get_by_role("button", name=card, exact=True)).to_be_visible()
    expect(page.get_by_role("img", name="Upcard: Nine of Hearts")).to_be_visible()
    # Hints are on: the analysis of the first decision comes by itself.
    hints = page.get_by_role("region", name="Hints").get_by_role("listitem")
    expect(hints.first).to_contain_text("the best choice", timeout=30_000)
    screenshot(page, artifacts / "learn-example-table.png", full_page=False)
