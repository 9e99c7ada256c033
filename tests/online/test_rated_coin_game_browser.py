"""The issue's first test, end to end in a real browser: four people (three laptops and a
phone, 390x844 with ``is_mobile``) sign up on the site, each presses *Play now* in the lobby
with the same rules (``short``: a game to 5), clock and stake, rated; they land at one table,
which starts when the fourth sits. Every page plays by clicking the move buttons it is offered
on its own turn. Mid-game Cyd presses *Leave* (and confirms); a computer takes her seat and
the others' pages mark it "Cyd (left)", "computer". The rest play to the end. Then each
person's coins (start − stake + their share of the pot; Cyd's share is nobody's and she paid
the 10% fee; the ledger adds up), rating (changed once: the winning side up, the losing side
down, Cyd on her side) and statistics (one online game, won or lost) are checked on the
account page, ``/api/me/stats`` and the leaderboard. Screenshots of the lobby, the table with
the mark, the game over and the account page, on the phone and a laptop, go to
``test-artifacts/quick-game/``.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, expect
from playwright.sync_api import Error as PlaywrightError
from stake_helpers import check_no_coin_created_or_lost, pot_figures

from euchre.bots import make
from euchre.ratings import DEFAULT_MU
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from live_server import live_server

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "quick-game"
LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
STAKE = 50
WELCOME = 1000
FEE = 5  # 10% of the stake, rounded up
PASSWORD = "correct horse"

CHOICES = ".actions button:enabled, .hand .card-button:enabled"
"""Every control that makes a move right now (as tests/web/web_helpers.py)."""
GAME_OVER = ".game-over-panel"

NewContext = Callable[..., BrowserContext]


@pytest.fixture(scope="module")
def db_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The site's SQLite file."""
    return f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('quick-game') / 'euchre.db'}"


@pytest.fixture(scope="module")
def base_url(db_url: str) -> Iterator[str]:
    """The whole site: computers at once, a short pause between hands, easy computers (the
    one that takes Cyd's seat too), the cheapest password hashing."""
    seeds = itertools.count()
    app = create_app(Settings(database_url=db_url, bot_delay=0.0, hand_pause=0.3,
                              trick_pause=0.3, limits=roomy_limits(), resume=False,
                              bot_factory=lambda level, seed: make("easy", seed),
                              seed_source=lambda: f"quick-game-{next(seeds)}"),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with live_server(app) as url:
        yield url


class Person:
    """One person's browser context, signed up on the site."""

    def __init__(self, new_context: NewContext, base_url: str, name: str,
                 viewport: dict[str, int], errors: list[str]) -> None:
        phone = viewport == PHONE
        self.name = name
        self.size = "phone" if phone else "laptop"
        # each at home: the test server takes X-Forwarded-For from 127.0.0.1 (a trusted
        # proxy, as euchre serve behind nginx), and a rated table seats one per address
        self.context = new_context(base_url=base_url, viewport=viewport,
                                   extra_http_headers={"X-Forwarded-For": f"10.40.0.{len(name)}"
                                                       f"{ord(name[0]) % 10}"},
                                   **({"is_mobile": True, "has_touch": True} if phone else {}))
        self.context.set_default_timeout(20_000)
        self.context.add_init_script(  # not on the first about:blank, where storage is refused
            "if (location.protocol.startsWith('http')) "
            "localStorage.setItem('euchre.speed', 'fast')")
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: errors.append(f"{name}: {e}"))
        self.page.on("dialog", lambda dialog: dialog.accept())
        # the context's own request shares its cookies with its pages
        r = self.context.request.post("/api/accounts",
                                      data={"username": name, "password": PASSWORD})
        assert r.status == 201, r.text()
        self.moves = 0
        self.rng = random.Random(name)

    def get(self, path: str) -> Any:
        """GET ``path`` as this person (their session cookie), as JSON."""
        r = self.context.request.get(path)
        assert r.ok, r.text()
        return r.json()

    def shot(self, what: str) -> None:
        """A screenshot of what the person sees: a laptop's window, a phone's whole page
        (the phone person scrolls through it)."""
        phone = self.size == "phone"
        if not phone:
            self.page.evaluate("scrollTo(0, 0)")  # clicking a card may have scrolled the page
        self.page.screenshot(path=str(ARTIFACTS / f"{self.size}-{what}.png"),
                             animations="disabled", full_page=phone)

    def header_balance(self) -> Any:
        """The balance in the page's header."""
        return expect(self.page.locator(".account-balance"))


def _move(person: Person) -> bool:
    """Make one move if the page offers one now (the page's own buttons decide what)."""
    choices = person.page.locator(CHOICES)
    count = choices.count()
    if not count:
        return False
    try:  # any offered move, chosen at random: people who always passed would never finish
        choices.nth(person.rng.randrange(count)).click(timeout=2_000)
    except PlaywrightError:  # the button went (the turn passed) between looking and clicking
        return False
    person.moves += 1
    return True


def _play(players: list[Person], until: Callable[[], bool], rounds: int = 20_000) -> None:
    """Each page moves when it is offered a move, until ``until()``."""
    for _ in range(rounds):
        if until():
            return
        if not any([_move(p) for p in players]):
            players[0].page.wait_for_timeout(50)
    raise AssertionError("the game did not get there")


def test_four_people_play_a_rated_coin_game_found_through_play_now(
        new_context: NewContext, base_url: str, db_url: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    names = ["Ann", "Bob", "Cyd", "Dee"]
    people = [Person(new_context, base_url, name, PHONE if name == "Bob" else LAPTOP, errors)
              for name in names]
    ann, bob, cyd, dee = people

    # Each in turn: the lobby, Play now with the same rules, clock and stake, rated.
    for person in people:
        page = person.page
        page.goto("/lobby")
        expect(page.locator(".lobby-status")).to_contain_text("Live")
        expect(page.locator("#quick-preset option[value='short']")).to_have_count(1)
        page.get_by_label("Rules").select_option("short")
        page.get_by_label("Clock").select_option("60")
        page.get_by_label("Stake").select_option(str(STAKE))
        page.get_by_label(re.compile("^Rated")).check()
        if person is bob:
            expect(page.locator("#lobby-open li", has_text="Ann")).to_contain_text(
                f"{STAKE} coins")
            person.shot("lobby")
        if person is cyd:
            person.shot("lobby")
        page.get_by_role("button", name="Play now").click()
        if person is not dee:
            expect(page).to_have_url(re.compile(r"/online/[\w-]+$"))
    table_id = ann.page.url.rsplit("/", 1)[1]
    for person in people:
        expect(person.page).to_have_url(re.compile(rf"/table/{table_id}$"))
    for person in people:
        expect(person.page.locator(".coin-stake")).to_contain_text(
            f"Stake {STAKE} coins each · pot {4 * STAKE}")
        assert person.get("/api/me")["balance"] == WELCOME - STAKE
        person.header_balance().to_have_attribute("data-balance", str(WELCOME - STAKE))
    bob.shot("table-start")
    # Bob's phone names everyone by their name, the score's sides too
    for other in ("Ann", "Cyd", "Dee"):
        expect(bob.page.locator(".seat-title", has_text=other)).to_have_count(1)
    expect(bob.page.locator(".score-label")).to_have_text(["You & Dee", "Cyd & Ann"])
    expect(ann.page.locator(".score-label")).to_have_text(["You & Cyd", "Bob & Dee"])
    # Someone watching from the lobby's Watch link sees the sides by name as well.
    watcher = new_context(base_url=base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    watch = watcher.new_page()
    watch.on("pageerror", lambda e: errors.append(f"watcher: {e}"))
    watch.goto("/lobby")
    watch.locator("#lobby-games li", has_text="Ann").get_by_role("link",
                                                                name=re.compile("^Watch")).click()
    expect(watch).to_have_url(re.compile(rf"/watch/{table_id}$"))
    expect(watch.locator(".score-label")).to_have_text(["Ann & Cyd", "Bob & Dee"])

    # Play until Cyd has made a few moves, then she leaves (the page asks; she confirms).
    _play(people, lambda: cyd.moves >= 3)
    expect(cyd.page.locator(".game-leave")).to_be_visible()
    cyd.page.locator(".game-leave").click()
    expect(cyd.page.locator(".status")).to_contain_text("You left this game")
    expect(cyd.page.locator(".status")).to_contain_text(
        f"{STAKE}-coin stake is forfeit; leaving fee: {FEE}")
    for person in (ann, bob, dee):
        seat = person.page.locator(".seat", has=person.page.locator(
            ".seat-title", has_text="Cyd (left)"))
        expect(seat).to_have_count(1)
        expect(seat.locator(".seat-mark")).to_contain_text("computer")
    bob.shot("table-left")
    watch.screenshot(path=str(ARTIFACTS / "phone-watch.png"), animations="disabled",
                     full_page=True)
    watcher.close()
    ann.shot("table-left")
    assert cyd.get("/api/me")["balance"] == WELCOME - STAKE - FEE
    cyd.header_balance().to_have_attribute("data-balance", str(WELCOME - STAKE - FEE))

    stayed = [ann, bob, dee]
    _play(stayed, lambda: all(p.page.locator(GAME_OVER).is_visible() for p in stayed))
    for person in stayed:
        expect(person.page.locator("p.status")).to_contain_text("won the game")
        # what the pot paid, and the way back to the lobby (not a practice table)
        panel = person.page.locator(GAME_OVER)
        expect(panel.locator(".pot-result")).to_contain_text(f"pot of {4 * STAKE}")
        expect(panel.get_by_role("link", name="Find another game")).to_have_attribute(
            "href", "/lobby")
    bob.shot("game-over")
    ann.shot("game-over")

    # Who won: the game's own record, seat by seat (seat = order of Play now).
    stats = ann.get(f"/api/games/{table_id}/stats")
    won = {s["name"]: bool(s["wins"]) for s in stats["seats"]}
    assert set(won) == set(names)
    assert won["Ann"] == won["Cyd"] != won["Bob"] == won["Dee"]

    for person in stayed:  # the game-over panel says what the pot paid
        expect(person.page.locator(".pot-result")).to_contain_text(
            f"You won {2 * STAKE} coins" if won[person.name] else f"Your {STAKE}-coin stake")

    # Coins: the winners who stayed get the pot's half for their seat (2 × stake), the losers
    # nothing; Cyd's part, when her side won, goes to nobody; her fee is taken once.
    figures = _pot(db_url, table_id)
    check_no_coin_created_or_lost(figures, 4 * STAKE)
    assert figures["sums"].get("fee") == -FEE and figures["status"] == "settled"
    for person in people:
        expected = WELCOME - STAKE
        if won[person.name] and person is not cyd:
            expected += 2 * STAKE
        if person is cyd:
            expected -= FEE
        me = person.get("/api/me")
        assert me["balance"] == expected, (person.name, me["balance"], expected)
        person.header_balance().to_have_attribute("data-balance", str(expected))
        ledger = person.get("/api/me/ledger")["entries"]
        assert sum(e["amount"] for e in ledger) == expected, (person.name, ledger)

    # Ratings: once each, the winners up and the losers down, Cyd on her side.
    board = ann.get("/api/leaders")
    assert (board["leaders"], board["provisional"]) == ([], 4)  # one game: provisional
    for person in people:
        mine = person.get("/api/me/stats")
        rating = mine["rating"]
        assert rating["games"] == 1 and mine["standing"]["provisional"]
        assert mine["rank"] is None
        assert (rating["mu"] > DEFAULT_MU) is won[person.name], (person.name, rating)
        online = mine["stats"]["by_kind"]["online"]
        assert (online["games"], online["wins"]) == (1, int(won[person.name]))

    # The account page and the leaderboard, as the people see them.
    for person in (bob, cyd):
        page = person.page
        page.goto("/account")
        section = page.get_by_role("region", name="Rating and statistics")
        expect(section.locator(".rating-line")).to_contain_text(
            "1 rated game; provisional: not on the leaderboard yet")
        expect(section.locator(".provisional-line")).to_contain_text("(so far 1 of 10 rated "
                                                                     "games, 2 of 6 different "
                                                                     "opponents)")
        expect(section.locator('td[data-kind="online"][data-person-stat="games"]')).to_have_text(
            "1")
        expect(section.locator('td[data-kind="online"][data-person-stat="wins"]')).to_have_text(
            str(int(won[person.name])))
        person.shot("account")
        page.goto("/leaders")
        expect(page.get_by_role("status")).to_have_text(
            "Nobody is listed yet: play rated online tables. 4 more are provisional.")
        expect(page.locator(".leaders-table")).to_have_count(0)
        if person is cyd:  # the same list on every screen
            person.shot("leaders")
    winners = [n for n in names if won[n]]
    ordinals = {p.name: p.get("/api/me/stats")["rating"]["ordinal"] for p in people}
    top = set(sorted(ordinals, key=lambda n: -ordinals[n])[:2])
    assert top == set(winners), (top, winners)
    assert not errors, errors


def _pot(db_url: str, table_id: str) -> dict[str, Any]:
    """The pot's figures, read in a thread of its own (the browser's loop runs in this one)."""
    import asyncio
    import threading

    out: list[dict[str, Any]] = []
    thread = threading.Thread(target=lambda: out.append(asyncio.run(pot_figures(db_url,
                                                                                table_id))))
    thread.start()
    thread.join()
    assert out, "could not read the pot"
    return out[0]
