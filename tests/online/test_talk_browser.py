"""A real browser, a word to the table (issue 36 item 6): Ann and Bob at an online table with
two computers, Eve watching. While the hand is in play the quick-message row is off (table
law 10); once its result is in, the row takes the hand's place; Ann's "Hello" shows beside
her seat and in the log on all three screens; Bob mutes Ann and Eve mutes the table (kept
in localStorage), and what they muted does not show; Ann's fourth message in 20 seconds is
refused, said beside the row. At 1366x657, 390x844 and 360x740, no console error;
screenshots in test-artifacts/talk/. A second test opens a silent table from the form."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect

from euchre.server import Settings, create_app
from live_server import live_server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "talk"
SIZES = (("wide", 1366, 657), ("phone", 390, 844), ("small", 360, 740))

MOVE = """() => {
  if (document.querySelector('.talk:not([hidden])')) return "talk";
  const button = document.querySelector(
    '.actions button:not([disabled]), .hand .card-button:not([disabled])');
  if (!button) return "";
  button.click();
  return "moved";
}"""
"""Once the quick-message row is open (the hand is over), say so ("talk"); else click the
first choice the page offers (a bid, a discard or a card), if any ("moved"). One call."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Computers at once and no trick pause (the test is about talk, not the pace); two
    minutes between hands, so the test reads the table between hands at its own pace (it
    waits on what the pages show, never on time)."""
    db = tmp_path_factory.mktemp("talk-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              trick_pause=0.0, limits=roomy_limits(), hand_pause=120.0,
                              resume=False))
    with live_server(app) as url:
        yield url


class Watched:
    """A page and the console errors it logged."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))


def _open(new_context: Callable[..., BrowserContext], base_url: str, width: int, height: int,
          path: str, seat: tuple[str, str] | None = None) -> Watched:
    """A fresh browser at ``path``; ``seat``: (table id, token) it holds in localStorage."""
    context = new_context(base_url=base_url, viewport={"width": width, "height": height})
    context.set_default_timeout(30_000)
    # The fast speed: the page holds each hand's result 2 s, not 4 (not this test's subject).
    context.add_init_script(
        "if (location.protocol.startsWith('http')) localStorage.setItem('euchre.speed', 'fast')")
    if seat is not None:
        seats = json.dumps({seat[0]: {"token": seat[1], "at": 1}})
        context.add_init_script(
            "if (location.protocol.startsWith('http') && !localStorage.getItem('euchre.seats')) "
            f"localStorage.setItem('euchre.seats', {json.dumps(seats)})")
    watched = Watched(context.new_page())
    watched.page.goto(path)
    return watched


def _table(base_url: str, size: str) -> tuple[str, str, str]:
    """Ann (South) and Bob (West) at a started online table: (id, Ann's token, Bob's)."""
    with httpx.Client(base_url=base_url, timeout=30) as http:
        made = http.post("/api/tables", json={"kind": "online", "name": f"Ann{size}",
                                              "seconds_per_move": 300})
        assert made.status_code == 201, made.text
        table_id, ann = made.json()["id"], made.json()["token"]
        sat = http.post(f"/api/tables/{table_id}/seats", json={"seat": 1, "name": f"Bob{size}"})
        assert sat.status_code == 201, sat.text
        started = http.post(f"/api/tables/{table_id}/start", json={"token": ann})
        assert started.status_code == 200, started.text
    return table_id, ann, sat.json()["token"]


def _say(page: Page, words: str) -> None:
    page.locator(".talk-row").get_by_role("button", name=words, exact=True).click()


def _mute(page: Page, label: str) -> None:
    page.locator(".talk-mutes summary").click()
    page.get_by_role("button", name=label, exact=True).click()
    page.locator(".talk-mutes summary").click()  # the menu closes


@pytest.mark.parametrize(("size", "width", "height"), SIZES)
def test_quick_messages_between_hands_seen_by_seats_and_spectators(
        new_context: Callable[..., BrowserContext], base_url: str, size: str, width: int,
        height: int) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    table_id, ann_token, bob_token = _table(base_url, size)
    ann = _open(new_context, base_url, width, height, f"/table/{table_id}",
                (table_id, ann_token))
    bob = _open(new_context, base_url, width, height, f"/table/{table_id}",
                (table_id, bob_token))
    eve = _open(new_context, base_url, width, height, f"/watch/{table_id}")
    a, b, e = ann.page, bob.page, eve.page
    # A hand in play: no table talk. The row is off and out of the way (the hand is there).
    expect(a.locator(".hand .card-button").first).to_be_visible()
    expect(a.locator(".talk")).to_be_hidden()
    for button in a.locator(".talk-button").all():
        expect(button).to_be_disabled()
    expect(e.locator(".talk .talk-note")).to_have_text(
        "Only the people seated send messages; you see them here.")
    a.screenshot(path=str(ARTIFACTS / f"in-play-{size}.png"))
    # Play the hand out (the first choice each time) until its result is in.
    open_row = a.locator(".talk:not([hidden])")
    for _ in range(2000):  # a bound on clicks, not on time
        done = (a.evaluate(MOVE), b.evaluate(MOVE))
        if done == ("talk", "talk"):
            break
        if "moved" not in done:
            a.wait_for_timeout(50)
    expect(open_row).to_be_visible()
    row = a.get_by_role("group", name="Quick messages")
    for words in ("Hello", "Good game", "Thanks", "Well played", "Be right back"):
        expect(row.get_by_role("button", name=words, exact=True)).to_be_enabled()
    # Ann says hello: beside her seat and in the log, on every screen.
    _say(a, "Hello")
    expect(a.locator(".seat-south .seat-talk")).to_have_text("Hello")
    expect(a.locator(".talk-log")).to_contain_text("You: Hello")
    expect(b.locator(".seat-east .seat-talk")).to_have_text("Hello")  # Ann, seen from West
    expect(b.locator(".talk-log")).to_contain_text(f"Ann{size}: Hello")
    expect(e.locator(".seat-south .seat-talk")).to_have_text("Hello")
    expect(e.locator(".talk-log")).to_contain_text(f"Ann{size}: Hello")
    expect(e.locator(".talk-log")).to_have_attribute("aria-live", "polite")
    for watched, who in ((ann, "ann"), (bob, "bob"), (eve, "eve")):
        watched.page.screenshot(path=str(ARTIFACTS / f"hello-{who}-{size}.png"))
    if width < 500:  # a finger's width on phones
        for button in a.locator(".talk-button, .talk-mutes summary").all():
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44, box
    # Bob mutes Ann; Eve mutes the whole table. Kept in this browser's storage.
    _mute(b, f"Mute Ann{size}")
    expect(b.locator(".talk-mute-person")).to_have_attribute("aria-pressed", "true")
    _mute(e, "Mute this table")
    expect(e.locator(".talk-mute-table")).to_have_attribute("aria-pressed", "true")
    expect(e.locator(".talk-mute-table")).to_have_text("Unmute this table")
    kept = json.loads(b.evaluate("localStorage.getItem('euchre.mute')"))
    assert f"Ann{size}" in kept["people"]
    assert table_id in json.loads(e.evaluate("localStorage.getItem('euchre.mute')"))["tables"]
    _say(a, "Thanks")
    expect(a.locator(".talk-log")).to_contain_text("You: Thanks")
    _say(b, "Well played")
    expect(b.locator(".talk-log")).to_contain_text("You: Well played")
    expect(a.locator(".talk-log")).to_contain_text(f"Bob{size}: Well played")
    expect(a.locator(".seat-west .seat-talk")).to_have_text("Well played")
    expect(b.locator(".talk-log")).not_to_contain_text("Thanks")  # Ann muted (it came first)
    # Eve unmutes: what came while muted stays unshown, what comes next shows.
    _mute(e, "Unmute this table")
    _say(a, "Be right back")
    expect(e.locator(".talk-log")).to_contain_text(f"Ann{size}: Be right back")
    expect(e.locator(".talk-log")).not_to_contain_text("Thanks")
    expect(e.locator(".talk-log")).not_to_contain_text("Well played")
    # Ann's fourth message in 20 seconds: refused by the table, said beside the row.
    _say(a, "Good game")
    expect(a.locator(".talk-note")).to_have_text(re.compile(
        r"^Not sent: too many messages: at most 3 every 20 seconds; try again in \d+ s\.$"))
    expect(a.locator(".error")).to_be_hidden()
    for watched, who in ((ann, "ann"), (bob, "bob"), (eve, "eve")):
        watched.page.screenshot(path=str(ARTIFACTS / f"after-{who}-{size}.png"))
    b.locator(".talk-mutes summary").click()
    b.screenshot(path=str(ARTIFACTS / f"mute-menu-bob-{size}.png"))
    for watched in (ann, bob, eve):
        assert not watched.errors, watched.errors


def test_a_silent_table_from_the_form_is_said_in_the_lobby_and_at_the_table(
        new_context: Callable[..., BrowserContext], base_url: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, width, height in SIZES:
        ann = _open(new_context, base_url, width, height, "/online")
        a = ann.page
        form = a.get_by_role("form", name="Create an online table")
        form.get_by_label("Your name").fill(f"Sil{size}")
        talk = form.get_by_label(re.compile("^Quick messages between hands"))
        expect(talk).to_be_checked()
        talk.uncheck()
        talk.scroll_into_view_if_needed()
        a.screenshot(path=str(ARTIFACTS / f"form-silent-{size}.png"))
        a.get_by_role("button", name="Create an online table").click()
        expect(a).to_have_url(re.compile(r"/online/[\w-]+$"))
        table_id = a.url.rsplit("/", 1)[1]
        expect(a.locator(".talk-line")).to_have_text("Silent table: no quick messages.")
        bob = _open(new_context, base_url, width, height, "/lobby")
        expect(bob.page.locator(f'#lobby-open li[data-id="{table_id}"]')).to_contain_text(
            "silent table")
        bob.page.screenshot(path=str(ARTIFACTS / f"lobby-silent-{size}.png"), full_page=True)
        a.get_by_role("button", name="Start the game").click()
        expect(a).to_have_url(re.compile(f"/table/{table_id}$"))
        expect(a.locator(".hand .card-button").first).to_be_visible()
        for watched in (ann, bob):
            assert not watched.errors, watched.errors
