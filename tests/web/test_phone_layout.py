"""A phone without overlaps: at 390x844 and 360x740, in every phase (bidding, play, the last
trick, the hand's result, the game's end, a person away, a spectator's page), with long
names, the boxes of names, tags and cards are measured: no name broken inside a word (a
shortened one keeps its full name in ``title``), no label over a card or over another
label, no tag or name clipped, the game-over headline and its buttons in view, a compact
menu, and the hint never over the trick; axe-core finds nothing serious or critical in any
of these phases (the hand's result and the game's end too), nor on the spectator's and the
hint's pages. The laptop size is measured and kept too.

The table socket is the scripted stand-in (``scripted_table.py``) with people's names; the
page's clock is stopped (Playwright's clock), so a held result stays while it is measured
(axe is moved along on it a few milliseconds at a time: ``serious_violations``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from scripted_table import ME, ScriptedTable, open_scripted, open_watching
from web_helpers import SIZES, screenshot, serious_violations, settle, show_result

from euchre.cards import suit_text
from euchre.hand import HandState, deal
from euchre.rules import Rules

pytestmark = pytest.mark.browser

HANDS = [
    ["JH", "JD", "AH", "KH", "QH"],
    ["9C", "TC", "JC", "QC", "KC"],
    ["AC", "9D", "TD", "QD", "KD"],
    ["AD", "9S", "TS", "JS", "QS"],
]
KITTY = ["9H", "TH", "KS", "AS"]
NAMES = ["ann_u x", "Bartholomew_Featherstonehaugh", "christina.m", "Dmitri-Alexandrovich"]
"""People's names as the issue met them: one with a space, long ones without."""

MEASURE_JS = (Path(__file__).parent / "layout_measure.js").read_text(encoding="utf-8")
"""The measurements, run in the page: a list of the problems found."""

IN_VIEW_JS = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const r = el.getBoundingClientRect();
  return r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5;
}).map((el) => `${el.textContent.trim().slice(0, 40)} at ${Math.round(r(el).top)}`)""".replace(
    "${Math.round(r(el).top)}", "${Math.round(el.getBoundingClientRect().top)}")


SIDE_CLIPPED_JS = """() => {
  // A fact of the side panel that runs past the panel's right edge is cut off there.
  const side = document.querySelector('.side');
  if (!side || !side.offsetParent) return [];
  const edge = side.getBoundingClientRect().right;
  return [...side.querySelectorAll('.fact dd, .fact dt')]
    .filter((e) => e.getBoundingClientRect().right > edge + 0.5)
    .map((e) => `side panel: "${e.textContent.trim()}" runs past its right edge`);
}"""
"""Facts in the side panel cut off at its edge (a long name once widened its grid)."""


def _measure(page: Page, phase: str, problems: dict[str, list[str]], shots: Path,
             size: str, *, clock_paused: bool = True) -> None:
    settle(page)
    found: list[str] = page.evaluate(MEASURE_JS)
    assert isinstance(found, list), found  # the measuring ran
    found += page.evaluate(SIDE_CLIPPED_JS)
    found += [f"axe: {v}" for v in serious_violations(page, stopped_clock=clock_paused)]
    if found:
        problems[phase] = found
    screenshot(page, shots / f"phone-{size}-{phase}.png", full_page=False)


def _summary(state: HandState) -> dict[str, Any]:
    maker_side = state.maker % 2
    return {
        "hand_number": 1, "dealer": state.dealer, "maker": state.maker,
        "trump": suit_text(state.trump), "alone": state.alone,
        "lone_defender": None, "tricks_won": list(state.tricks_won),
        "points": list(state.points), "euchred": state.tricks_won[maker_side] < 3,
        "march": state.tricks_won[maker_side] == 5, "thrown_in": False, "reneged": None,
        "score": list(state.points), "seed": None, "client_seeds": {}, "pattern": None,
    }


def _play_out(page: Page, table: ScriptedTable) -> None:
    """Play our first legal card until the hand is over."""
    cards = page.locator(".hand .card-button")
    while not table.state.is_over:
        held = cards.count()
        settle(page)
        page.locator(".hand .card-button:enabled").first.click()
        expect(cards).to_have_count(held - 1)


@pytest.mark.parametrize("size", ["390x844", "360x740", "1366x657"])
def test_no_overlaps_in_any_phase(browser: Browser, server_url: str, artifacts: Path,
                                  size: str) -> None:
    context = browser.new_context(viewport=SIZES[size], base_url=server_url,
                                  is_mobile=size != "1366x657", has_touch=size != "1366x657")
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.clock.install()
    page.clock.pause_at(1_700_000_000_000)
    problems: dict[str, list[str]] = {}
    try:
        state = deal(Rules.preset("stick-the-dealer"), ME, HANDS, KITTY)
        table = open_scripted(page, state, "stick-the-dealer", names=NAMES, kind="online")
        expect(page.get_by_role("button", name="Order up", exact=True)).to_be_visible()
        header = page.locator(".site-header").bounding_box()
        assert header is not None
        if size != "1366x657" and header["height"] > 56:
            problems["menu"] = [f"the menu is {header['height']}px tall"]
        _measure(page, "bidding", problems, artifacts, size)

        page.get_by_role("button", name="Order up", exact=True).click()
        page.get_by_role("button", name="Nine of Hearts", exact=True).click()
        expect(page.locator(".trick .trick-card")).to_have_count(3)  # the others played
        _measure(page, "play", problems, artifacts, size)

        page.get_by_role("button", name="Jack of Hearts", exact=True).click()
        expect(page.get_by_role("button", name="Last trick")).to_be_enabled()
        page.get_by_role("button", name="Last trick").click()
        expect(page.get_by_role("region", name="Last trick")).to_be_visible()
        _measure(page, "last-trick", problems, artifacts, size)
        page.get_by_role("region", name="Last trick").get_by_role("button").click()

        # Our move done (the trick in progress); a person away at West.
        seats = table.seats()
        seats[1] = {**seats[1], "away_ms_left": 83_000}
        table.push(seats=seats)
        expect(page.locator(".seat-away")).to_have_count(1)
        _measure(page, "away", problems, artifacts, size)
        table.push(seats=table.seats())

        _play_out(page, table)
        table.push(summary=_summary(table.state), score=list(table.state.points))
        show_result(page)
        expect(page.get_by_role("region", name="End of the hand")).to_be_visible()
        _measure(page, "hand-result", problems, artifacts, size)

        result = page.get_by_role("region", name="End of the hand")
        result.get_by_role("button", name="Continue").click()
        table.push(game_over=True, winner=0, score=[10, 7])
        page.clock.run_for(2_000)  # the last trick settles before the game's end shows
        heading = page.get_by_role("region", name="Game over").get_by_role("heading").first
        expect(heading).to_be_visible()
        _measure(page, "game-over", problems, artifacts, size)
        out = page.evaluate(IN_VIEW_JS,
                            ".game-over-panel h2, .game-over-panel > .panel-actions > *")
        if out:
            problems["game-over in view"] = out
    finally:
        context.close()
    assert not problems, problems


@pytest.mark.parametrize("size", ["390x844", "360x740"])
def test_a_spectators_phone_has_no_overlaps(browser: Browser, server_url: str,
                                            artifacts: Path, size: str) -> None:
    context = browser.new_context(viewport=SIZES[size], base_url=server_url, is_mobile=True,
                                  has_touch=True)
    context.set_default_timeout(20_000)
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    try:
        state = deal(Rules.preset("classic"), 1, HANDS, KITTY)
        open_watching(page, state, "classic", names=NAMES, kind="online")
        expect(page.get_by_role("status")).not_to_have_text("Connecting to the table…")
        _measure(page, "spectating", problems, artifacts, size, clock_paused=False)
    finally:
        context.close()
    assert not problems, problems


def test_the_hint_does_not_cover_the_trick_on_a_phone(browser: Browser, server_url: str,
                                                      artifacts: Path) -> None:
    context = browser.new_context(viewport=SIZES["390x844"], base_url=server_url,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    problems: dict[str, list[str]] = {}
    try:
        state = deal(Rules.preset("stick-the-dealer"), ME, HANDS, KITTY)
        open_scripted(page, state, "stick-the-dealer")
        page.get_by_role("button", name="Order up", exact=True).click()
        page.get_by_role("button", name="Nine of Hearts", exact=True).click()
        expect(page.locator(".trick .trick-card")).to_have_count(3)  # the others played
        page.get_by_role("button", name="Hint").click()
        expect(page.get_by_role("region", name="Hints")).to_be_visible()
        _measure(page, "hint", problems, artifacts, "390x844", clock_paused=False)
    finally:
        context.close()
    assert not problems, problems
