"""Readable tricks and an honest table, from scripted hands: the finished trick stays a
second before it sweeps (the browser's clock is Playwright's, moved by the test), the
last-trick look works on a phone, a move the clock made is marked, the screen reader's log
hears every card and trick in order, and prompts give the house rule's reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from scripted_table import ME, open_scripted
from web_helpers import off_screen_choices, screenshot

from euchre.hand import HandState, deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

# South holds five hearts (both bowers); East deals, so South bids first and leads first.
STRONG = [
    ["JH", "JD", "AH", "KH", "QH"],
    ["9C", "TC", "JC", "QC", "KC"],
    ["AC", "9D", "TD", "QD", "KD"],
    ["AD", "9S", "TS", "JS", "QS"],
]
STRONG_KITTY = ["9H", "TH", "KS", "AS"]

WEAK = [
    ["9C", "9D", "TS", "TC", "QD"],
    ["JC", "QC", "KC", "AC", "KD"],
    ["JD", "AD", "TH", "9H", "TD"],
    ["JH", "QH", "KH", "AH", "9S"],
]
WEAK_KITTY = ["JS", "QS", "KS", "AS"]


def strong_hand() -> HandState:
    return deal(Rules.preset("classic"), 3, STRONG, STRONG_KITTY)


def lead_the_right_bower(page: Page) -> None:
    """Order up, then lead the Jack of Hearts: everyone follows and we win the trick."""
    page.get_by_role("button", name="Order up", exact=True).click()
    page.get_by_role("button", name="Jack of Hearts", exact=True).click()


def test_a_finished_trick_stays_a_second_then_sweeps_to_the_winner(page: Page) -> None:
    page.clock.install(time=1_000_000)
    table = open_scripted(page, strong_hand(), "classic")
    page.clock.pause_at(2_000_000)
    lead_the_right_bower(page)
    trick = page.locator(".trick")
    expect(trick.locator(".trick-card")).to_have_count(4)
    expect(trick.locator(".trick-card.winning")).to_have_attribute("data-card", "JH")
    page.clock.run_for(990)
    expect(trick).not_to_have_class("trick gather-south")
    expect(trick.locator(".trick-card")).to_have_count(4)
    page.clock.run_for(20)
    expect(trick).to_have_class("trick gather-south")
    assert not table.errors


def test_the_last_trick_can_be_looked_at_on_a_phone(browser: Browser, server_url: str,
                                                    artifacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server_url)
    page = context.new_page()
    try:
        open_scripted(page, strong_hand(), "classic")
        lead_the_right_bower(page)
        last = page.get_by_role("button", name="Last trick")
        expect(last).to_be_enabled()
        last.click()
        panel = page.get_by_role("region", name="Last trick")
        expect(panel).to_be_visible()
        expect(panel).to_contain_text("You won it.")
        box = panel.bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, box
        for tool in page.locator(".table-tools .tool").all():
            tool_box = tool.bounding_box()
            assert tool_box is not None and tool_box["height"] >= 43.9  # 44 px, sub-pixel
        screenshot(page, artifacts / "390x844-last-trick.png", full_page=False)
        # Trick 2 done, the look shows trick 2 only (table law 11: never an earlier trick).
        page.get_by_role("button", name="Close").click()
        page.get_by_role("button", name="Ace of Hearts", exact=True).click()
        last.click()
        expect(panel).to_contain_text("You: Ace of Hearts")
        expect(panel).not_to_contain_text("Jack of Hearts")
    finally:
        context.close()


def test_the_screen_reader_hears_every_card_and_the_trick_in_order(page: Page) -> None:
    open_scripted(page, strong_hand(), "classic")
    lead_the_right_bower(page)
    log = page.get_by_role("log", name="Table announcements")
    expect(log).to_contain_text("You win the trick.")
    lines = log.locator("p").all_inner_texts()
    start = lines.index("You play the Jack of Hearts.")
    plays = lines[start:start + 5]
    assert [line.split(" ")[0] for line in plays] == ["You", "West", "North", "East", "You"]
    assert plays[-1] == "You win the trick."
    assert "You order up the Nine of Hearts." in lines[:start]


def test_the_hand_log_shows_only_the_current_and_last_trick(page: Page) -> None:
    open_scripted(page, strong_hand(), "classic")
    lead_the_right_bower(page)
    log = page.get_by_role("region", name="What happened")
    expect(log).to_contain_text("You play the Jack of Hearts.")
    page.get_by_role("button", name="Ace of Hearts", exact=True).click()
    expect(log).to_contain_text("You play the Ace of Hearts.")
    page.get_by_role("button", name="King of Hearts", exact=True).click()
    expect(log).to_contain_text("You play the King of Hearts.")
    # Trick 3 is the last completed trick: its cards show, earlier tricks' do not (law 11).
    text = log.inner_text()
    assert "Trick 1: You win it." in text and "Trick 2: You win it." in text
    assert "Jack of Hearts" not in text and "Ace of Hearts" not in text
    # The bids stay in view for the whole hand.
    expect(page.get_by_role("region", name="Bidding")).to_contain_text("You: Ordered up")


def test_a_move_the_clock_made_is_marked(page: Page) -> None:
    table = open_scripted(page, deal(Rules.preset("classic"), 3, WEAK, WEAK_KITTY), "classic",
                          timed_out_first=True)
    said = 'Time ran out: the table chose "Pass" for you.'
    expect(page.get_by_role("log", name="Table announcements")).to_contain_text(said)
    expect(page.get_by_role("region", name="What happened")).to_contain_text(said)
    expect(page.get_by_role("region", name="Bidding")).to_contain_text("time ran out")
    assert table.received == []


@pytest.mark.parametrize(("size"), ["1280x720", "360x740"])
def test_stuck_dealer_is_told_why_and_every_call_is_on_screen(
    browser: Browser, server_url: str, artifacts: Path, size: str
) -> None:
    width, height = (int(x) for x in size.split("x"))
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server_url)
    page = context.new_page()
    try:
        open_scripted(page, deal(Rules.preset("stick-the-dealer"), ME, WEAK, WEAK_KITTY),
                      "stick-the-dealer")
        page.get_by_role("button", name="Pass", exact=True).click()
        expect(page.get_by_role("status")).to_contain_text("You are stuck (stick the dealer)")
        expect(page.get_by_role("button", name="Pass", exact=True)).to_have_count(0)
        for suit in ("Clubs", "Diamonds", "Hearts"):
            alone = page.get_by_role("button", name=f"Call {suit} alone", exact=True)
            expect(alone).to_be_visible()
        assert not off_screen_choices(page)
        screenshot(page, artifacts / f"{size}-stuck-dealer.png", full_page=False)
    finally:
        context.close()


def test_canadian_loner_partner_is_told_why_only_alone(page: Page, scripted: Any) -> None:
    scripted(deal(Rules.preset("canadian"), 2, WEAK, WEAK_KITTY), "canadian")
    expect(page.get_by_role("button", name="Order up alone", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Order up", exact=True)).to_have_count(0)
    expect(page.get_by_role("status")).to_contain_text("Canadian loner")


def test_hints_open_under_the_felt_on_a_phone(phone_page: Page, artifacts: Path) -> None:
    page = phone_page
    open_scripted(page, strong_hand(), "classic")
    page.get_by_role("button", name="Hint").click()
    hints = page.get_by_role("region", name="Hints")
    expect(hints).to_be_visible()
    expect(hints.get_by_role("listitem").first).to_contain_text("the best choice")
    box = hints.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    felt = page.locator(".felt").bounding_box()
    assert felt is not None and box["y"] >= felt["y"] + felt["height"]  # under the felt
    assert page.evaluate("scrollY") == 0
    screenshot(page, artifacts / "390x844-hint.png", full_page=False)
    hints.get_by_role("button", name="Close").click()
    expect(hints).to_have_count(0)
