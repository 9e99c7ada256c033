"""A person in a real browser and an outside bot at one online table (the issue's test):
Cyd makes a bot token for her bot; Ann (Chromium, 1280x800) opens an online table on the
start page; ``euchre bot connect`` (a real subprocess running examples/outside_bot.py) takes
North with the invite link; Ann sees "annbot (bot)" arrive on her waiting page, starts the
game, and plays it to the end by clicking the moves her page offers. The bot's seat is
marked as a bot on her table page, in the log, and on a spectator's page; the bridge ends
when the game does. No console error in any page; screenshots in
``test-artifacts/outside-bots/``.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

pytest.importorskip("playwright.sync_api")

from bot_helpers import bot_app
from playwright.sync_api import BrowserContext, Page, expect

from live_server import live_server
from page_state import BID, CARD, PLAYER_STATE_JS, wait_for_state

pytestmark = pytest.mark.browser
expect.set_options(timeout=30_000)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "outside-bots"

NewContext = Callable[..., BrowserContext]

KNOWN_CONSOLE = (
    # Both come from every page of the site today, not from bots: the CSP's style-src
    # refuses the inline styles some pages set (issue 21 item 7 is on it), and a guest's
    # GET /api/me answers 401 (Chromium logs a refused request as a console error).
    "console: Applying inline style violates the following Content Security Policy",
    "console: Failed to load resource: the server responded with a status of 401",
)
"""Console errors every page of the site logs today; any other fails the test (and any
uncaught page error)."""


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site on a free port: computers at once, a short pause between hands."""
    db = tmp_path_factory.mktemp("outside-bots-web") / "euchre.db"
    with live_server(bot_app(f"sqlite+aiosqlite:///{db}", hand_pause=0.3)) as url:
        yield url


def _page(new_context: NewContext, base_url: str, errors: list[str], **size: int) -> Page:
    context = new_context(base_url=base_url,
                          viewport={"width": size.get("width", 1280),
                                    "height": size.get("height", 800)})
    context.set_default_timeout(30_000)
    # The fast speed: the page holds each hand's result 2 s, not 4, where nobody presses
    # Continue (the watcher; the test is the outside bot's game, not the pace).
    context.add_init_script(
        "if (location.protocol.startsWith('http')) localStorage.setItem('euchre.speed', 'fast')")
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error"
            else None)
    return page


def _bot_token(base_url: str) -> str:
    with httpx.Client(base_url=base_url, timeout=30) as http:
        r = http.post("/api/accounts", json={"username": "cyd", "password": "correct horse"})
        assert r.status_code == 201, r.text
        r = http.post("/api/me/bots", json={"name": "annbot"},
                      headers={"X-CSRF-Token": r.json()["csrf"]})
        assert r.status_code == 201, r.text
        token: str = r.json()["token"]
        return token


def test_a_person_in_a_browser_plays_a_whole_game_with_an_outside_bot(
        new_context: NewContext, base_url: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    token = _bot_token(base_url)
    ann = _page(new_context, base_url, errors)
    ann.goto("/")
    ann.get_by_label("Your name").fill("Ann")
    ann.get_by_label("Rules to play by").select_option("short")
    ann.get_by_role("button", name="Create an online table").click()
    expect(ann).to_have_url(re.compile(r"/online/[\w-]+$"))
    # The link Ann would send (the invite link's path, on this test server's address: the
    # invite link itself names the site's public URL, which a test server does not have).
    invite = base_url + "/online/" + ann.url.rsplit("/", 1)[1]
    assert ann.get_by_label("Invite link").input_value().endswith(invite[len(base_url):])

    bridge = subprocess.Popen(
        [sys.executable, "-m", "euchre.cli", "bot", "connect", invite, token, "--seat", "2",
         "--", sys.executable, str(ROOT / "examples" / "outside_bot.py"), "--seed", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        seats = ann.get_by_role("list", name="Seats")
        if bridge.poll() is not None:
            raise AssertionError(f"the bridge stopped: {bridge.communicate()}")
        expect(seats).to_contain_text("North: annbot (bot)", timeout=60_000)
        ann.screenshot(path=str(ARTIFACTS / "waiting.png"), full_page=True)
        ann.get_by_role("button", name="Start the game").click()
        expect(ann).to_have_url(re.compile(r"/table/[\w-]+$"))
        table_id = ann.url.rsplit("/", 1)[1]
        expect(ann.locator(".seat-north")).to_contain_text("annbot (bot)")

        watcher = _page(new_context, base_url, errors, width=390, height=844)
        watcher.goto(f"/watch/{table_id}")
        expect(watcher.locator(".seat-north")).to_contain_text("annbot (bot)")

        moves = 0
        for _ in range(600):
            try:
                where = wait_for_state(ann, PLAYER_STATE_JS, settle=".hand, .actions",
                                       timeout_ms=60_000)
            except Exception:
                ann.screenshot(path=str(ARTIFACTS / "stuck.png"), full_page=True)
                bridge.kill()
                raise AssertionError(f"Ann's turn never came: {bridge.communicate()}"
                                     ) from None
            if where == "over":
                break
            if where == "result":  # a hand's result holds the table
                with contextlib.suppress(Exception):  # still settling in: look again
                    ann.get_by_role("button", name="Continue", exact=True).click(timeout=2_000)
                continue
            if moves == 3:
                ann.screenshot(path=str(ARTIFACTS / "table.png"), full_page=True)
            choice = ann.locator(CARD if where == "card" else BID).first
            try:
                choice.click(timeout=2_000)
                moves += 1
            except Exception:  # the page redrew between looking and clicking: look again
                continue
        else:
            raise AssertionError("the game did not end")
        expect(ann.get_by_role("status")).to_contain_text("won the game")
        ann.screenshot(path=str(ARTIFACTS / "game-over.png"), full_page=True)
        expect(watcher.get_by_role("status")).to_contain_text("The game is over")
        watcher.screenshot(path=str(ARTIFACTS / "watch.png"), full_page=True)
        assert moves > 5
        # The bot played its seat in the log Ann read, by its marked name.
        out, err = bridge.communicate(timeout=120)
        assert bridge.returncode == 0, (out, err)
        assert "signed in as the bot annbot" in out and "game over" in out
    finally:
        if bridge.poll() is None:
            bridge.kill()
            bridge.wait()
    record = httpx.get(f"{base_url}/api/games/{table_id}/record?format=json").json()
    assert record["final"] is not None
    assert any(a[0] == 2 for hand in record["hands"] for a in hand["actions"])
    assert not [e for e in errors if not e.startswith(KNOWN_CONSOLE)], errors


def test_the_account_page_makes_lists_and_revokes_bot_tokens(new_context: NewContext,
                                                             base_url: str) -> None:
    errors: list[str] = []
    page = _page(new_context, base_url, errors, width=390, height=844)
    page.goto("/account")
    form = page.locator('form[data-form="sign-up"]')
    form.get_by_label("Username").fill("dee")
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    bots = page.get_by_role("region", name="Your bots")
    expect(bots.get_by_role("list", name="Bot tokens")).to_contain_text("No bot tokens yet.")
    bots.get_by_label("Bot name").fill("deebot")
    bots.get_by_role("button", name="Make a bot token").click()
    shown = bots.get_by_label("Your new token", exact=True)
    expect(shown).to_have_value(re.compile(r"^eb_[\w-]{40,}$"))
    token = shown.input_value()
    expect(bots).to_contain_text("shown only now")
    tokens = bots.get_by_role("list", name="Bot tokens")
    expect(tokens).to_contain_text("deebot")
    expect(tokens).to_contain_text(token[:10])
    page.screenshot(path=str(ARTIFACTS / "account-bots.png"), full_page=True)
    assert httpx.get(f"{base_url}/api/bot", headers={
        "Authorization": f"Bearer {token}"}).status_code == 200

    # After a reload the token is never shown again; revoking refuses it at once.
    page.reload()
    expect(tokens).to_contain_text("deebot")
    expect(page.get_by_label("Your new token", exact=True)).to_have_count(0)
    assert token not in page.content()
    tokens.get_by_role("button", name=re.compile("^Revoke deebot's token")).click()
    expect(tokens).to_contain_text("revoked")
    expect(tokens.get_by_role("button", name=re.compile("^Revoke"))).to_have_count(0)
    assert httpx.get(f"{base_url}/api/bot", headers={
        "Authorization": f"Bearer {token}"}).status_code == 401
    assert not [e for e in errors if not e.startswith(KNOWN_CONSOLE)], errors
