"""A real browser (Chromium through Playwright): Ann opens an online table, Bob finds it in
the list and sits West, Ann starts the game, and each makes a move from their own seat.

The server runs in a thread (computers move at once). The browser is the session's one
Chromium (tests/conftest.py); each person gets a fresh context of it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from euchre.server import Settings, create_app
from live_server import live_server

pytestmark = pytest.mark.browser

CHOICES = ".actions button:enabled, .hand .card-button:enabled"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "online"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The platform on a free port, computers without delay."""
    db = tmp_path_factory.mktemp("online-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              limits=roomy_limits(),
                              hand_pause=0.5, resume=False))
    with live_server(app) as url:
        yield url


NewContext = Callable[..., BrowserContext]


def _person(new_context: NewContext, base_url: str, errors: list[str]) -> Page:
    context = new_context(base_url=base_url, viewport={"width": 1280, "height": 800})
    context.set_default_timeout(20_000)
    # The fast speed: the page holds each hand's result 2 s, not 4 (not these tests' subject).
    context.add_init_script(
        "if (location.protocol.startsWith('http')) localStorage.setItem('euchre.speed', 'fast')")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def _move(page: Page) -> bool:
    """Make one offered move (Pass if offered, else the first bid or card) and see it taken;
    False if there is none."""
    if not page.locator(CHOICES).count():
        return False
    pass_button = page.get_by_role("button", name="Pass", exact=True)
    bids = page.locator(".actions button:enabled")
    if pass_button.count() and pass_button.is_enabled():
        pass_button.click()
        expect(bids).to_have_count(0)
        return True
    if bids.count():
        bids.first.click()
        expect(bids).to_have_count(0)
        return True
    card = page.locator(".hand .card-button:enabled").first
    name = card.get_attribute("aria-label") or ""
    card.click()
    hand = page.get_by_role("group", name="Your hand")
    expect(hand.get_by_role("button", name=name, exact=True)).to_have_count(0)
    return True


STATE_JS = f"""() => ({{
  turn: Boolean(document.querySelector("{CHOICES}")),
  log: document.querySelector(".log")?.textContent ?? "",
  said: [...document.querySelectorAll('[aria-label="Table announcements"], .summary-panel')]
    .map((el) => el.textContent).join(" "),
}})"""
"""A page's state in one call: a move offered, the log's text, the hand's end as said."""

HAND_JS = """() => [...document.querySelectorAll('.hand[role="group"] button')]
  .filter((b) => b.checkVisibility()).map((b) => b.getAttribute("aria-label"))"""
"""The names of the cards shown in the page's hand (its buttons), in one call."""


def _await_turn(page: Page, *, or_result: bool = False) -> None:
    """Wait a moment for a move offered at ``page`` (the person likelier to be asked next)
    or, with ``or_result``, for its hand's end said; the caller looks at both pages again
    either way."""
    said = ("|| /scores? \\d points?/.test(document.querySelector("
            "'[aria-label=\"Table announcements\"]')?.textContent ?? '')") if or_result else ""
    with contextlib.suppress(PlaywrightError):  # the other's turn, or a computer's
        page.wait_for_function(
            f"() => Boolean(document.querySelector('{CHOICES}')) {said}", timeout=500)


@pytest.mark.motion  # a whole game as a person who has not asked for less motion
def test_two_people_join_one_online_table_and_each_moves(new_context: NewContext,
                                                        base_url: str) -> None:
    errors: list[str] = []
    ann, bob = _person(new_context, base_url, errors), _person(new_context, base_url, errors)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    ann.goto("/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Seconds per move").fill("30")
    ann.get_by_role("button", name="Create an online table").click()
    expect(ann).to_have_url(re.compile(r"/online/[\w-]+$"))
    invite = ann.get_by_label("Invite link")
    expect(invite).to_have_value(re.compile(r"^http://127\.0\.0\.1:\d+/online/[\w-]+$"))
    assert invite.input_value().endswith(ann.url.split("/")[-1])
    expect(ann.get_by_role("status")).to_contain_text("Share the invite link")

    bob.goto("/")
    bob.get_by_role("link", name=re.compile("Join Ann's table")).click()
    expect(bob).to_have_url(ann.url)
    bob.get_by_label("Your name").fill("Bob")
    bob.get_by_role("button", name="Sit West").click()
    expect(bob.get_by_role("status")).to_contain_text("You sit West. Waiting for Ann")
    expect(bob.get_by_role("button", name="Sit North")).to_have_count(0)
    expect(ann.get_by_role("list", name="Seats")).to_contain_text("West: Bob")
    ann.screenshot(path=str(ARTIFACTS / "lobby.png"), full_page=True)

    ann.get_by_role("button", name="Start the game").click()
    expect(ann).to_have_url(re.compile(r"/table/[\w-]+$"))
    expect(bob).to_have_url(re.compile(r"/table/[\w-]+$"))
    # Each sees the other by name, from their own seat at the bottom.
    expect(ann.locator(".seat-west")).to_contain_text("Bob")
    expect(bob.locator(".seat-east")).to_contain_text("Ann")
    expect(bob.locator(".seat-south")).to_contain_text("You")

    moved = {"ann": 0, "bob": 0}
    last = "bob"  # who moved last: the other one is likelier to be asked next
    pages = {"ann": ann, "bob": bob}
    for _ in range(200):
        turns = {name: page.evaluate(STATE_JS)["turn"] for name, page in pages.items()}
        for name, page in pages.items():
            if not turns[name]:  # not this person's turn yet: look at the other
                continue
            ann_cards, bob_cards = set(ann.evaluate(HAND_JS)), set(bob.evaluate(HAND_JS))
            assert not (ann_cards & bob_cards), (ann_cards, bob_cards)
            if _move(page):
                moved[name] += 1
                last = name
        if min(moved.values()) >= 2:
            break
        if not any(turns.values()):
            _await_turn(pages["ann" if last == "bob" else "bob"])
    assert min(moved.values()) >= 2, moved
    ann.screenshot(path=str(ARTIFACTS / "ann.png"), full_page=True)
    bob.screenshot(path=str(ARTIFACTS / "bob.png"), full_page=True)
    assert not errors, errors


def test_the_play_online_section_fits_a_phone(new_context: NewContext, base_url: str) -> None:
    errors: list[str] = []
    page = _person(new_context, base_url, errors)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    expect(page.get_by_role("heading", name="Play online")).to_be_visible()
    expect(page.get_by_role("list", name="Open online tables")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors



def test_the_open_tables_come_a_page_at_a_time(new_context: NewContext, base_url: str) -> None:
    import httpx

    with httpx.Client(base_url=base_url) as http:
        for i in range(25):
            made = http.post("/api/tables", json={"kind": "online", "name": f"Pager {i}"})
            assert made.status_code == 201, made.text
        waiting = 0
        cursor = None
        while True:
            page_of = http.get("/api/online", params={"cursor": cursor} if cursor else {}).json()
            waiting += len(page_of["tables"])
            cursor = page_of["next"]
            if not cursor:
                break
    errors: list[str] = []
    page = _person(new_context, base_url, errors)
    page.goto("/")
    tables = page.get_by_role("list", name="Open online tables").get_by_role("listitem")
    expect(tables).to_have_count(20)
    more = page.get_by_role("button", name="More tables")
    while more.is_visible():
        shown = tables.count()
        more.click()
        expect(tables).not_to_have_count(shown)
    expect(tables).to_have_count(waiting)
    assert not errors, errors


def test_a_person_leaves_a_seat_and_the_creator_cancels(new_context: NewContext,
                                                        base_url: str) -> None:
    errors: list[str] = []
    ann, bob = _person(new_context, base_url, errors), _person(new_context, base_url, errors)
    ann.on("dialog", lambda dialog: dialog.accept())  # "Cancel this table?"
    ann.goto("/online")
    ann.get_by_label("Your name").fill("Ada")
    ann.get_by_role("button", name="Create an online table").click()
    expect(ann).to_have_url(re.compile(r"/online/[\w-]+$"))
    bob.goto(ann.url)
    bob.get_by_label("Your name").fill("Ben")
    bob.get_by_role("button", name="Sit West").click()
    expect(ann.get_by_role("list", name="Seats")).to_contain_text("West: Ben")

    bob.get_by_role("button", name="Leave my seat").click()
    expect(bob.get_by_role("button", name="Sit West")).to_be_visible()
    expect(ann.get_by_role("list", name="Seats")).to_contain_text("West: free")
    bob.get_by_role("button", name="Sit North").click()
    expect(bob.get_by_role("status")).to_contain_text("You sit North")

    ann.get_by_role("button", name="Cancel the table").click()
    expect(ann.get_by_role("status")).to_have_text("Ada cancelled this table.")
    expect(bob.get_by_role("status")).to_have_text("Ada cancelled this table.")
    bob.goto("/online")
    expect(bob.get_by_role("list", name="Open online tables")).not_to_contain_text("Ada")
    assert not errors, errors


@pytest.mark.parametrize("size", [(1366, 657), (390, 844)], ids=["desktop", "phone"])
def test_people_see_each_other_by_name_everywhere(new_context: NewContext, base_url: str,
                                                 size: tuple[int, int]) -> None:
    errors: list[str] = []
    ann, bob = _person(new_context, base_url, errors), _person(new_context, base_url, errors)
    for page in (ann, bob):
        page.set_viewport_size({"width": size[0], "height": size[1]})
    ann.goto("/online")
    ann.get_by_label("Your name").fill("Annie")
    ann.get_by_label("Computer players in empty seats").select_option("easy")
    ann.get_by_role("button", name="Create an online table").click()
    expect(ann).to_have_url(re.compile(r"/online/[\w-]+$"))
    bob.goto(ann.url)
    bob.get_by_label("Your name").fill("Bobby")
    bob.get_by_role("button", name="Sit West").click()
    expect(ann.get_by_role("list", name="Seats")).to_contain_text("West: Bobby")
    ann.get_by_role("button", name="Start the game").click()
    expect(bob).to_have_url(re.compile(r"/table/[\w-]+$"))

    # Seat labels: the other person by name, a computer marked with its level, "You" below.
    for page, other, where in ((ann, "Bobby", ".seat-west"), (bob, "Annie", ".seat-east")):
        expect(page.locator(f"{where} .seat-title")).to_have_text(other)
        expect(page.locator(f"{where} .seat-title")).to_be_visible()
        expect(page.locator(f"{where} .seat-mark")).to_have_count(0)
        expect(page.locator(".seat-south .seat-title")).to_have_text("You")
        expect(page.locator(".seat-north .seat-mark")).to_have_text("computer · easy")
        expect(page.locator(".seat-north .seat-mark")).to_be_visible()
    # A computer has one name at the table, by its real seat, on every screen: seat 3 sits on
    # Ann's right and across from Bob, seat 2 across from Ann and on Bob's left.
    expect(ann.locator(".seat-east .seat-title")).to_have_text("East (computer)")
    expect(bob.locator(".seat-north .seat-title")).to_have_text("East (computer)")
    expect(ann.locator(".seat-north .seat-title")).to_have_text("North (computer)")
    expect(bob.locator(".seat-west .seat-title")).to_have_text("North (computer)")

    log_words = r"(passes|orders up|picks up|names|plays|defends|discards)"
    seen = {"status": set(), "clock": set()}
    people = {"Annie": ann, "Bobby": bob}
    # Each person's acts are read in the other's log, where they are named; never by the
    # compass point that only that viewer would use for them (East for Annie at Bobby's).
    viewer = {"Annie": (bob, "East"), "Bobby": (ann, "West")}
    # The log as it stood when it first named each person acting. Law 11 takes a trick's
    # plays out of the log once the next trick is led, and nobody moves once this loop
    # ends: a play seen here may be gone a moment later, so it is asserted as it was seen.
    named: dict[str, str] = {}
    last = "Bobby"  # who moved last: the other one is likelier to be asked next
    for _ in range(200):
        states = {name: page.evaluate(STATE_JS) for name, page in people.items()}
        for name, page in people.items():
            if not states[name]["turn"]:
                continue
            other = bob if page is ann else ann
            # While this person is to move, the other one is told so by name.
            expect(other.locator(".status")).to_contain_text(name)
            seen["status"].add(name)
            expect(other.locator(".clock")).to_contain_text(f"{name}'s clock: ")
            seen["clock"].add(name)
            _move(page)
            last = name
        for name, (page, compass) in viewer.items():
            text = page.evaluate(STATE_JS)["log"]
            assert not re.search(rf"{compass} {log_words}", text), text
            if name not in named and re.search(rf"{name} {log_words}", text):
                named[name] = text
        if len(named) == 2 and len(seen["status"]) == 2:
            break
        if not any(state["turn"] for state in states.values()):
            _await_turn(people["Annie" if last == "Bobby" else "Bobby"])
    assert seen["status"] == seen["clock"] == {"Annie", "Bobby"}, seen
    assert re.search(rf"Annie {log_words}", named.get("Annie", "")), named
    assert re.search(rf"Bobby {log_words}", named.get("Bobby", "")), named
    # The hand's result reads the same for both, each from their own side: Ann's "You and
    # North (computer) score" is Bob's "Annie and North (computer) score".
    scored = re.compile(r"(\w+ and (?:North|East) \(computer\)) scores? (\d) points?")
    results: dict[str, re.Match[str]] = {}
    for _ in range(300):
        states = {name: page.evaluate(STATE_JS) for name, page in people.items()}
        for name in people:
            # The hand's end is announced (and shown in its panel) on each screen.
            found = scored.search(states[name]["said"])
            if found:
                results[name] = found
        if len(results) == 2:
            break
        for name, page in people.items():
            if states[name]["turn"]:
                _move(page)
                last = name
        if not any(state["turn"] for state in states.values()):
            likelier = "Annie" if last == "Bobby" else "Bobby"
            _await_turn(people[likelier], or_result=likelier not in results)
    assert len(results) == 2, results
    ann_side, bob_side = results["Annie"].group(1), results["Bobby"].group(1)
    assert results["Annie"].group(2) == results["Bobby"].group(2), results
    assert (ann_side, bob_side) in {
        ("You and North (computer)", "Annie and North (computer)"),
        ("Bobby and East (computer)", "You and East (computer)")}, results
    # No computer is named by a bare compass point, which only one viewer would use.
    for page in (ann, bob):
        expect(page.locator(".log")).not_to_contain_text(
            re.compile(rf"\b(North|East|West|South) {log_words}"))
    # Nobody is named by a compass point that only the viewer would use for them.
    expect(ann.locator(".log")).not_to_contain_text(re.compile(rf"West {log_words}"))
    expect(bob.locator(".log")).not_to_contain_text(re.compile(rf"East {log_words}"))
    for page in (ann, bob):
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    ann.screenshot(path=str(ARTIFACTS / f"names-{size[0]}.png"), full_page=True)
    assert not errors, errors


def test_an_older_answer_to_the_open_tables_never_replaces_a_newer_one(
        new_context: NewContext, base_url: str) -> None:
    """The list's first load is held back; a refresh is answered first; then the first
    load's (older) answer arrives: it is dropped, the refreshed list stays."""
    import httpx

    errors: list[str] = []
    page = _person(new_context, base_url, errors)
    held: list[Route] = []

    def first_held(route: Route) -> None:
        if not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/online", first_held)
    page.goto("/")
    expect(page.get_by_role("button", name="Refresh the list")).to_be_visible()
    with httpx.Client(base_url=base_url) as http:
        made = http.post("/api/tables", json={"kind": "online", "name": "Newer table"})
        assert made.status_code == 201, made.text
    page.get_by_role("button", name="Refresh the list").click()
    tables = page.get_by_role("list", name="Open online tables")
    expect(tables).to_contain_text("Newer table")
    assert len(held) == 1
    with page.expect_event("requestfinished"):
        held[0].fulfill(json={"tables": [], "next": None})  # what the list was before
    page.evaluate("() => new Promise((done) => setTimeout(() => setTimeout(done)))")
    expect(tables).to_contain_text("Newer table")
    expect(tables).not_to_contain_text("No table is waiting")
    assert not errors, errors
