"""Issue 36 item 6 after the game: at an online table's end the quick messages take the
hand's place under the game-over panel, enabled; the page sends only an id; what the table
says back shows in the log (the seats are left out on a phone at the game's end), and a
refusal is said beside the row, not as the page's error. At three sizes, no console error."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from scripted_table import ME, open_scripted
from test_table_waits import HANDS, KITTY
from web_helpers import screenshot

from euchre.hand import deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cy", "Dee"]
RATE = "too many messages: at most 3 every 20 seconds; try again in 12 s"


@pytest.mark.parametrize("sized_page", ["1366x657", "390x844", "360x740"], indirect=True)
def test_good_game_after_the_game(sized_page: Page, artifacts: Path) -> None:
    page = sized_page
    viewport = page.viewport_size or {"width": 0, "height": 0}
    size = f"{viewport['width']}x{viewport['height']}"
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    state = deal(Rules.preset("stick-the-dealer"), ME, HANDS, KITTY)
    table = open_scripted(page, state, "stick-the-dealer", names=NAMES, kind="online")
    expect(page.get_by_role("button", name="Order up", exact=True)).to_be_visible()
    talk = page.get_by_role("region", name="Table talk")
    expect(talk).to_be_hidden()  # a hand in play: no table talk
    table.push(game_over=True, winner=0, score=[10, 7])
    expect(page.get_by_role("region", name="Game over")).to_be_visible()
    expect(talk).to_be_visible()
    good_game = talk.get_by_role("button", name="Good game", exact=True)
    expect(good_game).to_be_enabled()
    good_game.click()
    page.wait_for_function("() => document.querySelector('.talk-note').textContent === ''")
    assert table.said == ["good_game"]
    table.send_event({"kind": "say", "seat": ME, "message": "good_game"})
    table.send_event({"kind": "say", "seat": 2, "message": "well_played"})
    log = talk.get_by_role("list", name="Messages at the table")
    expect(log).to_contain_text("You: Good game")
    expect(log).to_contain_text("Cy: Well played")
    if viewport["width"] > 760:  # on a phone the game's end takes the felt, seats and all
        expect(page.locator(".seat-north .seat-talk")).to_have_text("Well played")
    talk.get_by_role("button", name="Thanks", exact=True).click()
    table.ws.send('{"type": "error", "code": "talk_rate", "message": "' + RATE + '"}')
    expect(talk.locator(".talk-note")).to_have_text(f"Not sent: {RATE}.")
    expect(page.locator(".error")).to_be_hidden()
    talk.scroll_into_view_if_needed()
    screenshot(page, artifacts / f"talk-game-over-{size}.png", full_page=False)
    assert table.said == ["good_game", "thanks"]
    assert not console, f"console errors: {console}"
