"""A table that waits for the eye, and the words and keys at it: a hand's result holds the
page (nothing of the next deal is shown behind it, even our own turn) until Continue or its
hold is over, never under 1.5 s; the speed is chosen at the table and kept; hints in the
buttons' words, compared in the order shown; "You are back."; arrow keys between the legal
cards and bids, and the focus stays in the hand after a move.

Scripted tables (``scripted_table.py``) run on Playwright's clock, so the hold is measured
in the page's own time, not the machine's."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from scripted_table import ME, ScriptedTable, open_scripted
from web_helpers import choices, screenshot, settle, show_result, start_table

from euchre.cards import suit_text
from euchre.hand import deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

HANDS = [
    ["JH", "JD", "AH", "KH", "QH"],
    ["9C", "TC", "JC", "QC", "KC"],
    ["AC", "9D", "TD", "QD", "KD"],
    ["AD", "9S", "TS", "JS", "QS"],
]
KITTY = ["9H", "TH", "KS", "AS"]
NEXT_HANDS = [HANDS[1], HANDS[2], HANDS[3], HANDS[0]]
"""Hand 2: we hold the clubs; the same upcard (the Nine of Hearts)."""


def _finish_hand(page: Page, table: ScriptedTable) -> None:
    """Order up, discard, and play our first legal card to the end of the hand."""
    page.get_by_role("button", name="Order up", exact=True).click()
    page.get_by_role("button", name="Nine of Hearts", exact=True).click()
    cards = page.locator(".hand .card-button")
    while not table.state.is_over:
        held = cards.count()
        settle(page)
        page.locator(".hand .card-button:enabled").first.click()
        expect(cards).to_have_count(held - 1)


def _summary(table: ScriptedTable) -> dict[str, Any]:
    state = table.state
    side = state.maker % 2
    return {"hand_number": 1, "dealer": state.dealer, "maker": state.maker,
            "trump": suit_text(state.trump), "alone": False, "lone_defender": None,
            "tricks_won": list(state.tricks_won), "points": list(state.points),
            "euchred": state.tricks_won[side] < 3, "march": state.tricks_won[side] == 5,
            "thrown_in": False, "reneged": None, "score": list(state.points), "seed": None,
            "client_seeds": {}, "pattern": None}


@pytest.mark.parametrize("speed,hold_ms", [("fast", 2000), ("normal", 4000)])
def test_the_result_holds_the_table_until_its_time_is_up(
    page: Page, artifacts: Path, speed: str, hold_ms: int
) -> None:
    page.clock.install()
    page.clock.pause_at(1_700_000_000_000)
    state = deal(Rules.preset("stick-the-dealer"), ME, HANDS, KITTY)
    table = open_scripted(page, state, "stick-the-dealer")
    table.overlay["extra"] = {"speed": speed}
    expect(page.get_by_role("button", name="Order up", exact=True)).to_be_visible()
    _finish_hand(page, table)
    table.push(summary=_summary(table), score=list(table.state.points))
    show_result(page)  # after the last trick has settled
    result = page.get_by_role("region", name="End of the hand")
    expect(result).to_be_visible()
    status = page.get_by_role("status").inner_text()
    # The next deal comes at once, and it is our turn in it: none of it shows yet.
    table.deal_next(deal(Rules.preset("stick-the-dealer"), 3, NEXT_HANDS, KITTY), 2)
    page.clock.run_for(1400)
    expect(result).to_be_visible()
    expect(choices(page)).to_have_count(0)
    expect(page.locator(".hand .card-button")).to_have_count(0)
    expect(page.locator(".upcard")).to_have_count(0)
    assert page.get_by_role("status").inner_text() == status
    screenshot(page, artifacts / f"result-held-{speed}.png", full_page=False)
    page.clock.run_for(hold_ms - 1400 - 100)
    expect(result).to_be_visible()  # never under the hold of the speed (and 1.5 s)
    page.clock.run_for(200)
    expect(result).to_have_count(0)
    # Then the next deal, in order: the upcard, our cards, our choices, with the focus.
    expect(page.get_by_role("status")).to_contain_text("deals hand 2")
    expect(page.get_by_role("img", name="Upcard: Nine of Hearts")).to_be_visible()
    expect(page.locator(".hand .card-button")).to_have_count(5)
    expect(page.get_by_role("button", name="Order up", exact=True)).to_be_focused()
    assert table.continued == [1]


def test_continue_shows_the_next_deal_and_tells_the_table(page: Page) -> None:
    page.clock.install()
    page.clock.pause_at(1_700_000_000_000)
    state = deal(Rules.preset("stick-the-dealer"), ME, HANDS, KITTY)
    table = open_scripted(page, state, "stick-the-dealer")
    expect(page.get_by_role("button", name="Order up", exact=True)).to_be_visible()
    _finish_hand(page, table)
    table.push(summary=_summary(table), score=list(table.state.points))
    show_result(page)  # after the last trick has settled
    result = page.get_by_role("region", name="End of the hand")
    # The last card was ours: the focus waits on the result's Continue, not the page.
    expect(result.get_by_role("button", name="Continue")).to_be_focused()
    page.keyboard.press("Enter")
    expect(result).to_have_count(0)
    assert table.continued == [1]
    table.deal_next(deal(Rules.preset("stick-the-dealer"), 3, NEXT_HANDS, KITTY), 2)
    expect(page.get_by_role("button", name="Order up", exact=True)).to_be_focused()


def test_the_speed_is_chosen_at_the_table_and_kept(page: Page) -> None:
    start_table(page, "classic")
    choices(page).first.wait_for()
    speed = page.get_by_label("Speed")
    expect(speed).to_have_value("fast")  # the page fixture's choice
    speed.select_option("slow")
    assert page.evaluate("localStorage.getItem('euchre.speed')") == "slow"
    page.reload()
    expect(page.get_by_label("Speed")).to_have_value("slow")  # the table's own speed now
    page.evaluate("localStorage.setItem('euchre.speed', 'normal')")
    page.reload()
    expect(page.get_by_label("Speed")).to_have_value("slow")  # kept by the table


def test_arrow_keys_move_between_the_legal_cards_and_bids(page: Page) -> None:
    state = deal(Rules.preset("stick-the-dealer"), ME, HANDS, KITTY)
    table = open_scripted(page, state, "stick-the-dealer")
    order_up = page.get_by_role("button", name="Order up", exact=True)
    expect(order_up).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("button", name="Order up alone")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(order_up).to_be_focused()  # round and round
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_focused()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # order up
    # Discarding: every card may go; the arrows walk the hand.
    first = page.locator(".hand .card-button:enabled").first
    expect(first).to_be_focused()
    names = [b.get_attribute("aria-label") for b in page.locator(".hand .card-button").all()]
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("button", name=names[1], exact=True)).to_be_focused()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page.get_by_role("button", name=names[-1], exact=True)).to_be_focused()
    page.get_by_role("button", name="Nine of Hearts", exact=True).focus()
    page.keyboard.press("Enter")  # discard it; the others play; our turn to follow
    expect(page.locator(".trick .trick-card")).to_have_count(3)
    # Only the legal cards are stepped through (hearts led? any card: all enabled here).
    legal = page.locator(".hand .card-button:enabled")
    expect(legal.first).to_be_focused()
    count = legal.count()
    for i in range(1, count + 1):
        page.keyboard.press("ArrowRight")
        expect(legal.nth(i % count)).to_be_focused()
    page.keyboard.press("Enter")
    # After the move the focus stays in the hand (not the page), and comes back to the
    # first legal card at our next turn.
    expect(page.locator(".hand .card-button")).to_have_count(4)
    in_hand = page.evaluate("document.querySelector('.hand').contains(document.activeElement)")
    assert in_hand
    assert not table.errors


def test_hints_use_the_buttons_words_and_agree_with_their_order(page: Page) -> None:
    state = deal(Rules.preset("classic"), 3, HANDS, KITTY)
    table = open_scripted(page, state, "classic")
    pass_button = page.get_by_role("button", name="Pass", exact=True)
    pass_button.click()  # round one: the others pass too; round two comes to us
    expect(page.get_by_role("button", name="Call Spades", exact=True)).to_be_visible()
    # The server's order (its recommendation first) with estimates out of order after it.
    table.hints = [
        {"action": "call S", "text": "Name Spades trump: wins about 0.9 points on average",
         "expected_points": 0.9, "make_chance": 0.7},
        {"action": "pass", "text": "Pass: wins about 0.6 points on average",
         "expected_points": 0.6, "make_chance": None},
        {"action": "call C", "text": "Name Clubs trump: wins about 0.92 points on average",
         "expected_points": 0.92, "make_chance": 0.6},
    ]
    page.get_by_role("button", name="Hint").click()
    items = page.get_by_role("region", name="Hints").get_by_role("listitem")
    expect(items).to_have_count(3)
    texts = items.all_inner_texts()
    assert texts[0].startswith("Call Spades: the best choice, about as good as Call Clubs")
    assert texts[1].startswith("Call Clubs: about as good as Call Spades")
    assert texts[2].startswith("Pass: about 0.3 points worse than Call Spades")
    assert not any("Name " in t or "trump:" in t for t in texts)


def test_you_are_back(page: Page) -> None:
    state = deal(Rules.preset("classic"), 3, HANDS, KITTY)
    table = open_scripted(page, state, "classic", names=["Ann", "Bob", "Cy", "Di"],
                          kind="online")
    expect(page.get_by_role("button", name="Pass", exact=True)).to_be_visible()
    table.send_event({"kind": "back", "seat": ME})
    table.send_event({"kind": "back", "seat": 1})
    log = page.get_by_role("log", name="Table announcements")
    expect(log).to_contain_text("You are back.")
    expect(log).to_contain_text("Bob is back.")
    expect(log).not_to_contain_text(re.compile("You is"))
