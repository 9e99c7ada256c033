"""The watch page ``/watch/{id}`` in a real browser: two spectators (a phone and a laptop)
follow a real online game, Ann playing it in a third browser, from before its start to its
end. A script in each spectator's page notes every card face drawn, where it was drawn, and
every card named in the page's text, after every change to the page (a MutationObserver):
no face-up card but the upcard and the plays on view, never a hand, never a control to act,
no more than two tricks' plays in the log (table law 11), no card named that was not public
(a play, an upcard, or a card of the first draw).
The messages for a private table, a table not found and a cancelled one are shown too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import Browser, Page, expect
from web_helpers import (
    GAME_OVER,
    SIZES,
    Shots,
    continue_after_result,
)

from euchre.cards import card_name, card_text
from page_state import BID, CARD, PLAYER_STATE_JS, wait_for_state

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = SIZES["390x844"]

OBSERVER_JS = """
(() => {
  const REGIONS = [".trick", ".pile", ".upcard-note", ".last-trick-panel", ".hand", ".seat",
                   ".summary-panel", ".game-over-panel", ".side"];
  const RANK = "(?:Nine|Ten|Jack|Queen|King|Ace)";
  const NAME = new RegExp(`\\\\b(?:${RANK} of (?:Clubs|Diamonds|Hearts|Spades)|Joker)\\\\b`, "g");
  const seen = new Set();
  const named = new Set();
  const watch = { faces: [], named: [], controls: 0, maxTrick: 0, maxLogPlays: 0, scans: 0 };
  window.__watch = watch;
  function scan() {
    const main = document.getElementById("main");
    if (!main || !location.pathname.startsWith("/watch/")) return;
    watch.scans += 1;
    const handRow = [...main.querySelectorAll(".facts .fact")].find(
      (row) => row.querySelector("dt")?.textContent === "Hand");
    const hand = Number(handRow?.querySelector("dd")?.textContent || 0);
    for (const svg of main.querySelectorAll("svg.card-svg[data-card]")) {
      const region = REGIONS.find((r) => svg.closest(r)) || "other";
      const key = `${svg.dataset.card}@${region}@${hand}`;
      if (!seen.has(key)) { seen.add(key); watch.faces.push([svg.dataset.card, region, hand]); }
    }
    for (const name of main.textContent.match(NAME) || []) {
      if (!named.has(name)) { named.add(name); watch.named.push(name); }
    }
    const count = (selector) => main.querySelectorAll(selector).length;
    watch.maxTrick = Math.max(watch.maxTrick, count(".trick svg.card-svg[data-card]"));
    watch.maxLogPlays = Math.max(watch.maxLogPlays, count(".log li.log-play"));
    const act = ".actions, .hand, .card-button, .bid-button, [data-key='tool:hint']";
    if (main.querySelector(act)) watch.controls += 1;
  }
  new MutationObserver(scan).observe(
    document, { subtree: true, childList: true, characterData: true, attributes: true });
})();
"""


def _context_page(browser: Browser, server_url: str, viewport: dict[str, int],
                  errors: list[str], observe: bool = False) -> Page:
    context = browser.new_context(viewport=viewport, base_url=server_url)
    # The page's "fast" speed: a hand's result holds each page 2 s, not 4 (the game's pace is
    # not what this test is about). Not on the first about:blank, where storage is refused.
    context.add_init_script("if (location.protocol.startsWith('http')) "
                            "localStorage.setItem('euchre.speed', 'fast')")
    if observe:
        context.add_init_script(OBSERVER_JS)
    context.set_default_timeout(20_000)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _public_by_hand(record: dict[str, Any]) -> list[set[str]]:
    """For each hand, the cards a spectator may be shown: its upcard and its plays."""
    return [{hand["kitty"][0]} | {a.split()[1] for _, a in hand["actions"]
                                  if a.startswith("play ")}
            for hand in record["hands"]]


SNAP_JS = """() => ({
  bidding: Boolean(document.querySelector(".pile:not([hidden]) .upcard"))
    && document.querySelectorAll(".bids li").length >= 2,
  playing: document.querySelectorAll(".trick .trick-card").length >= 2,
})"""
"""What a spectator's page shows now, read in one call: the bidding (the upcard and two bids
or more) and the play (two cards or more in the trick)."""

def _snap(page: Page, shots: Shots) -> None:
    """A screenshot of the bidding and of the play, the first time each is on view."""
    if not (shots.wants("bidding") or shots.wants("playing")):
        return
    shown = page.evaluate(SNAP_JS)
    for phase in ("bidding", "playing"):
        if shown[phase]:
            shots.take(page, phase)


@pytest.mark.quick_pace
def test_spectators_follow_a_real_online_game_to_its_end_and_see_no_hidden_card(
        browser: Browser, server_url: str, artifacts: Path) -> None:
    errors: list[str] = []
    ann = _context_page(browser, server_url, LAPTOP, errors)
    eve = _context_page(browser, server_url, PHONE, errors, observe=True)
    dan = _context_page(browser, server_url, LAPTOP, errors, observe=True)
    shots = {eve: Shots(artifacts, "watch-390x844"), dan: Shots(artifacts, "watch-1366x768")}

    ann.goto("/online")
    ann.get_by_label("Your name").fill("Ann")
    presets = ann.get_by_label("Rules to play by")
    expect(presets.locator("option[value='short']")).to_have_count(1)
    presets.select_option("short")
    ann.get_by_label("Computer players in empty seats").select_option("easy")
    ann.get_by_role("button", name="Create an online table").click()
    expect(ann).to_have_url(re.compile(r"/online/[\w-]+$"))
    table_id = ann.url.rsplit("/", 1)[1]

    # Eve comes before the start: she is told so and offered to wait.
    eve.goto(f"/watch/{table_id}")
    expect(eve.get_by_role("heading", name="This game has not started yet")).to_be_visible()
    expect(eve.get_by_role("status")).to_contain_text("Ann's table has 1 of 4 seats taken")
    eve.screenshot(path=str(artifacts / "watch-390x844-not-started.png"), full_page=True)
    eve.get_by_role("button", name="Wait and watch").click()
    expect(eve.get_by_role("heading", name="Waiting for the game to start…")).to_be_visible()

    ann.get_by_role("button", name="Start the game").click()
    expect(ann).to_have_url(re.compile(r"/table/[\w-]+$"))
    # The first draw (cards dealt face up to find the first dealer) is public, and hand 1's
    # log names it; the record does not hold it, so it is read from Ann's snapshot.
    token = ann.evaluate(
        "(id) => import('/static/js/storage.js').then((m) => m.seatToken(id))", table_id)
    draw = httpx.get(f"{server_url}/api/tables/{table_id}", params={"token": token}
                     ).json()["first_draw"]
    drawn = {c["card"] for c in draw["cards"]} if draw else set()
    # Eve starts watching by herself; Dan comes after the start.
    expect(eve.locator(".table-page.watching")).to_be_visible()
    dan.goto(f"/watch/{table_id}")
    expect(dan.locator(".table-page.watching")).to_be_visible()
    for page in (eve, dan):
        expect(page.locator(".seat-south .seat-title")).to_have_text("Ann")
        expect(page.locator(".seat-south .seat-mark")).to_have_count(0)
        for where in ("west", "north", "east"):
            expect(page.locator(f".seat-{where} .seat-mark")).to_have_text("computer · easy")
        expect(page.locator(".watchers")).to_have_text("Watching · 2 spectators")
        expect(page.locator(".actions, .hand, [data-key='tool:hint']")).to_have_count(0)
    expect(ann.locator(".watchers")).to_have_text("2 spectators watching")

    clock_seen = False
    for _ in range(600):
        where = wait_for_state(ann, PLAYER_STATE_JS, settle=".hand, .actions")
        if where == "over":
            break
        if where == "result":
            # Ann has read the hand's result: she continues (the next deal comes at once,
            # not after the page's hold); each spectator's page holds it its own time.
            continue_after_result(ann)
            continue
        if not clock_seen:  # Ann is to move: the spectators see her clock, by name
            for page in (eve, dan):
                expect(page.locator(".clock")).to_contain_text("Ann's clock: ")
                expect(page.locator(".status")).to_contain_text("Ann")
            clock_seen = True
        bidding = where == "pass" and re.search(
            "order up|pick up|name a trump", ann.locator(".status").inner_text())
        for page, shot in shots.items():
            if bidding and shot.wants("bidding"):
                # Ann is to bid: each spectator, once past its own hold of a result, shows it.
                expect(page.locator(".status")).to_contain_text(
                    re.compile("Ann to (bid|name trump)"), timeout=20_000)
                shot.take(page, "bidding")
            _snap(page, shot)
        if where == "pass":
            ann.get_by_role("button", name="Pass", exact=True).click()
        else:
            ann.locator(CARD if where == "card" else BID).first.click()
    else:
        raise AssertionError("the game did not end")

    for page in (eve, dan):
        expect(page.locator(GAME_OVER)).to_be_visible()
        expect(page.locator(GAME_OVER)).to_contain_text("The game is over")
        expect(page.locator(".status")).to_contain_text(
            re.compile(r"The game is over: .* won the game"))
        expect(page.get_by_role("link", name="Watch the replay")).to_be_visible()
    for page, shot in shots.items():
        shot.take(page, "game-over")
        assert {"bidding", "playing"} <= shot.taken, shot.taken
    for page, size in ((eve, 390), (dan, 1366)):
        assert page.evaluate("document.documentElement.scrollWidth") <= size

    record = httpx.get(f"{server_url}/api/games/{table_id}/record",
                       params={"format": "json"}).json()
    by_hand = _public_by_hand(record)
    public = set().union(drawn, *by_hand)
    public_names = {card_name(c) for c in range(25) if card_text(c) in public}
    for page in (eve, dan):
        watched = page.evaluate("window.__watch")
        assert watched["scans"] > 100, watched["scans"]
        faces = {(card, region, hand) for card, region, hand in watched["faces"]}
        regions = {region for _, region, _ in faces}
        assert regions <= {".trick", ".pile", ".upcard-note", ".last-trick-panel"}, faces
        assert any(region == ".trick" for _, region, _ in faces)
        # Each face drawn while hand N was on the page is that hand's upcard or a play of
        # it (or of hand N-1: its last trick and upcard stay a moment as the next is dealt).
        for card, region, hand in faces:
            allowed = set().union(*by_hand[max(0, hand - 2):hand]) if hand else set()
            assert card in allowed, (card, region, hand)
        assert watched["maxTrick"] <= 4, watched["maxTrick"]
        assert 0 < watched["maxLogPlays"] <= 8, watched["maxLogPlays"]
        assert watched["controls"] == 0
        assert set(watched["named"]) <= public_names, set(watched["named"]) - public_names
        assert watched["named"]
    # Not vacuous: most of the deck was never public, and none of it was drawn face up.
    assert len(public) < 25
    assert not errors, errors


def test_the_watch_page_says_why_there_is_nothing_to_watch(browser: Browser,
                                                           server_url: str) -> None:
    errors: list[str] = []
    eve = _context_page(browser, server_url, PHONE, errors)
    with httpx.Client(base_url=server_url) as http:
        private = http.post("/api/tables", json={"kind": "online", "name": "Pia",
                                                 "spectators": False}).json()
        started = http.post("/api/tables", json={"kind": "online", "name": "Sal",
                                                 "spectators": False}).json()
        assert http.post(f"/api/tables/{started['id']}/start",
                         json={"token": started["token"]}).status_code == 200
        gone = http.post("/api/tables", json={"kind": "online", "name": "Cy"}).json()
        assert http.post(f"/api/online/{gone['id']}/cancel",
                         json={"token": gone["token"]}).status_code == 200
    for table_id, heading in ((private["id"], "This table does not allow spectators"),
                              (started["id"], "This table does not allow spectators"),
                              (gone["id"], "This table was cancelled"),
                              ("no-such-table", "No table here")):
        eve.goto(f"/watch/{table_id}")
        expect(eve.get_by_role("heading", name=heading)).to_be_visible()
        expect(eve.get_by_role("link", name="Find another game")).to_be_visible()
        expect(eve.locator(".table-page")).to_have_count(0)
    assert not errors, errors


def test_the_upcard_note_keeps_no_card_face_once_hidden(browser: Browser,
                                                        server_url: str) -> None:
    # A hand thrown in never reaches play: the note of the hand before must not stay in the
    # page (hidden) through the next hands' bidding (the cause of a spectator test failing
    # with ('9H', '.upcard-note', 6): hand 4's upcard, still there when hand 6 was bid).
    errors: list[str] = []
    page = _context_page(browser, server_url, LAPTOP, errors)
    page.goto("/")
    faces = page.evaluate("""async () => {
      const { renderUpcardNote } = await import("/static/js/seats.js");
      const note = document.createElement("p");
      document.body.append(note);
      const faces = () => [...note.querySelectorAll("svg[data-card]")].map((s) => s.dataset.card);
      const play = { phase: "play", upcard: "9H", upcard_taken: false, dealer: 1 };
      renderUpcardNote(note, play, 0);
      const shown = [note.hidden, faces()];
      renderUpcardNote(note, { ...play, phase: "order", upcard: "TS" }, 0);  // the next deal
      const bidding = [note.hidden, faces()];
      renderUpcardNote(note, { ...play, upcard: "JC", upcard_taken: true }, 0);
      return [shown, bidding, [note.hidden, faces()]];
    }""")
    assert faces == [[False, ["9H"]], [True, []], [False, ["JC"]]]
    assert not errors, errors
