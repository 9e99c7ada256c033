"""The table page keeps doc 002's laws in view: it shows how the first dealer was found, and
its "This hand" log never lists a card played before the trick on the felt (table law 11)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from web_helpers import (
    GAME_OVER,
    SUMMARY,
    choices,
    continue_after_result,
    make_a_move,
    start_table,
    wait_for_turn,
)

pytestmark = pytest.mark.browser

RANKS = {"9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUITS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


def felt_cards(page: Page) -> set[str]:
    """The names of the cards on the felt: the trick in progress, or the last one."""
    cards = page.locator(".trick .trick-card").evaluate_all("els => els.map(e => e.dataset.card)")
    return {f"{RANKS[c[0]]} of {SUITS[c[1]]}" for c in cards}


def logged_plays(page: Page) -> list[str]:
    """The log's lines that name a played card."""
    return page.locator(".log li.log-play").all_inner_texts()


def check_law_11(page: Page) -> int:
    """Every play in the log is a card on the felt; returns how many plays the log lists."""
    plays = logged_plays(page)
    on_felt = felt_cards(page)
    for line in plays:
        named = re.search(r"the ((?:Nine|Ten|Jack|Queen|King|Ace) of \w+)", line)
        assert named and named.group(1) in on_felt, (line, on_felt)
    return len(plays)


@pytest.mark.quick_pace
def test_first_draw_shown_and_the_log_keeps_law_11(page: Page) -> None:
    start_table(page, "classic")
    first_line = page.locator(".log li").first
    expect(first_line).to_contain_text("First dealer, dealt face up until a black jack")
    found = re.compile(r"the Jack of (Clubs|Spades); (you deal|\w+ deals) first")
    expect(first_line).to_contain_text(found)
    checks = listed = 0
    reloaded = False
    for _ in range(300):
        wait_for_turn(page, also=SUMMARY)
        if page.locator(GAME_OVER).is_visible():
            break
        if page.locator(SUMMARY).is_visible():
            continue_after_result(page)  # read: not its 2 s hold
            continue
        if not choices(page).count():
            continue
        playing = not page.locator(".actions button").count()
        if playing and page.locator(".trick .trick-card").count():
            listed += check_law_11(page)
            checks += 1
            if checks == 12 and not reloaded:  # a reload rebuilds the log from the snapshot
                page.reload()
                choices(page).first.wait_for()
                reloaded = True
                listed += check_law_11(page)
        make_a_move(page, ("Pass",))
        if checks >= 30:
            break
    assert reloaded and checks >= 12 and listed > 0
