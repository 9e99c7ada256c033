"""Driving the web table like a person: start a table, make whatever move is offered, keep
screenshots of each phase. The driver never decides what is legal; it clicks an enabled button.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

SIZES = {
    "1366x657": {"width": 1366, "height": 657},
    "1280x720": {"width": 1280, "height": 720},
    "1440x900": {"width": 1440, "height": 900},
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
}
"""The window sizes every screen must fit: laptops with browser bars, a desktop, two phones."""

CHOICES = ".actions button:enabled, .hand .card-button:enabled"
"""Every control that makes a move right now (bids and playable cards)."""

GAME_OVER = ".game-over-panel"
SUMMARY = ".summary-panel"


def screenshot(page: Page, path: Path, *, full_page: bool = True) -> None:
    """A screenshot (of the whole page, or of the window) with animations finished."""
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")


class Shots:
    """Screenshots of each phase, taken the first time the phase is seen."""

    def __init__(self, folder: Path, prefix: str) -> None:
        self.folder = folder
        self.prefix = prefix
        self.taken: set[str] = set()

    def wants(self, phase: str) -> bool:
        return phase not in self.taken

    def take(self, page: Page, phase: str, *, full_page: bool = True) -> None:
        if phase in self.taken:
            return
        self.taken.add(phase)
        screenshot(page, self.folder / f"{self.prefix}-{phase}.png", full_page=full_page)


def start_table(page: Page, preset: str = "classic", shots: Shots | None = None,
                game_to: int | None = None) -> str:
    """Open the start page, choose a preset (and the game's length), start the table;
    returns the table's URL."""
    page.goto("/")
    expect(page.get_by_role("heading", name="Euchre", exact=True)).to_be_visible()
    preset_box = page.get_by_label("Preset")
    expect(preset_box.locator(f"option[value='{preset}']")).to_have_count(1)
    preset_box.select_option(preset)
    if game_to is not None:
        page.get_by_label("Game to").select_option(str(game_to))
    if shots:
        shots.take(page, "start")
    page.get_by_role("button", name="Start this table").click()
    expect(page).to_have_url(re.compile(r"/table/[\w-]+$"))
    return page.url


def choices(page: Page) -> Locator:
    """The enabled move controls."""
    return page.locator(CHOICES)


def hand_names(page: Page) -> list[str]:
    """The accessible names of the cards in our hand, in display order."""
    return [
        b.get_attribute("aria-label") or ""
        for b in page.get_by_role("group", name="Your hand").get_by_role("button").all()
    ]


def wait_for_turn(page: Page, *, also: str = "") -> None:
    """Wait until we have a move to make or the game is over (or `also` shows)."""
    selector = f"{CHOICES}, {GAME_OVER}" + (f", {also}" if also else "")
    page.locator(selector).first.wait_for()


def continue_after_result(page: Page) -> None:
    """Press the hand result's Continue (if it is still up) and wait for it to go."""
    button = page.locator(f"{SUMMARY} .panel-close")
    with contextlib.suppress(PlaywrightError):  # its hold ran out meanwhile: it is gone
        button.click(timeout=3_000)
    expect(page.locator(SUMMARY)).to_have_count(0)


def show_result(page: Page) -> None:
    """On Playwright's paused clock: let the hand's last trick settle until its result is
    shown, then one frame more (the result's hold counts from the frame it is painted in)."""
    for _ in range(100):
        if page.locator(SUMMARY).count():
            page.clock.run_for(20)
            return
        page.clock.run_for(50)
    raise AssertionError("the hand's result was not shown")


def make_a_move(page: Page, prefer: tuple[str, ...] = ("Pass",)) -> str:
    """Click one enabled move: a preferred bid if offered, else the first bid, else the first
    playable card. Returns the accessible name clicked."""
    bids = page.locator(".actions button:enabled")
    if bids.count():
        for name in prefer:
            button = page.get_by_role("button", name=name, exact=True)
            if button.count() and button.is_enabled():
                button.click()
                return name
        first = bids.first
        name = first.inner_text()
        first.click()
        return name
    card = page.locator(".hand .card-button:enabled").first
    name = card.get_attribute("aria-label") or ""
    card.click()
    return name


def play_to_the_end(
    page: Page, shots: Shots | None = None, *, take_discard: bool = False, max_moves: int = 800
) -> str:
    """Play moves until the game is over; returns the live region's final text.

    With `take_discard`, order up when we deal (once), so that we discard a card.
    """
    status = page.get_by_role("status")
    for _ in range(max_moves):
        wait_for_turn(page, also=SUMMARY)
        if page.locator(GAME_OVER).is_visible():
            expect(status).to_contain_text("won the game")
            if shots:
                shots.take(page, "game-over")
            return status.inner_text()
        if page.locator(SUMMARY).is_visible():
            # A hand's result holds the table: nothing of the next deal is offered behind it.
            expect(page.locator(SUMMARY)).to_contain_text("Hand")
            expect(page.locator(CHOICES)).to_have_count(0)
            if shots:
                shots.take(page, "hand-summary")
            continue_after_result(page)
            continue
        if not choices(page).count():
            continue
        prefer: tuple[str, ...] = ("Pass",)
        if shots is not None:
            bidding = page.get_by_role("button", name="Pass", exact=True)
            if shots.wants("bidding") and bidding.count():
                shots.take(page, "bidding")
            if page.locator(".hand.discarding").count():
                shots.take(page, "discard")
            playing = not page.locator(".actions button").count()
            if shots.wants("play") and playing and page.locator(".trick .trick-card").count():
                shots.take(page, "play")
        dealing = page.locator(".seat-south .tag-dealer").count() > 0
        if take_discard and dealing and shots is not None and shots.wants("discard"):
            prefer = ("Order up", "Pass")
        make_a_move(page, prefer)
    raise AssertionError("the game did not end")


OFF_SCREEN_JS = """async (selector) => {
  // Where things come to rest: wait for any card still sliding in.
  const moving = [...document.querySelectorAll(selector)].flatMap((el) => el.getAnimations());
  await Promise.all(moving.map((a) => a.finished.catch(() => null)));
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
      const box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
      out.push(`${el.getAttribute('aria-label') || el.textContent.trim()} at ${box}`);
    }
  }
  if (scrollX || scrollY) out.push(`the page is scrolled to ${scrollX},${scrollY}`);
  return out;
}"""


def off_screen_choices(page: Page) -> list[str]:
    """Every enabled move control not wholly inside the window (and any scrolling)."""
    result: list[str] = page.evaluate(OFF_SCREEN_JS, CHOICES)
    return result


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core as pinned in package.json (installed by ``scripts/setup dev`` with ``npm ci``)."""


def serious_violations(page: Page, *, stopped_clock: bool = False) -> list[str]:
    """axe-core's serious and critical findings on the page as it is now (animations done).

    axe waits on its own timers: on Playwright's stopped clock (``stopped_clock``) the test
    moves that clock on a few milliseconds at a time until axe is done, far less than any
    of the page's own waits (a hand's result holds 1.5 s at least), so the phase stays."""
    assert AXE.exists(), f"{AXE} is missing: run scripts/setup dev (it needs npm)"
    page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0)))")
    if not page.evaluate("Boolean(window.axe)"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    assert page.evaluate("axe.version") == "4.14.1"
    run = "axe.run(document, {resultTypes: ['violations']})"
    if stopped_clock:
        page.evaluate(f"""() => {{ window.__axe = null;
          {run}.then((r) => {{ window.__axe = {{ r }}; }},
                     (e) => {{ window.__axe = {{ e: String(e) }}; }}); }}""")
        moved = 0
        while not page.evaluate("Boolean(window.__axe)"):
            assert moved < 1000, "axe did not finish within 1 s of the page's stopped clock"
            page.clock.run_for(5)
            moved += 5
        done = page.evaluate("window.__axe")
        assert "e" not in done, done
        results = done["r"]
    else:
        results = page.evaluate(run)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(", ".join(n["target"]) for n in v["nodes"][:4])
        for v in results["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


def settle(page: Page) -> None:
    """Wait until every animation on the page has finished (cards dealt in, trick swept):
    a click on a card still sliding in can make Playwright scroll to chase it."""
    page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0)))")
