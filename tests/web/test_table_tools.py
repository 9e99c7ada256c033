"""The table's tools: hints, the last trick, the rules page, the record download."""

from __future__ import annotations

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
    page.get_by_label("Stick the dealer").check()
    page.get_by_label("Game to").select_option("7")
    page.get_by_label("Partner (North)").select_option("hard")
    page.get_by_label("Left opponent (West)").select_option("easy")
    page.get_by_role("button", name="Start this table").click()
    expect(page.locator(".seat-north .seat-detail")).to_have_text("partner · hard")
    expect(page.locator(".seat-west .seat-detail")).to_have_text("easy")
    expect(page.locator(".score-target")).to_have_text("Game to 7")
    page.get_by_role("link", name="Rules", exact=True).last.click()
    rules = page.get_by_role("region", name="House rules at this table")
    expect(rules).to_contain_text("Game to 7 points.")
    expect(rules).to_contain_text("Stick the dealer")
    # The start page remembers the choices for next time.
    page.goto("/")
    expect(page.get_by_label("Stick the dealer")).to_be_checked()
    expect(page.get_by_label("Partner (North)")).to_have_value("hard")
