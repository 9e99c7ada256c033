"""A hand's result comes into view however the page was scrolled, after the last trick has
settled, clear of the seat labels and the clock, with no line of it behind its Continue
button, and holds the table: no card of the next deal (in the hand or as the upcard) shows
until it has been on screen 1.5 s. Timings are the page's own (a MutationObserver's
performance.now() stamps), never the test's clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from web_helpers import CHOICES, SUMMARY, make_a_move, screenshot, start_table

WATCH_JS = """() => {
  // Stamps, in the page: when the result panel is first painted (the frame after it is put
  // in), where it is then, and when a card of a new deal is put in the hand or the pile.
  const log = window.__results = { shown: [], cards: [] };
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  // The result's last line of text, as a reader scrolled to the end of the words sees it.
  const lastLine = (text) => {
    text.scrollTop = text.scrollHeight;
    // Lines of words shown (a line given way to on a short cell, display: none, has none).
    const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let line = null;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      range.selectNodeContents(n);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0 && n.data.trim());
      if (rects.length) line = rects[rects.length - 1];
    }
    const seen = [line.left, line.top, line.right, line.bottom];
    text.scrollTop = 0;
    return seen;
  };
  const has = (node, selector) => node.matches(selector) || node.querySelector(selector);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        const panel = node.matches(".summary-panel") ? node : node.querySelector(".summary-panel");
        if (panel) {
          // Where the panel and the seat labels are once it is painted and scrolled to.
          requestAnimationFrame(() => requestAnimationFrame(() => log.shown.push({
            at: performance.now(), box: box(panel), view: [innerWidth, innerHeight],
            button: box(panel.querySelector(".panel-close")),
            text: box(panel.querySelector(".summary-text")),
            lastLine: lastLine(panel.querySelector(".summary-text")),
            labels: [...document.querySelectorAll(".felt .seat-label, .clock:not([hidden])")]
              .filter((el) => el.getClientRects().length).map(box),
          })));
        }
        const card = node.closest(".hand") && has(node, ".card-button");
        const upcard = node.closest(".pile") && has(node, ".upcard:not(.turned-down)");
        if (card || upcard) log.cards.push(performance.now());
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
}"""


def _overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize("sized_page", ["1366x657", "390x844", "360x740"], indirect=True)
def test_the_result_is_in_view_and_holds_the_next_deal(sized_page: Page, artifacts: Path) -> None:
    page = sized_page
    viewport = page.viewport_size or {"width": 0, "height": 0}
    size = f"{viewport['width']}x{viewport['height']}"
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    start_table(page)
    page.locator(f"{CHOICES}").first.wait_for()
    page.evaluate(WATCH_JS)
    for _ in range(60):  # at most one hand's moves
        page.locator(f"{CHOICES}, {SUMMARY}").first.wait_for()
        if page.locator(SUMMARY).count():
            break
        make_a_move(page)
        # Scrolled to the foot of the page, as a person reading the log on a phone would be.
        page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    else:
        raise AssertionError("the hand did not end")
    # Its stamp comes two frames after it is put in (no wait_for_function: the CSP forbids eval).
    for _ in range(200):
        if page.evaluate("window.__results.shown.length"):
            break
        page.wait_for_timeout(20)
    screenshot(page, artifacts / f"result-in-view-{size}.png", full_page=False)
    # The next deal comes after the result's hold (nobody presses Continue).
    expect(page.locator(SUMMARY)).to_have_count(0, timeout=20_000)
    page.locator(".hand .card-button").first.wait_for()
    log: dict[str, Any] = page.evaluate("window.__results")
    shown = log["shown"][0]
    left, top, right, bottom = shown["box"]
    width, height = shown["view"]
    assert left >= -0.5 and top >= -0.5 and right <= width + 0.5 and bottom <= height + 0.5, (
        f"the result at {shown['box']} is not inside the {width}x{height} window")
    b_left, b_top, b_right, b_bottom = shown["button"]
    assert left <= b_left and top <= b_top and b_right <= right and b_bottom <= bottom, (
        f"Continue at {shown['button']} is cut off by its panel at {shown['box']}")
    # No line of the result is ever behind Continue: the words' box ends above the button, and
    # their last line, scrolled to, is whole inside that box.
    assert not _overlaps(shown["text"], shown["button"]), (
        f"the result's words at {shown['text']} run under Continue at {shown['button']}")
    line = shown["lastLine"]
    assert not _overlaps(line, shown["button"]), (
        f"the result's last line at {line} is under Continue at {shown['button']}")
    t_top, t_bottom = shown["text"][1], shown["text"][3]
    assert t_top - 0.5 <= line[1] and line[3] <= t_bottom + 0.5, (
        f"the result's last line at {line} is cut off by its box at {shown['text']}")
    covered = [label for label in shown["labels"] if _overlaps(shown["box"], label)]
    assert not covered, f"the result covers seat labels or the clock at {covered}"
    later = [t for t in log["cards"] if t > shown["at"]]
    assert later, "no card of the next deal was seen"
    assert later[0] - shown["at"] >= 1500, (
        f"a card of the next deal showed {later[0] - shown['at']:.0f} ms after the result")
    assert not console, f"console errors: {console}"
