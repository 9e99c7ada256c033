"""Fixtures every test folder shares: Playwright with Chromium.

The live server the browser tests use is ``live_server`` in ``tests/live_server.py``.

Chromium is Debian's ``/usr/bin/chromium`` (or ``EUCHRE_CHROMIUM``); ``playwright install``
is never needed. Playwright's sync API keeps its event loop marked as the main thread's
running loop while it is started, which would stop a later ``asyncio.run()`` or
pytest-asyncio test. So Playwright and Chromium live for one test module at a time (the
browser modules hold only browser tests) and are stopped, through the public API, before
the next module: nothing touches asyncio's internals. Each test gets fresh browser
contexts (``new_context``), closed after it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Playwright

CHROMIUM = os.environ.get("EUCHRE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless=new",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def playwright_instance() -> Iterator[Playwright]:
    """Playwright for one test module (stopped after it: see the module's docstring)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_api.sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless, for one test module."""
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM,
                                                  args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def new_context(browser: Browser) -> Iterator[Callable[..., BrowserContext]]:
    """Makes fresh browser contexts (own storage and cookies); all are closed after the test."""
    contexts: list[BrowserContext] = []

    def make(**options: Any) -> BrowserContext:
        context = browser.new_context(**options)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


# -- no silent skips where everything is installed ---------------------------------------
# scripts/test installs every optional part a test needs (Chromium, PostgreSQL, Redis, nginx,
# Node, the compiled solver, open_spiel) and sets EUCHRE_TEST_NO_SKIP=1: there a skip means a
# part is missing, so it fails the run with the skip's reason instead of passing quietly.
NO_SKIP = os.environ.get("EUCHRE_TEST_NO_SKIP") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """With EUCHRE_TEST_NO_SKIP=1, report a skipped test as failed, naming the reason."""
    outcome = yield
    report = outcome.get_result()
    if NO_SKIP and report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped where nothing may be skipped (EUCHRE_TEST_NO_SKIP=1): {reason}"
