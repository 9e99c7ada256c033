"""A rematch in a real browser at 1366x657, 390x844 and 360x740: Ann (South) and Bob (West)
with two computers finish a game (played over their seat sockets, then both open the table
page; while Bob's page is not open Ann's says he left and offers no rematch); Ann presses
Rematch; Bob's page shows her offer, who accepted, who is still to answer
and the minute counting down. At one table Bob declines, and both pages say "Bob declined the
rematch"; at another he accepts, and both pages go to the new table, where each token opens
its person's new seat (one to the left) with the same computers. Screenshots of each step go
to test-artifacts/rematch/; a console error fails the test."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect
from stake_helpers import Players

from euchre.bots import make
from euchre.server import Settings, create_app
from live_server import live_server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "rematch"
SIZES = (("1366x657", 1366, 657), ("390x844", 390, 844), ("360x740", 360, 740))
GAME_OVER = ".game-over-panel"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site: computers at once, no pause between hands, easy computers."""
    db = tmp_path_factory.mktemp("rematch-web") / "euchre.db"
    seeds = itertools.count()
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              hand_pause=0.0, trick_pause=0.0, limits=roomy_limits(),
                              resume=False, bot_factory=lambda level, seed: make("easy", seed),
                              seed_source=lambda: f"rematch-web-{next(seeds)}"))
    with live_server(app) as url:
        yield url


def _finished_table(base: str, seed: int) -> tuple[str, list[str]]:
    """Ann opens a table (a game to 5), Bob sits West, Ann starts it; both play random legal
    moves over their sockets to the end. (table id, [Ann's token, Bob's token])."""
    with httpx.Client(base_url=base, timeout=60) as http:
        made = http.post("/api/tables", json={"kind": "online", "name": "Ann",
                                              "preset": "short", "seconds_per_move": 60,
                                              "level": "easy"}).json()
        bob = http.post(f"/api/tables/{made['id']}/seats",
                        json={"seat": 1, "name": "Bob"}).json()
        assert http.post(f"/api/tables/{made['id']}/start",
                         json={"token": made["token"]}).status_code == 200
    tokens = [made["token"], bob["token"]]
    players = Players(base, made["id"], tokens, seed=seed)
    try:
        players.play(lambda p: p.over())
    finally:
        players.close()
    return made["id"], tokens


def _open(context: BrowserContext, table_id: str, token: str) -> Page:
    """The table page in ``context``, its seat token kept as the page keeps it."""
    page = context.new_page()
    # before the page's own scripts, once in this tab (not on the about:blank the page starts
    # at, where storage is refused, and not again when a rematch takes the page on)
    page.add_init_script(
        "if (location.protocol.startsWith('http') && !sessionStorage.getItem('test.seated')) {"
        f"  localStorage.setItem('euchre.seats', JSON.stringify({{{json.dumps(table_id)}: "
        f"{{token: {json.dumps(token)}, at: Date.now()}}}}));"
        "  sessionStorage.setItem('test.seated', '1');"
        "}")
    page.goto(f"/table/{table_id}")
    expect(page.locator(GAME_OVER)).to_be_visible()
    return page


@pytest.mark.parametrize("size,width,height", SIZES)
def test_a_rematch_offered_declined_and_accepted(
        new_context: Callable[..., BrowserContext], base_url: str, size: str, width: int,
        height: int) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    contexts = [new_context(base_url=base_url, viewport={"width": width, "height": height})
                for _ in range(2)]
    for context in contexts:
        context.set_default_timeout(20_000)

    # A decline ends it for both, said plainly on both screens.
    table_id, tokens = _finished_table(base_url, seed=width)
    ann = _open(contexts[0], table_id, tokens[0])
    # Bob is not at the table (yet): no rematch can be offered, and Ann is told why
    expect(ann.get_by_role("group", name="Rematch")).to_contain_text(
        "Bob left the table: a rematch needs everyone who played.")
    expect(ann.get_by_role("button", name="Rematch", exact=True)).to_be_hidden()
    bob = _open(contexts[1], table_id, tokens[1])
    rematch = ann.get_by_role("button", name="Rematch", exact=True)
    expect(rematch).to_be_visible()
    expect(ann.locator(GAME_OVER).get_by_role("link", name="Find another game")).to_be_visible()
    ann.screenshot(path=str(ARTIFACTS / f"game-over-{size}.png"))
    rematch.click()
    box = bob.get_by_role("group", name="Rematch")
    expect(box).to_contain_text("Ann offers a rematch with the same partners")
    expect(box).to_contain_text("Accepted: Ann. Waiting for You.")
    expect(box.locator(".rematch-clock")).to_have_text(re.compile(r"^0:[0-5]\d$|^1:00$"))
    expect(ann.get_by_role("group", name="Rematch")).to_contain_text(
        "Accepted: You. Waiting for Bob.")
    expect(ann.get_by_role("button", name="Decline")).to_be_hidden()
    bob.locator(GAME_OVER).scroll_into_view_if_needed()
    bob.screenshot(path=str(ARTIFACTS / f"offer-{size}.png"))
    bob.get_by_role("button", name="Decline").click()
    for page, who in ((ann, "Bob"), (bob, "You")):
        expect(page.get_by_role("group", name="Rematch")).to_contain_text(
            f"{who} declined the rematch.")
        expect(page.get_by_role("button", name="Rematch", exact=True)).to_be_hidden()
    ann.screenshot(path=str(ARTIFACTS / f"declined-{size}.png"))
    for page in (ann, bob):
        page.close()

    # Everyone accepts: both pages go to the new table, each person in their new seat.
    table_id, tokens = _finished_table(base_url, seed=width + 1)
    ann, bob = (_open(c, table_id, t) for c, t in zip(contexts, tokens, strict=True))
    bob.get_by_role("button", name="Rematch", exact=True).click()  # Bob offers this time
    accept = ann.get_by_role("button", name="Accept rematch")
    expect(ann.get_by_role("group", name="Rematch")).to_contain_text("Bob offers a rematch")
    ann.screenshot(path=str(ARTIFACTS / f"offer-to-accept-{size}.png"))
    accept.click()
    for page in (ann, bob):
        page.wait_for_url(re.compile(r"/table/(?!" + re.escape(table_id) + r"$)[\w.~-]+$"))
    new_id = ann.url.rsplit("/", 1)[1]
    assert bob.url.rsplit("/", 1)[1] == new_id and new_id != table_id
    for page in (ann, bob):
        expect(page.locator(".seat-label, .seat").first).to_be_visible()
        expect(page.get_by_role("heading", name="This table is not yours")).to_have_count(0)
    with httpx.Client(base_url=base_url, timeout=60) as http:
        seats = http.get(f"/api/online/{new_id}").json()["seats"]
    # partners kept, everyone one seat to the left: Ann West, Bob North, computers elsewhere
    assert [(s["seat"], s["name"]) for s in seats if s["taken"]] == [(1, "Ann"), (2, "Bob")]
    ann.screenshot(path=str(ARTIFACTS / f"new-table-{size}.png"))
    stored = json.loads(ann.evaluate("localStorage.getItem('euchre.seats')"))
    assert stored[new_id]["token"] == tokens[0]  # the seat follows the person
