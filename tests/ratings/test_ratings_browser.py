"""A real browser: the account page shows the rating and the statistics by kind of table,
/leaders shows the leaderboard a page at a time, and a guest's finished practice game is
counted once in the browser's own statistics.

The server runs in a thread on an SQLite file; ratings and stored games are put in that
database beside it (in a thread of its own: the browser's event loop runs in this one).
"""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")

import uvicorn
from account_rows import league, new_account
from playwright.sync_api import BrowserContext, Page, expect
from sqlalchemy import select
from stats_helpers import fixed_game

from euchre.ratings import RatingService
from euchre.record import GameRecord
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from euchre.stats import PlayerIndex
from euchre.storage.accounts_models import accounts
from euchre.storage.base import FINISHED, StoredGame
from euchre.storage.sql import SqlStore, make_engine
from euchre.table.actor.seats import BOT, HUMAN, Seat, TableConfig

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ratings"
ARTIFACTS.mkdir(parents=True, exist_ok=True)

LEADERS = 28
"""Rated people besides the one signed in (more than one page of 25)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _in_thread(work: Callable[[], object]) -> None:
    """Run ``asyncio.run(work())`` in a thread of its own and wait for it."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(work())  # type: ignore[arg-type]
        except BaseException as e:
            failure.append(e)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The database URL."""
    return f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('ratings-web') / 'euchre.db'}"


@pytest.fixture(scope="module")
def base_url(db: str) -> Iterator[str]:
    """The platform, running."""
    app = create_app(Settings(database_url=db, bot_delay=0.0, hand_pause=0.3, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest"))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):  # start-up, not a timing assertion
        if server.started or not thread.is_alive():
            break
        time.sleep(0.02)
    assert server.started, "the test server did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def page(new_context: Callable[..., BrowserContext], base_url: str) -> Page:
    """A fresh browser page (its own context, closed after the test)."""
    return new_context(base_url=base_url, viewport={"width": 1280, "height": 800}).new_page()


def _stored(game_id: str, account: tuple[str, int] | None = None) -> StoredGame:
    game = fixed_game()
    south = Seat(HUMAN, account[0], account=account[0], account_id=account[1]) if account \
        else Seat(HUMAN, "Guest")
    seats = (south, Seat(BOT, "W", "easy", 1), Seat(BOT, "N", "easy", 2),
             Seat(BOT, "E", "easy", 3))
    config = TableConfig(game_id, "practice", game.rules, seats)
    now = time.time()
    return StoredGame(game_id, "practice", FINISHED, 1, {"config": config.to_json()},
                      GameRecord.from_game(game).to_json(), now, now)


def _seed(db: str, username: str) -> None:
    """Rated games among LEADERS people and ``username``, and one finished practice game of
    ``username``'s (seat 0) and one of a guest's."""

    async def work() -> None:
        engine = make_engine(db)
        store = SqlStore(engine)
        try:
            async with engine.connect() as conn:
                me = int((await conn.execute(select(accounts.c.id).where(
                    accounts.c.username == username))).scalar_one())
            others = [await new_account(engine, f"leader{i:02}") for i in range(LEADERS)]
            ratings = RatingService(engine)
            await league(engine, others, 10)  # established: listed
            await ratings.register("mine", [me, *others[:3]])
            await ratings.apply("mine", 0)
            await store.save(_stored("mypractice", (username, me)))
            await PlayerIndex(engine).record("mypractice", "practice", [(0, me)])
            await store.save(_stored("guestpractice"))
        finally:
            await store.close()

    _in_thread(work)


def test_account_statistics_leaders_and_a_guests_practice(
        page: Page, db: str, new_context: Callable[..., BrowserContext], base_url: str) -> None:
    page.goto("/account")
    form = page.locator('form[data-form="sign-up"]')
    form.get_by_label("Username").fill("annie")
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    expect(page.locator(".rating-line")).to_contain_text("No rating yet")
    _seed(db, "annie")

    page.reload()
    section = page.get_by_role("region", name="Rating and statistics")
    # one number, "?" while provisional; the model's figures in the help text
    number = section.locator('.rating-line [data-rating="number"]')
    expect(number).to_have_text(re.compile(r"^1[5-9]\d\d\?$"))  # she won her one game
    expect(number).to_have_attribute("title", re.compile(r"skill μ \d+\.\d, uncertainty σ"))
    expect(section).not_to_contain_text("±")
    expect(section.locator(".rating-line")).to_contain_text(
        "1 rated game; provisional: not on the leaderboard yet")
    expect(section.locator(".provisional-line")).to_contain_text(
        "Your rating is provisional until you have played 10 rated games against at least 6 "
        "different people (so far 1 of 10 rated games, 2 of 6 different opponents)")
    # The history: the rated game annie won at seat 0, before and after, with its replay.
    history = page.get_by_role("region", name="Rating history")
    row = history.locator('tr[data-game="mine"]')
    expect(row).to_contain_text("Won")
    expect(row).to_contain_text(re.compile(r"1500.*1[5-9]\d\d.*\+\d+$"))
    expect(row.get_by_role("link", name="Replay")).to_have_attribute("href", "/replay/mine")
    page.screenshot(path=str(ARTIFACTS / "account-rating-history.png"), full_page=True)

    def stat(kind: str, key: str) -> object:
        return section.locator(f'td[data-kind="{kind}"][data-person-stat="{key}"]')

    expect(stat("practice", "games")).to_have_text("1")
    expect(stat("practice", "wins")).to_have_text("1")
    expect(stat("practice", "points_per_hand")).to_have_text("3.00")
    expect(stat("practice", "make_trump_rate")).to_have_text("50%")
    expect(stat("practice", "euchred_rate")).to_have_text("0%")
    expect(stat("practice", "alone_rate")).to_have_text("50%")
    expect(stat("practice", "march_rate")).to_have_text("50%")
    expect(stat("online", "games")).to_have_text("0")
    expect(stat("online", "points_per_hand")).to_have_text("–")
    expect(stat("all", "games")).to_have_text("1")

    page.locator(".site-nav").get_by_role("link", name="Leaders").click()
    expect(page.get_by_role("status")).to_have_text(
        f"{LEADERS} rated people. 1 more is provisional.")
    expect(page.locator(".provisional-rule")).to_contain_text(
        "a person appears here after 10 rated games against at least 6 different people")
    rows = page.locator(".leaders-table tbody tr")
    expect(rows).to_have_count(25)
    expect(rows.first).to_have_attribute("data-rank", "1")
    expect(page.get_by_role("table", name="Leaderboard")).not_to_contain_text("annie")
    page.screenshot(path=str(ARTIFACTS / "leaders-provisional.png"), full_page=True)
    page.get_by_role("button", name="Next page").click()
    expect(rows).to_have_count(LEADERS - 25)
    expect(rows.first).to_have_attribute("data-rank", "26")
    expect(page.get_by_role("button", name="Next page")).to_have_count(0)
    page.get_by_role("button", name="Previous page").click()
    expect(rows).to_have_count(25)
    board = page.get_by_role("table", name="Leaderboard")
    expect(board.locator("td.rating-number").first).to_have_text(re.compile(r"^\d{3,4}$"))
    expect(board).not_to_contain_text("±")

    # A rated table: annie opens one; a guest sees it marked rated, annie's rating beside her
    # name, and is asked to sign in instead of offered a seat.
    page.goto("/")
    # Signed in: no name to ask (the account's is used), and Rated may be ticked.
    expect(page.get_by_label("Your name")).to_be_hidden()
    page.get_by_label(re.compile("^Rated")).check()
    page.get_by_role("button", name="Create an online table").click()
    page.wait_for_url("**/online/*")
    expect(page.locator(".online-lobby")).to_contain_text("Rated: four signed-in people play")
    expect(page.get_by_role("list", name="Seats")).to_contain_text("South: annie")
    expect(page.get_by_role("list", name="Seats").locator(".rating-badge")).to_have_count(1)
    invite = page.url
    visitor = new_context(base_url=base_url).new_page()
    visitor.goto("/")
    listed = visitor.get_by_role("list", name="Open online tables").locator('li[data-rated="true"]')
    expect(listed).to_contain_text("annie's table: rated")
    expect(listed.locator(".rating-badge")).to_have_text(re.compile(r"^1[5-9]\d\d\?$"))
    visitor.goto(invite)
    expect(visitor.locator(".rated-sign-in")).to_contain_text("only signed-in people may sit")
    expect(visitor.get_by_role("button", name=re.compile("^Sit "))).to_have_count(0)

    # A guest finishes a practice game: the table page adds it to this browser's statistics
    # (once, however often it is told).
    guest = new_context(base_url=base_url).new_page()
    guest.goto("/account")
    expect(guest.get_by_role("region", name="Practice statistics")).to_contain_text(
        "Finish a practice game")
    added = guest.evaluate("""async () => {
        const m = await import('/static/js/my-stats.js');
        return [await m.recordPracticeGame('guestpractice', 0),
                await m.recordPracticeGame('guestpractice', 0),
                await m.recordPracticeGame('mypractice', 0)];
    }""")
    assert added == [True, False, False]  # 'mypractice' is on annie's account, not here
    guest.reload()
    practice = guest.get_by_role("region", name="Practice statistics")
    expect(practice.locator('td[data-person-stat="games"]')).to_have_text("1")
    expect(practice.locator('td[data-person-stat="points_per_hand"]')).to_have_text("3.00")
    expect(practice.locator('td[data-person-stat="march_rate"]')).to_have_text("50%")


SIZES = (("wide", 1366, 657), ("phone", 390, 844), ("small", 360, 740))
"""The three screens every page is looked at on (issue 36)."""


def _seed_club(db: str, username: str) -> None:
    """An established club of eight (listed on the leaderboard), and one rated game
    ``username`` lost to three of them (provisional)."""

    async def work() -> None:
        engine = make_engine(db)
        try:
            async with engine.connect() as conn:
                me = int((await conn.execute(select(accounts.c.id).where(
                    accounts.c.username == username))).scalar_one())
            club = [await new_account(engine, f"club{i}") for i in range(8)]
            await league(engine, club, 10, prefix="club")
            ratings = RatingService(engine)
            await ratings.register("bea-lost", [me, *club[:3]])
            await ratings.apply("bea-lost", 1)
        finally:
            await engine.dispose()

    _in_thread(work)


def test_ratings_read_as_one_number_everywhere_at_three_sizes(
        new_context: Callable[..., BrowserContext], base_url: str, db: str) -> None:
    """Account, leaderboard, lobby and the start page's list: the number (with "?" while
    provisional), never "mu ± sigma"; the figures in the help text; at 1366x657, 390x844
    and 360x740."""
    first = new_context(base_url=base_url).new_page()
    first.goto("/account")
    form = first.locator('form[data-form="sign-up"]')
    form.get_by_label("Username").fill("bea")
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    expect(first.locator(".rating-line")).to_contain_text("No rating yet")
    _seed_club(db, "bea")
    # Bea opens a rated table: the lobby lists it with her rating beside her name.
    made = first.evaluate("""async () => {
        const me = await (await fetch('/api/me')).json();
        const r = await fetch('/api/tables', {method: 'POST', headers: {'Content-Type':
            'application/json', 'X-CSRF-Token': me.csrf}, body: JSON.stringify({kind:
            'online', preset: 'classic', rated: true})});
        return [r.status, (await r.json()).id];
    }""")
    assert made[0] == 201, made
    for size, width, height in SIZES:
        context = new_context(base_url=base_url, viewport={"width": width, "height": height})
        page = context.new_page()
        signed = context.request.post("/api/session", data={"username": "bea",
                                                            "password": "correct horse"})
        assert signed.ok
        page.goto("/account")
        section = page.get_by_role("region", name="Rating and statistics")
        number = section.locator('[data-rating="number"]')
        expect(number).to_have_text(re.compile(r"^1[0-4]\d\d\?$"))  # she lost her one game
        section.get_by_text("What the rating means").click()
        expect(section.locator(".rating-figures")).to_contain_text(
            re.compile(r"skill μ \d+\.\d, uncertainty σ \d+\.\d, ordinal μ − 3σ −?\d+\.\d"))
        history = page.get_by_role("region", name="Rating history")
        expect(history.locator('tr[data-game="bea-lost"]')).to_contain_text(
            re.compile(r"Lost.*1500.*1[0-4]\d\d.*−\d+$"))
        expect(page.locator("main")).not_to_contain_text("±")
        page.screenshot(path=str(ARTIFACTS / f"numbers-account-{size}.png"), full_page=True)

        page.goto("/leaders")
        board = page.get_by_role("table", name="Leaderboard")
        cells = board.locator("td.rating-number")
        expect(cells.first).to_have_text(re.compile(r"^\d{4}$"))
        shown = [int(t) for t in cells.all_inner_texts()]
        assert shown == sorted(shown, reverse=True), shown  # the ranks agree with the numbers
        expect(cells.first).to_have_attribute("title", re.compile(r"ordinal μ − 3σ"))
        expect(page.locator("main")).not_to_contain_text("±")
        page.screenshot(path=str(ARTIFACTS / f"numbers-leaders-{size}.png"), full_page=True)

        page.goto("/lobby")
        row = page.locator(f'#lobby-open li[data-id="{made[1]}"]')
        expect(row.locator(".rating-badge")).to_have_text(re.compile(r"^1[0-4]\d\d\?$"))
        expect(row.locator(".rating-badge")).to_have_attribute(
            "title", re.compile(r"provisional \(the \?\): not on the leaderboard yet"))
        page.screenshot(path=str(ARTIFACTS / f"numbers-lobby-{size}.png"), full_page=True)
        context.close()


def _seed_games(db: str, username: str) -> None:
    """For ``username``: 11 finished practice games (paging), a rated public online game
    they lost at West beside dee_g, a private online game, and a coin game's ledger."""

    async def work() -> None:
        import datetime as dt

        from stats_helpers import stored_game

        from euchre.coins.ledger import Ledger

        engine = make_engine(db)
        store = SqlStore(engine)
        try:
            async with engine.connect() as conn:
                me = int((await conn.execute(select(accounts.c.id).where(
                    accounts.c.username == username))).scalar_one())
            bob, cyd, dee = [await new_account(engine, n) for n in ("bob_g", "cyd_g", "dee_g")]
            index = PlayerIndex(engine)
            t0 = time.time() - 3600
            robots = [("West (easy)", None), ("North (easy)", None), ("East (easy)", None)]
            games = [(stored_game(f"p{i:02}", "practice", [(username, me), *robots],
                                  at=t0 + i), 0) for i in range(11)]
            games.append((stored_game("rated-g", "online", [("bob_g", bob), (username, me),
                                                            ("cyd_g", cyd), ("dee_g", dee)],
                                      at=t0 + 20), 1))
            games.append((stored_game("private-g", "online", [(username, me), ("bob_g", bob),
                                                              *robots[1:]],
                                      private=True, at=t0 + 30), 0))
            for stored, seat in games:
                await store.save(stored)
                when = dt.datetime.fromtimestamp(stored.created_at, dt.UTC)
                index.now = lambda when=when: when  # type: ignore[misc]
                await index.record(stored.id, stored.kind, [(seat, me)])
            ratings = RatingService(engine)
            await ratings.register("rated-g", [bob, me, cyd, dee])
            await ratings.apply("rated-g", 0)
            await Ledger(engine).post(me, -10, "stake", "stake:private-g", table_id="private-g")
        finally:
            await store.close()

    _in_thread(work)


def test_your_games_and_a_persons_public_games_at_three_sizes(
        new_context: Callable[..., BrowserContext], base_url: str, db: str) -> None:
    """The account page lists the finished games, ten a page (Older games / Newer games),
    with partner, opponents, score, rating change, coins and replay; the person's page lists
    only the public one. At 1366x657, 390x844 and 360x740."""
    first = new_context(base_url=base_url).new_page()
    first.goto("/account")
    form = first.locator('form[data-form="sign-up"]')
    form.get_by_label("Username").fill("cal")
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    expect(first.get_by_role("region", name="Your games")).to_contain_text(
        "No finished games yet.")
    _seed_games(db, "cal")
    for size, width, height in SIZES:
        context = new_context(base_url=base_url, viewport={"width": width, "height": height})
        page = context.new_page()
        assert context.request.post("/api/session", data={"username": "cal",
                                                          "password": "correct horse"}).ok
        page.goto("/account")
        games = page.get_by_role("list", name="Your games")
        expect(games.locator("li")).to_have_count(10)
        private = games.locator('li[data-game="private-g"]')
        expect(private).to_contain_text(re.compile(r"^Won 6–0 · Online, Classic rules · "))
        expect(private).to_contain_text(
            "With North (computer), against bob_g and East (computer)")
        expect(private).to_contain_text("Coins −10")
        rated = games.locator('li[data-game="rated-g"]')
        expect(rated).to_contain_text("Lost 0–6")
        expect(rated).to_contain_text("With dee_g, against cyd_g and bob_g")
        expect(rated).to_contain_text(re.compile(r"Rating 1500 → 1[0-4]\d\d \(−\d+\)"))
        expect(rated.get_by_role("link", name=re.compile("^Replay"))).to_have_attribute(
            "href", "/replay/rated-g")
        page.get_by_role("region", name="Your games").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"your-games-{size}.png"))
        page.get_by_role("button", name="Older games").click()
        expect(games.locator("li")).to_have_count(3)
        expect(games.locator("li").last).to_have_attribute("data-game", "p00")
        page.get_by_role("button", name="Newer games").click()
        expect(games.locator("li").first).to_have_attribute("data-game", "private-g")

        page.get_by_role("link", name="Your public page").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("cal")
        public = page.get_by_role("list", name="Public games")
        expect(public.locator("li")).to_have_count(1)
        expect(public.locator("li")).to_have_attribute("data-game", "rated-g")
        expect(public).not_to_contain_text("Coins")
        expect(page.locator(".rating-line .rating-badge")).to_have_text(
            re.compile(r"^1[0-4]\d\d\?$"))
        page.screenshot(path=str(ARTIFACTS / f"person-page-{size}.png"), full_page=True)
        page.goto("/people/nobody_by_that_name")
        expect(page.get_by_role("heading", level=1)).to_have_text("Nobody by that name")
        context.close()
