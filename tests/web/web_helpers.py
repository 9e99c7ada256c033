"""Driving the web table like a person: start a table, make whatever move is offered, keep
screenshots of each phase. The driver never decides what is legal; it clicks an enabled button.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from page_state import REACHED_JS

SIZES = {
    "1366x657": {"width": 1366, "height": 657},
    "1280x720": {"width": 1280, "height": 720},
    "1440x900": {"width": 1440, "height": 900},
    "768x1024": {"width": 768, "height": 1024},
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
}
"""The window sizes every screen must fit: laptops with browser bars, a desktop, a tablet,
two phones."""

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


TURN_JS = """async ({choices, over, summary, settle, timeout}) => {
  // Playwright's visible: a non-empty box, not visibility:hidden.
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const any = (sel) => [...document.querySelectorAll(sel)].some(shown);
  const wanted = `${choices}, ${over}` + (summary ? `, ${summary}` : '');
  if (!(await (""" + REACHED_JS + """)(() => any(wanted), timeout))) return null;
  const els = [...document.querySelectorAll(choices)];
  if (settle) {  // where things come to rest: wait for any choice still sliding in
    const moving = els.flatMap((el) => el.getAnimations());
    await Promise.all(moving.map((a) => a.finished.catch(() => 0)));
  }
  const offScreen = [];
  const items = els.map((el, index) => {
    const r = el.getBoundingClientRect();
    const inside = r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5
      && r.bottom <= innerHeight + 0.5;
    const name = (el.getAttribute('aria-label') || el.innerText || '').replace(/\\s+/g, ' ').trim();
    if (!inside) {
      const box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
      offScreen.push(`${el.getAttribute('aria-label') || el.textContent.trim()} at ${box}`);
    }
    const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    const hit = inside ? document.elementFromPoint(x, y) : null;
    return {
      index, name, x, y, bid: Boolean(el.closest('.actions')),
      // clickable as it is: in the window, at rest, and the topmost thing at its middle
      ready: Boolean(hit && el.contains(hit)) && shown(el)
        && !el.getAnimations().some((a) => a.playState !== 'finished'),
    };
  });
  if (scrollX || scrollY) offScreen.push(`the page is scrolled to ${scrollX},${scrollY}`);
  const panel = [...document.querySelectorAll(summary || ':not(*)')].find(shown);
  const status = document.querySelector('[role=status]');
  return {
    over: any(over),
    summary: panel ? panel.innerText : null,
    status: status ? status.innerText : '',
    items, offScreen,
    bidding: [...document.querySelectorAll('button')].some(
      (b) => (b.getAttribute('aria-label') || b.innerText || '').trim() === 'Pass'),
    bidButtons: document.querySelectorAll('.actions button').length,
    roundTwo: document.querySelectorAll(".actions [data-action^='call']").length > 0,
    discarding: document.querySelector('.hand.discarding') !== null,
    trickCards: document.querySelectorAll('.trick .trick-card').length,
    dealer: document.querySelector('.seat-south .tag-dealer') !== null,
  };
}"""


SETTLED_SPOT_JS = """async ({choices, index}) => {
  // A choice still moving (dealt in, lifted as playable): its middle once it is at rest, if
  // it is then wholly in the window and topmost there; else null.
  const el = document.querySelectorAll(choices)[index];
  if (!el) return null;
  await Promise.all(el.getAnimations().map((a) => a.finished.catch(() => 0)));
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0 || r.left < 0 || r.top < 0 || r.right > innerWidth
      || r.bottom > innerHeight || getComputedStyle(el).visibility === 'hidden') return null;
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  const hit = document.elementFromPoint(x, y);
  return hit && el.contains(hit) && !el.disabled ? [x, y] : null;
}"""


@dataclass(frozen=True)
class Choice:
    """One enabled move control as the page showed it."""

    index: int
    """Its place among :data:`CHOICES` (document order)."""
    name: str
    """Its accessible name (``aria-label``, else its text)."""
    bid: bool
    """A bid (in the choices row), not a card."""
    x: float
    y: float
    ready: bool
    """Clickable as it is: wholly in the window, at rest, and topmost at its middle."""


@dataclass(frozen=True)
class Turn:
    """What the table page shows when it next waits for us, read in one round trip."""

    over: bool
    """The game-over panel is shown."""
    summary: str | None
    """The hand result's text, when it is shown."""
    status: str
    """The live region's text."""
    choices: list[Choice]
    off_screen: list[str]
    """Choices not wholly inside the window, and any scrolling (as :func:`off_screen_choices`)."""
    bidding: bool
    """A Pass button is on the page."""
    bid_buttons: int
    """Buttons in the choices row, enabled or not."""
    round_two: bool
    discarding: bool
    trick_cards: int
    dealer: bool
    """We (south) deal this hand."""

    @property
    def bids(self) -> list[Choice]:
        """The enabled bids."""
        return [c for c in self.choices if c.bid]

    @property
    def cards(self) -> list[Choice]:
        """The playable cards."""
        return [c for c in self.choices if not c.bid]


def next_turn(page: Page, *, summary: bool = True, settle: bool = False,
              timeout_ms: int = 20_000) -> Turn:
    """Wait until we have a move to make, the game is over or (with ``summary``) a hand's
    result is shown, and read the table as it is then: one ``evaluate`` where
    :func:`wait_for_turn` and the checks after it took a WebDriver round trip each. With
    ``settle`` it first waits for every choice still sliding in (for ``off_screen``)."""
    raw = page.evaluate(TURN_JS, {"choices": CHOICES, "over": GAME_OVER,
                                  "summary": SUMMARY if summary else "", "settle": settle,
                                  "timeout": timeout_ms})
    if raw is None:
        raise AssertionError(f"no choice, result or game over within {timeout_ms} ms")
    return Turn(
        over=raw["over"], summary=raw["summary"], status=raw["status"],
        choices=[Choice(**item) for item in raw["items"]], off_screen=raw["offScreen"],
        bidding=raw["bidding"], bid_buttons=raw["bidButtons"], round_two=raw["roundTwo"],
        discarding=raw["discarding"], trick_cards=raw["trickCards"], dealer=raw["dealer"],
    )


def take_turn(page: Page, turn: Turn, prefer: tuple[str, ...] = ("Pass",)) -> str:
    """Click one of ``turn``'s moves as :func:`make_a_move` would choose it: a preferred bid if
    offered, else the first bid, else the first playable card. A choice clickable as it is
    is clicked with the mouse at its middle; any other (sliding in, covered, out of view)
    by Playwright's click, which scrolls to it and waits until it can be clicked. Returns
    the accessible name clicked."""
    bids = turn.bids
    if bids:
        chosen = next((c for name in prefer for c in bids if c.name == name), bids[0])
    elif turn.cards:
        chosen = turn.cards[0]
    else:
        raise AssertionError("no move is offered")
    spot = (chosen.x, chosen.y) if chosen.ready else page.evaluate(
        SETTLED_SPOT_JS, {"choices": CHOICES, "index": chosen.index})
    if spot:
        page.mouse.click(*spot)
    else:
        page.locator(CHOICES).nth(chosen.index).click()
    return chosen.name


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
    Each turn is read in one round trip (:func:`next_turn`); an assertion on what was read
    that does not hold yet is asked again of the page with Playwright's retrying ``expect``.
    """
    status = page.get_by_role("status")
    for _ in range(max_moves):
        turn = next_turn(page)
        if turn.over:
            if "won the game" not in turn.status:
                expect(status).to_contain_text("won the game")
            if shots:
                shots.take(page, "game-over")
            return turn.status if "won the game" in turn.status else status.inner_text()
        if turn.summary is not None:
            # A hand's result holds the table: nothing of the next deal is offered behind it.
            if "Hand" not in turn.summary:
                expect(page.locator(SUMMARY)).to_contain_text("Hand")
            if turn.choices:
                expect(page.locator(CHOICES)).to_have_count(0)
            if shots:
                shots.take(page, "hand-summary")
            continue_after_result(page)
            continue
        if not turn.choices:
            continue
        prefer: tuple[str, ...] = ("Pass",)
        if shots is not None:
            if shots.wants("bidding") and turn.bidding:
                shots.take(page, "bidding")
            if turn.discarding:
                shots.take(page, "discard")
            playing = not turn.bid_buttons
            if shots.wants("play") and playing and turn.trick_cards:
                shots.take(page, "play")
        if take_discard and turn.dealer and shots is not None and shots.wants("discard"):
            prefer = ("Order up", "Pass")
        take_turn(page, turn, prefer)
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
