"""Issue 36 item 8: while the clock plays a person's moves at computer speed (house rule 9,
three misses in a row), a banner on the felt says so and how to take the seat back; the
person's own move takes it away. At three sizes, clear of the seats' labels and the clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from scripted_table import ME, open_scripted
from test_table_waits import HANDS, KITTY
from web_helpers import screenshot

from euchre.hand import deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

BANNER = "The clock is playing for you — make a move to take your seat back"


def _clock(computer_speed: bool) -> dict[str, Any]:
    return {"seat": ME, "running": True, "deadline_ms_left": 60_000, "move_ms": 90_000,
            "seconds_per_move": 90, "misses": 3 if computer_speed else 0,
            "computer_speed": computer_speed}


@pytest.mark.parametrize("sized_page", ["1366x657", "390x844", "360x740"], indirect=True)
def test_a_banner_on_the_felt_while_the_clock_plays_for_you(
        sized_page: Page, artifacts: Path) -> None:
    page = sized_page
    viewport = page.viewport_size or {"width": 0, "height": 0}
    size = f"{viewport['width']}x{viewport['height']}"
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    state = deal(Rules.preset("stick-the-dealer"), ME, HANDS, KITTY)
    table = open_scripted(page, state, "stick-the-dealer", clock=True, kind="coin")
    order_up = page.get_by_role("button", name="Order up", exact=True)
    expect(order_up).to_be_visible()
    banner = page.locator(".felt .clock-banner")
    expect(banner).to_be_hidden()  # a full clock: no banner
    table.push(clock=_clock(True))
    expect(banner).to_be_visible()
    expect(banner).to_have_text(BANNER)
    boxes: dict[str, Any] = page.evaluate("""() => {
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
      };
      return {
        banner: box(document.querySelector('.clock-banner')),
        felt: box(document.querySelector('.felt')),
        others: [...document.querySelectorAll('.felt .seat-label, .clock:not([hidden])')]
          .filter((el) => el.getClientRects().length).map(box),
      };
    }""")
    screenshot(page, artifacts / f"clock-banner-{size}.png", full_page=False)
    b, f = boxes["banner"], boxes["felt"]
    assert f[0] <= b[0] and f[1] <= b[1] and b[2] <= f[2] and b[3] <= f[3], (b, f)
    hit = [o for o in boxes["others"]
           if b[0] < o[2] - 1 and o[0] < b[2] - 1 and b[1] < o[3] - 1 and o[1] < b[3] - 1]
    assert not hit, f"the banner at {b} covers {hit}"
    # The person's own move: the seat is theirs again (the table's next clock is a full one).
    table.overlay["clock"] = _clock(False)
    order_up.click()
    expect(banner).to_be_hidden()
    assert not console, f"console errors: {console}"
