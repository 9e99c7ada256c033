"""One screen at every size: whole games at each window size, with a different preset at
each, checking on every one of our turns that every legal button and card is inside the
window with the page not scrolled. Screenshots of each size and phase are kept."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError
from scripted_table import ME, open_scripted
from web_helpers import (
    CHOICES,
    GAME_OVER,
    SIZES,
    SUMMARY,
    Shots,
    next_turn,
    off_screen_choices,
    screenshot,
    settle,
    start_table,
    take_turn,
)

from euchre.hand import deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

# Each size plays a whole game under another preset, so every preset's prompts and phases
# (stuck dealer, Canadian loner, farmer's hand, the Joker) meet a small window somewhere.
GAMES = [
    ("1366x657", "classic"),
    ("1280x720", "stick-the-dealer"),
    ("1440x900", "kitchen-table"),
    ("768x1024", "classic"),
    ("390x844", "canadian"),
    ("360x740", "benny"),
]


def _continue(page: Page) -> None:
    """Press the hand result's Continue, as a person who has read it (not waiting its 2 s
    hold), without scrolling to it: a click would scroll, and this test checks the page is
    never scrolled when a choice is offered."""
    with contextlib.suppress(PlaywrightError):  # its hold ran out meanwhile: it is gone
        page.locator(f"{SUMMARY} .panel-close").dispatch_event("click", timeout=3_000)
    expect(page.locator(SUMMARY)).to_have_count(0)


@pytest.mark.quick_pace
@pytest.mark.parametrize(("sized_page", "preset"), GAMES, indirect=["sized_page"],
                         ids=[f"{size}-{preset}" for size, preset in GAMES])
def test_every_choice_is_on_screen_for_a_whole_game(
    sized_page: Page, preset: str, artifacts: Path
) -> None:
    page = sized_page
    size = next(name for name, box in SIZES.items() if box == page.viewport_size)
    shots = Shots(artifacts, size)
    start_table(page, preset, shots, game_to=5)
    turns = 0
    for _ in range(600):
        # One round trip reads the turn and where every choice came to rest.
        turn = next_turn(page, settle=True)
        if turn.over:
            break
        if turn.summary is not None:
            _continue(page)
            continue
        if not turn.choices:
            continue
        problems = turn.off_screen
        assert not problems, f"{size}, {preset}: choices outside the window: {problems}"
        turns += 1
        phase = ("discard" if turn.discarding else "round-two" if turn.round_two
                 else "bidding" if turn.bid_buttons else "play")
        if shots.wants(phase):
            shots.take(page, phase, full_page=False)
        take_turn(page, turn,
                  ("Order up", "Pass") if turn.dealer and shots.wants("discard") else ("Pass",))
    expect(page.locator(GAME_OVER)).to_be_visible()
    shots.take(page, "game-over", full_page=False)
    assert turns > 10
    # The page never scrolled sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


# Rare phases from fixed deals (the table socket answered in the browser): the Joker turned
# up (all eight calls at once), a farmer's hand, the dealer's discard, and defending alone.
FARMER = [
    ["9C", "9D", "9H", "TC", "TD"],
    ["JC", "QC", "KC", "AC", "TS"],
    ["JD", "QD", "KD", "AD", "TH"],
    ["JH", "QH", "KH", "AH", "9S"],
]
DEFEND = [
    ["JS", "AS", "AD", "KD", "QD"],
    ["JC", "QC", "KC", "AC", "TS"],
    ["JD", "9D", "TH", "9H", "TD"],
    ["JH", "QH", "KH", "AH", "9S"],
]


def _phase(page: Page, phase: str) -> None:
    """Open a scripted hand and bring it to ``phase`` with our choices on screen."""
    if phase == "joker":
        joker = ["JK", "QS", "KS", "AS", "JS"]
        open_scripted(page, deal(Rules.preset("benny"), ME, FARMER, joker), "benny")
        expect(page.get_by_role("button", name="Call Spades alone", exact=True)).to_be_visible()
    elif phase == "farmer":
        open_scripted(page, deal(Rules.preset("kitchen-table"), 3, FARMER,
                                 ["JS", "QS", "KS", "AS"]), "kitchen-table")
        expect(page.get_by_role("button", name="Keep this hand")).to_be_visible()
        settle(page)
        for name in ("Nine of Clubs", "Ten of Clubs", "Nine of Diamonds"):
            page.get_by_role("button", name=name, exact=True).click()
        expect(page.locator(".bid-farmer-swap")).to_be_enabled()
    elif phase == "defend":
        open_scripted(page, deal(Rules.preset("kitchen-table"), ME, DEFEND,
                                 ["9C", "QS", "KS", "TC"]), "kitchen-table", bots_order=True)
        expect(page.locator(".hand.discarding")).to_be_visible()
        settle(page)
        page.get_by_role("button", name="Nine of Clubs", exact=True).click()
        expect(page.get_by_role("button", name="Defend alone", exact=True)).to_be_visible()
    else:  # the dealer's discard
        open_scripted(page, deal(Rules.preset("kitchen-table"), ME, DEFEND,
                                 ["9C", "QS", "KS", "TC"]), "kitchen-table", bots_order=True)
        expect(page.locator(".hand.discarding")).to_be_visible()


@pytest.mark.parametrize("phase", ["joker", "farmer", "discard", "defend"])
@pytest.mark.parametrize("size", list(SIZES))
def test_rare_phases_fit_on_screen(browser: Browser, server_url: str, artifacts: Path,
                                   size: str, phase: str) -> None:
    context = browser.new_context(viewport=SIZES[size], base_url=server_url)
    page = context.new_page()
    try:
        _phase(page, phase)
        assert page.locator(CHOICES).count() > 0
        problems = off_screen_choices(page)
        assert not problems, f"{size}, {phase}: choices outside the window: {problems}"
        screenshot(page, artifacts / f"{size}-{phase}.png", full_page=False)
    finally:
        context.close()


SEATS_IN_FELT_JS = """() => {
  const felt = document.querySelector('.felt').getBoundingClientRect();
  return [...document.querySelectorAll('.felt .seat-label')].map((el) => {
    const r = el.getBoundingClientRect();
    return [el.innerText.split('\\n')[0], Math.round(r.left - felt.left),
            Math.round(felt.right - r.right)];
  });
}"""
"""Each seat's name and how far its label is inside the felt's left and right edges."""


@pytest.mark.parametrize("size", [(768, 1024), (900, 700), (1020, 700)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_tablet_widths_neither_scroll_sideways_nor_cut_a_seat(
        browser: Browser, server_url: str, artifacts: Path, size: tuple[int, int]) -> None:
    # Between a phone and a laptop the header's links and the felt beside its side panel
    # did not fit: the page scrolled sideways and East's seat was cut off at the felt's edge.
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=server_url)
    page = context.new_page()
    try:
        for path, heading in (("/", "Euchre"), ("/lobby", "Lobby")):
            page.goto(path)
            expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
            assert page.evaluate("document.documentElement.scrollWidth") <= width, path
            expect(page.locator(".site-nav a").first).to_be_hidden()  # behind the Menu
        start_table(page, "classic")
        settle(page)
        screenshot(page, artifacts / f"tablet-{width}x{height}-table.png", full_page=False)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        seats = page.evaluate(SEATS_IN_FELT_JS)
        assert len(seats) == 4 and all(left >= 0 and right >= 0 for _, left, right in seats), seats
    finally:
        context.close()
