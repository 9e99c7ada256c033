"""Rare moments at the table, from fixed deals: a farmer's hand and the Joker turned up.

The table socket is answered inside the browser by a stand-in that keeps a real engine hand
(``scripted_table.py``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from scripted_table import ME
from web_helpers import screenshot

from euchre.hand import deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

HANDS = [
    ["9C", "9D", "9H", "TC", "TD"],
    ["JC", "QC", "KC", "AC", "TS"],
    ["JD", "QD", "KD", "AD", "TH"],
    ["JH", "QH", "KH", "AH", "9S"],
]


def test_farmers_hand_swaps_three_chosen_cards(page: Page, scripted: Any, artifacts: Path) -> None:
    state = deal(Rules.preset("kitchen-table"), 3, HANDS, ["JS", "QS", "KS", "AS"])
    table = scripted(state, "kitchen-table")
    expect(page.get_by_role("status")).to_contain_text("farmer's hand")
    expect(page.get_by_role("button", name="Keep this hand")).to_be_enabled()
    expect(page.get_by_role("button", name="Throw this hand in")).to_be_enabled()
    swap = page.locator(".bid-farmer-swap")
    expect(swap).to_have_text("Choose 3 more cards to swap")
    expect(swap).to_be_disabled()
    for name in ("Nine of Clubs", "Ten of Clubs", "Nine of Diamonds"):
        card = page.get_by_role("button", name=name, exact=True)
        card.click()
        expect(card).to_have_attribute("aria-pressed", "true")
    expect(swap).to_be_enabled()
    expect(swap).to_contain_text("Swap the Nine of Clubs")
    screenshot(page, artifacts / "farmer.png")
    swap.click()
    expect(page.get_by_role("button", name="Nine of Clubs", exact=True)).to_have_count(0)
    assert table.received[0].startswith("farmer swap ")
    assert not table.errors


def test_joker_turned_up_lets_the_dealer_name_trump(
    page: Page, scripted: Any, artifacts: Path
) -> None:
    state = deal(Rules.preset("benny"), ME, HANDS, ["JK", "QS", "KS", "AS", "JS"])
    table = scripted(state, "benny")
    expect(page.get_by_role("img", name="Upcard: Joker")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("Joker was turned up")
    for suit in ("Clubs", "Diamonds", "Hearts", "Spades"):
        expect(page.get_by_role("button", name=f"Call {suit}", exact=True)).to_be_enabled()
        expect(page.get_by_role("button", name=f"Call {suit} alone", exact=True)).to_be_enabled()
    expect(page.get_by_role("button", name="Pass", exact=True)).to_have_count(0)
    page.get_by_role("button", name="Call Spades", exact=True).click()
    joker = page.get_by_role("button", name="Joker", exact=True)
    expect(joker).to_be_enabled()
    expect(page.get_by_role("status")).to_contain_text("choose a card to discard")
    screenshot(page, artifacts / "benny-discard.png")
    page.get_by_role("button", name="Nine of Hearts", exact=True).click()
    expect(page.get_by_role("button", name="Nine of Hearts", exact=True)).to_have_count(0)
    assert table.received[:2] == ["call S", "discard 9H"]
    assert not table.errors


def test_a_defender_may_defend_alone_after_the_dealer_discards(
    page: Page, scripted: Any, artifacts: Path
) -> None:
    hands = [
        ["JS", "AS", "AD", "KD", "QD"],
        ["JC", "QC", "KC", "AC", "TS"],
        ["JD", "9D", "TH", "9H", "TD"],
        ["JH", "QH", "KH", "AH", "9S"],
    ]
    state = deal(Rules.preset("kitchen-table"), ME, hands, ["9C", "QS", "KS", "TC"])
    table = scripted(state, "kitchen-table", bots_order=True)
    status = page.get_by_role("status")
    expect(status).to_contain_text("West orders up the Nine of Clubs.")
    expect(status).to_contain_text("choose a card to discard.")
    page.get_by_role("button", name="Nine of Clubs", exact=True).click()
    defend = page.get_by_role("button", name="Defend alone", exact=True)
    expect(defend).to_be_enabled()
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_enabled()
    screenshot(page, artifacts / "defend-alone.png")
    defend.click()
    expect(page.locator(".seat-south .tag")).to_contain_text(["Dealer", "Defends alone"])
    expect(page.locator(".seat-north .tag-out")).to_have_text("Sits out")
    expect(page.get_by_role("button", name="Ace of Spades", exact=True)).to_be_visible()
    assert table.received == ["discard 9C", "defend alone"]
    assert not table.errors


def test_a_dropped_connection_rejoins_with_the_last_version(page: Page, scripted: Any) -> None:
    # West bids first; the socket drops right after the first snapshot.
    state = deal(Rules.preset("classic"), ME, HANDS, ["JS", "QS", "KS", "AS"])
    table = scripted(state, "classic", drop_first=True)
    # Back online, the missing moves arrive and it is our turn.
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_enabled()
    expect(page.get_by_role("status")).to_contain_text("East passes.")
    assert table.joins == [None, 1]


def test_the_move_clock_counts_down_for_the_seat_to_act(page: Page, scripted: Any) -> None:
    state = deal(Rules.preset("classic"), 3, HANDS, ["JS", "QS", "KS", "AS"])
    scripted(state, "classic", clock=True)
    clock = page.locator(".clock")
    expect(clock).to_be_visible()
    expect(clock).to_have_text(re.compile(r"^Your clock: 1:[0-3]\d$"))
