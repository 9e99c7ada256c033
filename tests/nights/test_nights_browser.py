"""A euchre night of 16 names in a real browser at phone size (390x844): the host creates the
night and starts it, each of the four tables scores its hands from its own phone by its code
and the other pair confirms, the host corrects a hand (kept in the log), the standings screen
follows, a second round, and the final standings. Screenshots go to test-artifacts/nights/.
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

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "nights"
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo", "Gus", "Hal", "Ike", "Jo", "Kit", "Lu",
         "Mo", "Ned", "Oda", "Pip"]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The whole site on a SQLite file."""
    db = tmp_path_factory.mktemp("nights-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              hand_pause=0.0, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def page_problems(page: Page) -> list[str]:
    """axe-core's serious and critical findings, and a page wider than the phone."""
    assert AXE.exists(), f"{AXE} is missing: run scripts/setup dev (it needs npm)"
    if not page.evaluate("Boolean(window.axe)"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    found = [f"{v['id']} ({v['impact']}): {v['help']} at "
             + "; ".join(", ".join(n["target"]) for n in v["nodes"][:4])
             for v in results["violations"] if v.get("impact") in ("serious", "critical")]
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        found.append(f"the page is {width}px wide on a {PHONE['width']}px phone")
    return found


def shot(page: Page, name: str) -> None:
    """A full-page screenshot in test-artifacts/nights/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def group(page: Page, legend: str) -> object:
    """The fieldset of the scoring form with this legend."""
    return page.locator("fieldset", has=page.locator("legend", has_text=legend))


def open_card(page: Page, code: str) -> None:
    """Open a table's card by its code, typed in lower case."""
    page.goto("/score")
    page.get_by_label("Your table's code").fill(code.lower())
    page.get_by_role("button", name="Open the table's card").click()
    expect(page.locator("h1")).to_contain_text("Table")


def score_table(page: Page, code: str, hands: list[tuple[int, int, int | None]],
                picture: str | None = None, confirming: Page | None = None) -> None:
    """Open the table's card by its code, enter ``hands`` (makers pair, tricks, lone: 0 the
    first maker, 1 the second, None) as the first pair, and confirm as the second (on
    ``confirming``, their own phone, when given)."""
    open_card(page, code)
    for number, (makers, tricks, lone) in enumerate(hands, start=1):
        expect(page.locator("#score-hand")).to_have_value(str(number))
        group(page, "Who made trump").locator("button").nth(makers).click()  # type: ignore[attr-defined]
        group(page, "Tricks the makers took").get_by_role(  # type: ignore[attr-defined]
            "button", name=str(tricks), exact=True).click()
        if lone is not None:
            group(page, "Alone").locator("button").nth(1 + lone).click()  # type: ignore[attr-defined]
        page.get_by_role("button", name="Save the hand").click()
        expect(page.locator(f'.score-hands li[data-hand="{number}"]')).to_contain_text(
            f"Hand {number}:")
    other = page
    if confirming is not None:
        other = confirming
        open_card(other, code)
    other.locator(".score-confirm button").nth(1).click()  # the pair that did not enter
    expect(other.locator(".score-confirmed")).to_contain_text("Confirmed by")
    # The entering phone sees the confirmation by itself.
    expect(page.locator(".score-confirmed")).to_contain_text("Confirmed by")
    if picture:
        shot(page, picture)


def test_a_sixteen_name_evening_at_phone_size(
    new_context: Callable[..., BrowserContext], base_url: str
) -> None:
    host = new_context(base_url=base_url, viewport=PHONE).new_page()
    r = host.request.post("/api/accounts", data={"username": "hallhost",
                                                 "password": "correct horse"})
    assert r.ok, r.text()

    host.goto("/")  # from the site's menu
    host.get_by_role("button", name="Menu").click()
    host.locator(".site-nav").get_by_role("link", name="Nights").click()
    expect(host.locator("h1")).to_have_text("Euchre nights")
    host.get_by_label("Name of the night").fill("Legion hall euchre")
    host.get_by_label("Names in the room").fill("\n".join(NAMES))
    expect(host.locator(".night-form")).to_contain_text("16 names: 4 tables")
    host.get_by_label("Rounds", exact=True).fill("2")
    host.get_by_label("Hands a round").fill("2")
    host.locator("#night-bonus").check()
    host.get_by_label("Movement between rounds").select_option("rotating")
    shot(host, "1-new-night.png")
    assert not page_problems(host)
    host.get_by_role("button", name="Create the night").click()
    expect(host.locator(".night-settings")).to_contain_text("Registering. 16 people, 4 tables")
    night_url = host.url
    night_id = night_url.rsplit("/", 1)[1]

    host.get_by_role("button", name="Start the night").click()
    expect(host.locator(".night-table")).to_have_count(4)
    codes = [c.inner_text() for c in host.locator("[data-code]").all()]
    assert len(set(codes)) == 4 and all(len(c) == 6 for c in codes)
    shot(host, "2-round-1-tables.png")
    assert not page_problems(host)
    host.emulate_media(media="print")  # "Print the tables": the assignments, no controls
    expect(host.locator(".night-host")).to_be_hidden()
    expect(host.locator(".night-table").first).to_be_visible()
    shot(host, "2b-round-1-printed.png")
    host.emulate_media(media="screen")

    # Each table's own phone; table 1 has a lone march (5 to the lone player, 4 to the partner).
    phones = [new_context(base_url=base_url, viewport=PHONE).new_page() for _ in codes]
    score_table(phones[0], codes[0], [(0, 3, None), (1, 5, 0)], "3-phone-table-1.png")
    assert not page_problems(phones[0])
    # Table 2's second pair confirms on their own phone.
    own = new_context(base_url=base_url, viewport=PHONE).new_page()
    score_table(phones[1], codes[1], [(0, 4, None), (1, 1, None)], confirming=own)
    for phone, code in zip(phones[2:], codes[2:], strict=True):
        score_table(phone, code, [(0, 4, None), (1, 1, None)])

    # The host's page follows by itself; then corrects table 2's first hand.
    expect(host.locator(".night-table", has_text="confirmed by")).to_have_count(4)
    form = host.locator('form[data-form="correction"]')
    form.locator('input[name="table"]').fill("2")
    form.locator('select[name="makers"]').select_option("1")
    form.locator('input[name="tricks"]').fill("5")
    form.get_by_role("button", name="Save the hand").click()
    expect(host.locator(".night-host")).to_contain_text("Saved, and kept in the log.")
    expect(host.locator('.night-table[data-table="2"]')).not_to_contain_text("confirmed by")
    host.locator(".night-log summary").click()
    expect(host.locator(".night-log-list")).to_contain_text("corrected by host hallhost")
    expect(host.locator(".night-log-list li")).to_have_count(4 * 2 + 4 + 1)

    screen = new_context(base_url=base_url, viewport=PHONE).new_page()
    screen.goto(f"/nights/{night_id}/screen")
    expect(screen.locator(".night-table-standings tbody tr")).to_have_count(16)
    standings = host.request.get(f"/api/nights/{night_id}").json()["standings"]
    lone = next(s for s in standings if s["loners_made"] == 1)
    assert standings[0]["name"] == lone["name"] and lone["points"] == 5  # the lone march
    expect(screen.locator(".night-table-standings tbody tr").first).to_contain_text(lone["name"])
    shot(screen, "4-standings-screen.png")
    assert not page_problems(screen)

    # Round 2: new partners for everyone, scored the same way; then the night ends.
    host.get_by_role("button", name="Start round 2").click()
    expect(host.locator(".night-rounds h2")).to_have_text("Round 2")
    codes = [c.inner_text() for c in host.locator("[data-code]").all()]
    for phone, code in zip(phones, codes, strict=True):
        score_table(phone, code, [(1, 3, None), (0, 0, None)])
    expect(host.locator(".night-table", has_text="confirmed by")).to_have_count(4)
    host.get_by_role("button", name="Finish the night").click()
    expect(host.locator(".night-standings h2")).to_have_text("Final standings")
    shot(host, "5-final-standings.png")

    final = host.request.get(f"/api/nights/{night_id}").json()
    rounds = final["round_tables"]
    partners = {frozenset((t["seats"][0], t["seats"][2])) for r in rounds for t in r["tables"]}
    partners |= {frozenset((t["seats"][1], t["seats"][3])) for r in rounds for t in r["tables"]}
    assert len(partners) == 16  # 8 partnerships a round, none twice
    rows = screen.locator(".night-table-standings tbody tr")
    expect(rows).to_have_count(16)
    expect(screen.locator(".night-standings h2")).to_have_text("Final standings")
    shot(screen, "6-final-screen.png")
    assert [s["place"] for s in final["standings"]] == sorted(
        s["place"] for s in final["standings"])
