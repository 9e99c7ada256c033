"""Browser tests: the real server (bots without delay, a temporary SQLite file) in a thread,
and Chromium driven by Playwright (the session's one browser, from tests/conftest.py).

Screenshots go to ``test-artifacts/web/`` (ignored by git).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

from playwright.sync_api import Browser, Page

from euchre.server import Settings, create_app
from live_server import live_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The platform on a free port: computer players move at once, a short pause between hands."""
    db = tmp_path_factory.mktemp("web-db") / "euchre.db"
    settings = Settings(
        limits=roomy_limits(),
        database_url=f"sqlite+aiosqlite:///{db}",
        bot_delay=0.0,
        hand_pause=1.0,
        seed_wait=5.0,  # as euchre serve: the first deal waits for the page's seed
        resume=False,
    )
    with live_server(create_app(settings)) as url:
        yield url


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where screenshots are kept (emptied once per session)."""
    if ARTIFACTS.exists():
        shutil.rmtree(ARTIFACTS)
    ARTIFACTS.mkdir(parents=True)
    return ARTIFACTS


def _page(browser: Browser, server_url: str, viewport: dict[str, int]) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, base_url=server_url)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    """A fresh desktop-sized page (its own storage) on the test server."""
    yield from _page(browser, server_url, DESKTOP)


@pytest.fixture
def phone_page(browser: Browser, server_url: str) -> Iterator[Page]:
    """A fresh phone-sized page (390 x 844)."""
    yield from _page(browser, server_url, PHONE)
