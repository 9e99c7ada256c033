"""The table page keeps doc 002's laws in view: it shows how the first dealer was found, and
its "This hand" log never lists a card played before the trick on the felt (table law 11)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from web_helpers import (
    choices,
    continue_after_result,
    next_turn,
    start_table,
    take_turn,
)

pytestmark = pytest.mark.browser

RANKS = {"9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUITS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}


LAW_11_JS = """() => [
  [...document.querySelectorAll('.log li.log-play')].map((li) => li.innerText),
  [...document.querySelectorAll('.trick .trick-card')].map((el) => el.dataset.card),
]"""
"""The log's lines that name a played card, and the cards on the felt (the trick in progress,
or the last one), read at one moment."""


TRICK_LINES_JS = """() => [...document.querySelectorAll('.log li')].map((li) => li.innerText)
  .filter((text) => /^Trick \\d+/.test(text))"""
"""The log's lines that open a trick ("Trick 2: West wins it.")."""


def check_law_11(page: Page) -> int:
    """Every play in the log is a card on the felt; returns how many plays the log lists."""
    plays, cards = page.evaluate(LAW_11_JS)
    on_felt = {f"{RANKS[c[0]]} of {SUITS[c[1]]}" for c in cards}
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
        turn = next_turn(page)
        if turn.over:
            break
        if turn.summary is not None:
            continue_after_result(page)  # read: not its 2 s hold
            continue
        if not turn.choices:
            continue
        playing = not turn.bid_buttons
        if playing and turn.trick_cards:
            listed += check_law_11(page)
            checks += 1
            if checks == 12 and not reloaded:  # a reload rebuilds the log from the snapshot
                tricks_before = page.evaluate(TRICK_LINES_JS)
                page.reload()
                choices(page).first.wait_for()
                reloaded = True
                listed += check_law_11(page)
                # the same lines, each earlier trick still with its winner (the table waits
                # for this seat, so nothing moved during the reload)
                assert page.evaluate(TRICK_LINES_JS) == tricks_before
                assert not [t for t in tricks_before if t.endswith("played.")], tricks_before
                turn = next_turn(page)  # the reloaded page's controls
        take_turn(page, turn, ("Pass",))
        if checks >= 30:
            break
    assert reloaded and checks >= 12 and listed > 0
