"""A real browser (Chromium through Playwright): sign up, sit at a coin table, let a move
time out on a short clock, leave the game and see the fee.

The server runs in a thread with a 3-second move clock (tests only) and the cheapest
argon2 profile. The browser is the module's Chromium (tests/conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")

from playwright.sync_api import BrowserContext, Page, expect

from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions
from live_server import live_server

pytestmark = pytest.mark.browser

NOTICE = "Play coins have no cash value and cannot be cashed out."
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "accounts"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The platform with a 3-second clock at coin tables."""
    db = tmp_path_factory.mktemp("coins-web") / "euchre.db"
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{db}", bot_delay=0.0,
                              limits=roomy_limits(),
                              hand_pause=0.3, resume=False),
                     accounts=AccountsOptions(password_profile="cheapest", move_seconds=3.0))
    with live_server(app) as url:
        yield url


@pytest.fixture
def page(new_context: Callable[..., BrowserContext], base_url: str) -> Page:
    """A fresh browser page (its own context, closed after the test)."""
    return new_context(base_url=base_url, viewport={"width": 1280, "height": 800}).new_page()


def test_sign_up_play_a_coin_table_time_out_and_leave(page: Page) -> None:
    page.goto("/account")
    form = page.locator('form[data-form="sign-up"]')
    form.get_by_label("Username").fill("browser1")
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    expect(page.locator(".balance-box [data-balance]")).to_have_text("1,000 coins")
    expect(page.locator(".balance-box")).to_contain_text(NOTICE)
    expect(page.locator("#account")).to_contain_text("browser1")

    page.locator(".site-nav").get_by_role("link", name="Coins").click()
    expect(page.locator(".coins-page")).to_contain_text("a win pays 20 coins")
    expect(page.locator(".coins-page")).to_contain_text(NOTICE)
    page.locator('button[data-stake="10"]').click()
    page.wait_for_url("**/table/*")
    expect(page.locator("#account [data-balance]")).to_have_text("990 coins")
    expect(page.locator(".coin-slot")).to_contain_text("stake 10 coins")
    expect(page.locator(".coin-rules")).to_have_text(
        "Rules: redeal — If everyone passes twice, the same dealer deals a new hand. "
        "The dealer is never forced to call.")

    # Our turn comes; we do nothing; the table plays the move for us after 3 seconds.
    expect(page.locator(".clock")).to_contain_text("Your clock", timeout=30000)
    expect(page.locator('.coin-misses[data-misses="1"]')).to_have_count(1, timeout=30000)
    expect(page.locator(".coin-misses")).to_contain_text("the table played for you")
    expect(page.locator("#account [data-balance]")).to_have_text("990 coins")  # no charge

    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".leave-button").click()
    result = page.locator(".coin-result")
    expect(result).to_contain_text("1 coin leaving fee")
    expect(result).to_contain_text("Balance: 989 coins")
    expect(page.locator("#account [data-balance]")).to_have_text("989 coins")

    page.goto("/account")
    ledger = page.locator(".ledger")
    expect(ledger).to_contain_text("Leaving fee")
    expect(ledger).to_contain_text("Stake held")
    expect(page.locator('[data-stat="left"]')).to_have_text("1")


def test_the_stake_and_the_fee_cover_are_shown_before_sitting(page: Page) -> None:
    """The coin page says what a seat needs (the stake and its fee's cover) before the
    person clicks, and a balance that has the stake but not the cover cannot sit; the
    online table form and Play now say the same on their stake choices."""
    # Console errors of the pages this test is about (the /account page logs the 401 of
    # /api/me before sign-up, and the table page's inline styles are CSP work elsewhere).
    errors: list[str] = []
    shown = ("/coins", "/online", "/lobby")
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}")
            if m.type == "error" and page.url.endswith(shown) else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.goto("/account")
    form = page.locator('form[data-form="sign-up"]')
    form.get_by_label("Username").fill("coverme")
    form.get_by_label("Password").fill("correct horse")
    form.get_by_role("button", name="Create account").click()
    expect(page.locator(".balance-box [data-balance]")).to_have_text("1,000 coins")
    page.goto("/coins")
    stake = page.locator(".stake", has=page.locator('button[data-stake="500"]'))
    expect(stake.locator(".stake-cover")).to_contain_text(
        "Sitting down needs 550 coins: the 500-coin stake and 50 to cover the leaving fee.")
    expect(stake.locator(".stake-cover")).to_contain_text("always in full")
    expect(page.locator('button[data-stake="500"]')).to_be_enabled()
    page.screenshot(path=str(ARTIFACTS / "coins-cover.png"))
    # 500 staked and left: 450 coins, the stake of 500 no longer covered (550 needed)
    page.locator('button[data-stake="500"]').click()
    page.wait_for_url("**/table/*")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator(".leave-button").click()
    expect(page.locator(".coin-result")).to_contain_text("Balance: 450 coins")
    page.goto("/coins")
    expect(page.locator('button[data-stake="500"]')).to_be_disabled()
    expect(page.locator('button[data-stake="100"]')).to_be_enabled()
    expect(page.locator(".stake", has=page.locator('button[data-stake="100"]'))
           .locator(".stake-cover")).to_contain_text("Sitting down needs 110 coins")
    page.goto("/online")
    expect(page.locator("#online-stake option[value='100']")).to_have_text(
        "100 coins (sitting needs 110)")
    page.goto("/lobby")
    expect(page.locator("#quick-stake option[value='500']")).to_have_text(
        "500 coins (sitting needs 550)")
    assert not errors, errors
