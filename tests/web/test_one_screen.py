"""One screen at every size: whole games at each window size, with a different preset at
each, checking on every one of our turns that every legal button and card is inside the
window with the page not scrolled. Screenshots of each size and phase are kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from web_helpers import (
    CHOICES,
    GAME_OVER,
    Shots,
    choices,
    make_a_move,
    off_screen_choices,
    start_table,
)

from conftest import SIZES

pytestmark = pytest.mark.browser

# Each size plays a whole game under another preset, so every preset's prompts and phases
# (stuck dealer, Canadian loner, farmer's hand, the Joker) meet a small window somewhere.
GAMES = [
    ("1366x657", "classic"),
    ("1280x720", "stick-the-dealer"),
    ("1440x900", "kitchen-table"),
    ("390x844", "canadian"),
    ("360x740", "benny"),
]


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
        page.locator(f"{GAME_OVER}, {CHOICES}").first.wait_for()
        if page.locator(GAME_OVER).is_visible():
            break
        if not choices(page).count():
            continue
        problems = off_screen_choices(page)
        assert not problems, f"{size}, {preset}: choices outside the window: {problems}"
        turns += 1
        phase = page.evaluate("document.querySelector('.hand.discarding') ? 'discard' : ''") or (
            "round-two" if page.locator(".actions [data-action^='call']").count() else
            "bidding" if page.locator(".actions button").count() else "play"
        )
        if shots.wants(phase):
            shots.take(page, phase, full_page=False)
        dealer = page.locator(".seat-south .tag-dealer").count() > 0
        make_a_move(page, ("Order up", "Pass") if dealer and shots.wants("discard") else ("Pass",))
    expect(page.locator(GAME_OVER)).to_be_visible()
    shots.take(page, "game-over", full_page=False)
    assert turns > 10
    # The page never scrolled sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
