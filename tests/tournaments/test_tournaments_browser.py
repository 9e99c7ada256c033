"""The tournament pages in a real browser at 1366x657 and 390x844: the creator makes a
tournament from the form, a second person registers from its page, both are listed, the
creator starts it now (two computers fill the table, said plainly), each takes their seat
from the page at an ordinary online table (the move clock plays for them: 5 s a move as
chosen, run ten times faster by the test site, ``CLOCK_PACE``), and the page shows
the final standings with the tie-breaks, and each person's page their result. Screenshots go
to test-artifacts/tournaments/; any console error fails the test.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from live_server import live_server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "tournaments"
SIZES = {"desktop": {"width": 1366, "height": 657}, "phone": {"width": 390, "height": 844}}


CLOCK_PACE = 0.1
"""The test site's move clock runs ten times faster than in play (a 5 s move runs out in
half a second): the clock still plays for people who do not move, and the pages still tell
the 5 s they chose."""

SEED_WAIT = 60.0
"""The first deal waits for the seated people's shuffle seeds (sent when each page joins), so
the fast clock plays while both are at the table, however long the pages take to get there."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole site on a SQLite file, computers at once, the clock at :data:`CLOCK_PACE`."""
    db = tmp_path_factory.mktemp("tournaments-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              hand_pause=0.0, resume=False, move_clock_pace=CLOCK_PACE,
                              seed_wait=SEED_WAIT),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


def shot(page: Page, name: str) -> None:
    """A full-page screenshot in test-artifacts/tournaments/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def person(new_context: Callable[..., BrowserContext], base_url: str,
           viewport: dict[str, int]) -> Page:
    """A page of its own at ``viewport``, at the fast speed: a table's page holds the last
    hand's result 2 s, not 4 (not these tests' subject)."""
    context = new_context(base_url=base_url, viewport=viewport)
    context.add_init_script(
        "if (location.protocol.startsWith('http')) localStorage.setItem('euchre.speed', 'fast')")
    return context.new_page()


def sign_up(page: Page, name: str) -> None:
    r = page.request.post("/api/accounts", data={"username": name, "password": "correct horse"})
    assert r.ok, r.text()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_create_register_start_and_standings(
    new_context: Callable[..., BrowserContext], base_url: str, size: str
) -> None:
    viewport = SIZES[size]
    creator = person(new_context, base_url, viewport)
    other = person(new_context, base_url, viewport)
    sign_up(creator, f"maker{size}")
    sign_up(other, f"joiner{size}")

    creator.goto("/tournaments")
    expect(creator.locator("h1")).to_have_text("Tournaments")
    creator.get_by_label("Name", exact=True).fill(f"Fire hall {size}")
    creator.get_by_label("Rounds", exact=True).fill("1")
    creator.get_by_label("Hands a round").fill("1")
    creator.get_by_label("Seconds a move").fill("5")
    creator.get_by_label("Fill with computers to").fill("4")
    creator.locator("#tour-bonus").check()
    shot(creator, f"1-create-{size}.png")
    creator.get_by_role("button", name="Create the tournament").click()
    expect(creator.locator("h1")).to_have_text(f"Fire hall {size}")
    expect(creator.locator(".tournament-page")).to_contain_text("1 hands, 5 s a move")
    expect(creator.locator(".tournament-page")).to_contain_text("Unrated")
    creator.get_by_role("button", name="Register").click()
    expect(creator.get_by_role("button", name="Withdraw")).to_be_visible()
    url = creator.url

    other.goto("/lobby")  # the lobby lists it, open for registration
    other.locator(".tournaments-list").get_by_role("link", name=f"Fire hall {size}").click()
    expect(other.locator("h1")).to_have_text(f"Fire hall {size}")
    other.get_by_role("button", name="Register").click()
    expect(other.get_by_role("heading", name="Who is in (2)")).to_be_visible()
    shot(other, f"2-registered-{size}.png")

    creator.reload()
    creator.get_by_role("button", name="Start now").click()
    expect(creator.locator("[data-filled]")).to_have_text(
        "2 registered; 2 computers fill the count to 4.")
    expect(creator.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(creator.get_by_role("link", name="Watch")).to_be_visible()
    shot(creator, f"3-round-{size}.png")
    guest = new_context(base_url=base_url, viewport=viewport).new_page()
    guest.goto(url)  # anyone may watch a round's table from the page
    guest.get_by_role("link", name="Watch").click()
    expect(guest.locator(".score-target")).to_have_text("A round of 1 hand")
    shot(guest, f"3-watch-{size}.png")

    # Each takes their seat from the page; nobody moves, so the clock plays for them.
    for page in (creator, other):
        page.goto(url)
        page.get_by_role("link", name="Take your seat").click()
        expect(page.locator(".felt, .table-page").first).to_be_visible()
        expect(page.locator(".score-target")).to_have_text("A round of 1 hand")
    for page in (creator, other):
        expect(page.get_by_role("link", name="Back to the tournament")).to_be_visible(
            timeout=120_000)
    shot(creator, f"4-table-over-{size}.png")
    creator.get_by_role("link", name="Back to the tournament").click()
    expect(creator.get_by_role("heading", name="Final standings")).to_be_visible()
    expect(creator.locator("[data-tie-breaks]")).to_contain_text("lone hands made")
    rows = creator.get_by_role("table", name="Standings").locator("tbody tr")
    expect(rows).to_have_count(4)
    shot(creator, f"5-standings-{size}.png")
    creator.goto(f"/people/maker{size}")
    expect(creator.locator(".person-tournaments")).to_contain_text(f"Fire hall {size}")
    shot(creator, f"6-person-{size}.png")


def test_a_tournament_with_an_entry_fee_shows_its_pool_and_prizes(
    new_context: Callable[..., BrowserContext], base_url: str
) -> None:
    viewport = SIZES["phone"]
    creator = person(new_context, base_url, viewport)
    other = person(new_context, base_url, viewport)
    sign_up(creator, "feemaker")
    sign_up(other, "feejoiner")
    creator.goto("/tournaments")
    creator.get_by_label("Name", exact=True).fill("Raffle night")
    creator.get_by_label("Rounds", exact=True).fill("1")
    creator.get_by_label("Hands a round").fill("1")
    creator.get_by_label("Seconds a move").fill("5")
    creator.get_by_label("Entry fee (coins)").fill("100")
    creator.get_by_label("Prizes (% of the pool)").fill("70/30")
    creator.get_by_role("button", name="Create the tournament").click()
    expect(creator.locator(".tournament-page")).to_contain_text("1 hands, 5 s a move")
    expect(creator.locator("[data-prize-table]")).to_have_text(
        "Prizes: 1st 70%, 2nd 30%. Tied places share; a computer's place wins nothing "
        "(its prize goes to the house).")
    creator.get_by_role("button", name="Register (pay 100 coins)").click()
    expect(creator.get_by_role("button", name="Withdraw (your 100-coin entry fee is forfeit)")
           ).to_be_visible()
    expect(creator.locator("[data-forfeit]")).to_contain_text("cannot register again")
    expect(creator.locator("[data-pool]")).to_contain_text("Pool: 100 coins from 1 entry.")
    url = creator.url
    other.goto(url)
    other.get_by_role("button", name="Register (pay 100 coins)").click()
    expect(other.locator("[data-pool]")).to_contain_text("Pool: 200 coins from 2 entries.")
    shot(other, "7-pool-phone.png")

    creator.reload()
    creator.get_by_role("button", name="Start now").click()
    for page in (creator, other):
        page.goto(url)
        page.get_by_role("link", name="Take your seat").click()
        expect(page.locator(".score-target")).to_have_text("A round of 1 hand")
    for page in (creator, other):
        expect(page.get_by_role("link", name="Back to the tournament")).to_be_visible(
            timeout=120_000)
    creator.get_by_role("link", name="Back to the tournament").click()
    expect(creator.get_by_role("heading", name="Final standings")).to_be_visible()
    prizes = creator.get_by_role("table", name="Prizes").locator("tbody tr")
    expect(prizes).to_have_count(2)
    expect(creator.locator("[data-pool]")).to_contain_text("Paid out")
    shot(creator, "8-prizes-phone.png")
