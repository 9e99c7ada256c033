"""Browser tests: the real server (bots without delay, a temporary SQLite file) in a thread,
and Chromium driven by Playwright (the session's one browser, from tests/conftest.py). Two
servers: the real trick pause, and none for whole games marked ``quick_pace``.

Screenshots go to ``test-artifacts/web/`` (ignored by git).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from limits_helpers import roomy_limits

pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

from playwright.sync_api import Browser, Page
from scripted_table import ScriptedTable, open_scripted
from web_helpers import SIZES

from euchre.hand import HandState
from euchre.server import Settings, create_app
from live_server import live_server

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def _serve(tmp_path_factory: pytest.TempPathFactory, trick_pause: float) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web-db") / "euchre.db"
    settings = Settings(
        limits=roomy_limits(),
        database_url=f"sqlite+aiosqlite:///{db}",
        bot_delay=0.0,
        hand_pause=1.0,
        trick_pause=trick_pause,
        seed_wait=5.0,  # as euchre serve: the first deal waits for the page's seed
        resume=False,
    )
    with live_server(create_app(settings)) as url:
        yield url


@pytest.fixture(scope="session")
def real_pace_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The platform on a free port: computer players move at once, a short pause between
    hands, and the real trick pause (1.2 s before a computer leads after a trick; a third of
    it at the "fast" speed the whole-game tests choose)."""
    yield from _serve(tmp_path_factory, trick_pause=1.2)


@pytest.fixture(scope="session")
def quick_pace_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The same platform with no trick pause: a computer leads the next trick at once. For
    whole games whose test is not about the pace (marked ``quick_pace``): each hand of theirs
    took a second or two of pauses on screen."""
    yield from _serve(tmp_path_factory, trick_pause=0.0)


@pytest.fixture
def server_url(request: pytest.FixtureRequest) -> str:
    """The test's server: :func:`quick_pace_url` for a test marked ``quick_pace``, else
    :func:`real_pace_url` (each started once per worker that needs it)."""
    quick = request.node.get_closest_marker("quick_pace") is not None
    url: str = request.getfixturevalue("quick_pace_url" if quick else "real_pace_url")
    return url


@pytest.fixture(scope="session")
def artifacts(request: pytest.FixtureRequest) -> Path:
    """Where screenshots are kept (emptied once per run: by the one process of a serial run;
    under pytest-xdist by tests/conftest.py's controller, before any worker starts, so no
    worker removes another's screenshots)."""
    if not hasattr(request.config, "workerinput") and ARTIFACTS.exists():
        shutil.rmtree(ARTIFACTS)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def _page(browser: Browser, server_url: str, viewport: dict[str, int],
          speed: str | None = None) -> Iterator[Page]:
    context = browser.new_context(viewport=viewport, base_url=server_url)
    if speed:
        context.add_init_script(
            "if (location.protocol.startsWith('http')) "
            f"localStorage.setItem('euchre.speed', '{speed}')")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    """A fresh desktop-sized page (its own storage) on the test server, computers fast."""
    yield from _page(browser, server_url, DESKTOP, speed="fast")


@pytest.fixture
def phone_page(browser: Browser, server_url: str) -> Iterator[Page]:
    """A fresh phone-sized page (390 x 844), computers fast."""
    yield from _page(browser, server_url, PHONE, speed="fast")


@pytest.fixture
def sized_page(browser: Browser, server_url: str, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A fresh page of the size named by the test's ``size`` parameter, computer players fast."""
    yield from _page(browser, server_url, SIZES[request.param], speed="fast")


@pytest.fixture
def scripted(page: Page) -> Iterator[Any]:
    """Open the table page for a scripted hand: returns a function taking the hand."""

    def open_table(state: HandState, preset: str, **options: bool) -> ScriptedTable:
        return open_scripted(page, state, preset, **options)

    yield open_table
