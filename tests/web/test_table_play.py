"""Whole games in a real browser: start a table, play by clicking to the end, watch the replay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from web_helpers import (
    Shots,
    choices,
    hand_names,
    make_a_move,
    play_to_the_end,
    screenshot,
    serious_violations,
    start_table,
)

pytestmark = pytest.mark.browser


@pytest.mark.quick_pace
def test_classic_game_played_to_the_end_then_replayed(page: Page, artifacts: Path) -> None:
    shots = Shots(artifacts, "classic")
    start_table(page, "classic", shots, game_to=5)

    # The first move is made from the keyboard: it is focused when our turn comes.
    first = choices(page).first
    first.wait_for()
    expect(first).to_be_focused()
    # In a short game every later turn of ours may come after someone has already called,
    # so the bidding is pictured at the first turn when it is a bid.
    if page.get_by_role("button", name="Pass", exact=True).count():
        shots.take(page, "bidding")
    page.keyboard.press("Enter")

    final = play_to_the_end(page, shots, take_discard=True)
    assert re.search(r"(You|West and East) won the game, \d+ to \d+\.", final)
    assert {"start", "bidding", "play", "game-over"} <= shots.taken
    # The game-over panel takes the focus, so its choices come next from the keyboard.
    expect(page.locator(".game-over-panel h2")).to_be_focused()
    assert not serious_violations(page)

    # The replay plays by itself (on Playwright's clock) to the end and names the winner.
    page.clock.install()
    page.get_by_role("link", name="Watch the replay").click()
    expect(page).to_have_url(re.compile(r"/replay/[\w-]+$"))
    position = page.locator(".replay-position")
    expect(position).to_contain_text("Step 1 of")
    expect(page.get_by_role("button", name="Back")).to_be_disabled()
    # We watch from our own seat, called "You".
    expect(page.locator(".seat-south .seat-title")).to_have_text("You")
    page.get_by_role("button", name="Next", exact=True).click()
    expect(position).to_contain_text("Step 2 of")
    page.get_by_role("button", name="Next trick").click()
    expect(page.locator(".trick .trick-card.winning")).to_have_count(1)
    steps = int(position.inner_text().split(" of ")[1])
    page.get_by_label("Replay speed").select_option("fast")
    page.get_by_role("button", name="Play", exact=True).click()
    page.clock.run_for(400 * steps)
    expect(position).to_have_text(f"Step {steps} of {steps}")
    expect(page.get_by_role("button", name="Play", exact=True)).to_have_attribute(
        "aria-pressed", "false")
    status = page.get_by_role("status")
    expect(status).to_contain_text("Hand over")
    expect(status).to_contain_text(re.compile(r"(You|West and East) won the game, \d+ to \d+\."))
    expect(page.locator(".replay-result")).to_contain_text("won the game")
    assert not serious_violations(page)
    shots.take(page, "replay")


@pytest.mark.quick_pace
@pytest.mark.motion  # a whole game as a person who has not asked for less motion
def test_phone_game_played_to_the_end(phone_page: Page, artifacts: Path) -> None:
    page = phone_page
    shots = Shots(artifacts, "phone")
    first_table = start_table(page, "short", shots)
    final = play_to_the_end(page, shots)
    assert "won the game" in final
    # Nothing on the table is wider than the phone.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # "Play again" opens a new table with the same rules.
    page.get_by_role("button", name="Play again").click()
    expect(page).not_to_have_url(first_table)
    expect(page).to_have_url(re.compile(r"/table/[\w-]+$"))
    choices(page).first.wait_for()
    expect(page.locator(".score-target")).to_have_text("Game to 5")


def test_reload_mid_hand_resumes_the_same_game(page: Page, artifacts: Path) -> None:
    page.goto("/")
    page.get_by_role("button", name="Practice", exact=True).click()
    expect(page).to_have_url(re.compile(r"/table/[\w-]+$"))
    url = page.url
    # Play until a card is to be played, with a card already on the table or won.
    for _ in range(40):
        choices(page).first.wait_for()
        if page.locator(".hand .card-button:enabled").count() and len(hand_names(page)) < 5:
            break
        make_a_move(page, ("Order up", "Pass"))
    before = hand_names(page)
    score_before = page.locator(".score").inner_text()
    page.reload()
    expect(page).to_have_url(url)
    choices(page).first.wait_for()
    assert hand_names(page) == before
    assert page.locator(".score").inner_text() == score_before
    # the status line says the last move again, as the log says it
    moves = page.locator(".log li").filter(has_not_text=re.compile(r"^Trick |wins? it\.$"))
    expect(page.locator(".status")).to_contain_text(moves.last.inner_text())
    screenshot(page, artifacts / "reload-resumed.png")
