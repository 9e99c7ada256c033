"""A real browser (Chromium through Playwright) at a stake table against people, on a phone
(390x844) and a desktop (1366x768): the stake and pot, a person away with their countdown
("Bob is away — 0:5x") and the seat mark, a person who left marked "Cyd (left) — computer",
and the Leave button, which charges the stake and fee once. Screenshots go to
``test-artifacts/online/`` (look at them)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect
from stake_helpers import Person, stake_app, stake_table
from websockets.sync.client import connect

from live_server import live_server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "online"
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}

NewContext = Callable[..., BrowserContext]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole site on a free port (computers at once, a 90 s move clock by default)."""
    db = tmp_path_factory.mktemp("stakes-web") / "euchre.db"
    with live_server(stake_app(f"sqlite+aiosqlite:///{db}")) as url:
        yield url


def _at_table(new_context: NewContext, base_url: str, size: str, table_id: str, token: str,
              errors: list[str]) -> Page:
    """Ann's browser, holding her seat's token, on the table page."""
    context = new_context(base_url=base_url, viewport=SIZES[size])
    context.set_default_timeout(20_000)
    seats = json.dumps({table_id: {"token": token, "at": 0}})
    context.add_init_script("if (location.protocol.startsWith('http')) "  # not on about:blank
                            f"localStorage.setItem('euchre.seats', {json.dumps(seats)});")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"/table/{table_id}")
    return page


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_away_mark_left_mark_and_the_leave_button(new_context: NewContext, base_url: str,
                                                  size: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    people = [Person(base_url, f"{name}{size[0]}") for name in ("Ann", "Bob", "Cyd")]
    table_id, tokens = stake_table(people, 50, seconds=90)
    r = people[0].post(f"/api/tables/{table_id}/start", {"token": tokens[0]})
    assert r.status_code == 200 and r.json()["pot"] == 150
    errors: list[str] = []
    page = _at_table(new_context, base_url, size, table_id, tokens[0], errors)
    expect(page.locator(".coin-stake")).to_contain_text("Stake 50 coins each · pot 150")
    leave = page.locator(".game-leave")
    expect(leave).to_be_visible()

    bob, cyd = people[1].name, people[2].name
    # Bob opens the table, then his connection drops: he is away, counting down
    with connect(base_url.replace("http", "ws") + f"/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "join", "protocol": 2, "token": tokens[1]}))
        ws.recv(timeout=20)
    away = page.locator(".away-line")
    expect(away).to_contain_text(f"{bob} is away — 0:5")
    expect(page.locator(".seat.away .seat-away")).to_contain_text("away 0:5")
    # Cyd leaves: a computer plays North, marked as Cyd who left
    assert people[2].post(f"/api/online/{table_id}/leave-game",
                          {"token": tokens[2]}).json()["fee"] == 5
    expect(page.locator(".seat-north .seat-title")).to_have_text(f"{cyd} (left)")
    expect(page.locator(".seat-north .seat-mark")).to_contain_text("computer")
    expect(page.locator(".status")).not_to_have_text("")
    page.screenshot(path=str(ARTIFACTS / f"stake-away-left-{size}.png"))
    # the Leave button is on screen, above the felt, at this size
    box = leave.bounding_box()
    assert box is not None and box["y"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]

    page.on("dialog", lambda dialog: dialog.accept())
    leave.click()
    expect(page.locator(".status")).to_contain_text("You left this game")
    expect(page.locator(".status")).to_contain_text("50-coin stake is forfeit; leaving fee: 5")
    expect(leave).to_have_count(0)
    page.screenshot(path=str(ARTIFACTS / f"stake-left-{size}.png"))
    assert people[0].balance() == 1000 - 50 - 5
    assert not errors, errors
    for p in people:
        p.close()


def test_a_quick_start_someone_cannot_cover_is_told_on_the_waiting_page(
        new_context: NewContext, base_url: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    body = {"preset": "classic", "seconds_per_move": 30, "stake": 500}
    people = [Person(base_url, name) for name in ("Abe", "Ben", "Cal", "Eva")]
    abe, ben, cal, eva = people
    seats = [p.post("/api/online/quick", body).json() for p in (abe, ben, cal)]
    table_id = seats[0]["id"]
    coin = ben.post("/api/tables", {"kind": "coin", "stake": 500}).json()
    ben.post(f"/api/tables/{coin['id']}/leave", {})  # Ben: 450 left, below the stake
    # a visitor's waiting page is open before the fourth seat: it is told, pushed
    visitor = new_context(base_url=base_url, viewport=SIZES["desktop"]).new_page()
    visitor.on("pageerror", lambda e: errors.append(str(e)))
    visitor.goto(f"/online/{table_id}")
    expect(visitor.get_by_role("list", name="Seats")).to_contain_text("Cal")
    # Dot, on a phone, signs up and presses Play now: the fourth seat; her page is told too
    context = new_context(base_url=base_url, viewport=SIZES["phone"], is_mobile=True,
                          has_touch=True)
    context.set_default_timeout(20_000)
    assert context.request.post("/api/accounts", data={
        "username": "Dot", "password": "correct horse"}).status == 201
    dot = context.new_page()
    dot.on("pageerror", lambda e: errors.append(str(e)))
    dot.goto("/lobby")
    dot.get_by_label("Stake").select_option("500")
    dot.get_by_role("button", name="Play now").click()
    dot.wait_for_url(f"**/online/{table_id}")
    for page in (visitor, dot):
        expect(page.locator(".start-refused")).to_have_text(
            "The game could not start: Ben can no longer cover the 500-coin stake. The table "
            "waits: Ben may give up the seat so that someone else can sit.")
    expect(dot.get_by_role("status")).to_contain_text("Every seat is taken")
    expect(dot.get_by_role("button", name="Fill the empty seats with computers")).to_have_count(0)
    dot.screenshot(path=str(ARTIFACTS / "start-refused-phone.png"), full_page=True)
    # Ben gives up his seat (the line goes: other people sit now), Eva sits, the game starts
    r = ben.post(f"/api/online/{table_id}/leave", {"token": seats[1]["token"]})
    assert r.status_code == 200, r.text
    expect(visitor.locator(".start-refused")).to_be_hidden()
    assert eva.post("/api/online/quick", body).json()["status"] == "started"
    dot.wait_for_url(f"**/table/{table_id}")
    assert not errors, errors
    for p in people:
        p.close()
