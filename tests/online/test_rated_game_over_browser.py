"""A real browser and a whole rated game: four signed-in people play a rated online table to
the end over real sockets (random legal moves); Ann then opens the table in Chromium, signed
in, with no seat token in that browser: her account opens her seat, and the game-over panel
shows each person's rating before and after, the same figures the API and the account page
give. Screenshots at 1366x657, 390x844 and 360x740 go to test-artifacts/ratings/.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, expect
from stake_helpers import PASSWORD, Person, Players

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from live_server import live_server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ratings"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The platform on a free port, computers without delay, cheap password hashes."""
    db = tmp_path_factory.mktemp("rated-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              limits=roomy_limits(), hand_pause=0.0, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


def test_the_game_over_panel_of_a_rated_game_shows_ratings_before_and_after(
        new_context: Callable[..., BrowserContext], base_url: str) -> None:
    people = [Person(base_url, name) for name in ("ann_rt", "bob_rt", "cy_rt", "dee_rt")]
    r = people[0].post("/api/tables", {"kind": "online", "rated": True,
                                       "seconds_per_move": 60})
    assert r.status_code == 201, r.text
    table_id, tokens = r.json()["id"], [r.json()["token"]]
    for seat, person in enumerate(people[1:], 1):
        r = person.post(f"/api/tables/{table_id}/seats", {"seat": seat})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    started = people[0].post(f"/api/tables/{table_id}/start", {"token": tokens[0]})
    assert started.status_code == 200, started.text
    players = Players(base_url, table_id, tokens, seed=4)
    try:
        players.play(lambda p: p.over())
    finally:
        players.close()
    # The result is applied by the table's finish hook; the API says when.
    answer: dict[str, object] = {}
    for _ in range(200):  # a condition, not a duration
        answer = people[1].http.get(f"/api/games/{table_id}/ratings").json()
        if answer["status"] == "applied":
            break
        players.rng.random()
    changes = answer["changes"]
    assert isinstance(changes, list) and [c["name"] for c in changes] == [
        "ann_rt", "bob_rt", "cy_rt", "dee_rt"]

    for size, (width, height) in (("wide", (1366, 657)), ("phone", (390, 844)),
                                  ("small", (360, 740))):
        context = new_context(base_url=base_url, viewport={"width": width, "height": height})
        context.set_default_timeout(20_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        signed = context.request.post("/api/session", data={"username": "ann_rt",
                                                            "password": PASSWORD})
        assert signed.ok
        page.goto(f"/table/{table_id}")  # no token in this browser: her account's seat
        panel = page.get_by_role("region", name="Game over")
        expect(panel).to_be_visible()
        rows = panel.get_by_role("list", name="Ratings before and after").locator("li")
        expect(rows).to_have_count(4)
        ann = changes[0]
        assert isinstance(ann, dict)
        mine = rows.nth(0)
        expect(mine).to_contain_text("You (ann_rt)")
        # one number each, before -> after, "?" and "provisional" said after one game
        before, after = str(ann["before"]["number"]), str(ann["after"]["number"])
        assert before == "1500" and ann["provisional"] is True
        expect(mine).to_contain_text(re.compile(
            f"{before} → {after}\\? \\([+−]\\d+\\) provisional"))
        expect(mine.locator(".rating-after")).to_have_attribute(
            "title", re.compile(r"skill μ \d+\.\d, uncertainty σ \d+\.\d"))
        expect(panel).not_to_contain_text("±")
        expect(rows.nth(1)).to_contain_text("bob_rt")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"game-over-ratings-{size}.png"))
        page.goto("/account")
        history = page.get_by_role("region", name="Rating history")
        expect(history.locator(f'tr[data-game="{table_id}"]')).to_contain_text(after)
        assert not errors, errors
    for person in people:
        person.close()
