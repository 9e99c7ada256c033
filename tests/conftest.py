"""Browser tests everywhere share one Playwright and one Chromium for the whole session.

Chromium is Debian's ``/usr/bin/chromium`` (or ``EUCHRE_CHROMIUM``); ``playwright install``
is never needed. Each test gets fresh browser contexts (``new_context``), closed after it.

Playwright's sync API runs its event loop in a greenlet of the main thread and, between two
calls, leaves that loop marked as the thread's running loop. A later ``asyncio.run()`` or
pytest-asyncio test in the same process would then refuse to start ("cannot be called from
a running event loop"), and a second ``sync_playwright()`` would refuse too. So the loop is
parked (unmarked) after every test that uses the browser and resumed before the next one,
and the browser tests themselves stay plain (not ``async def``) functions. The test servers
run in threads with event loops of their own, which this does not touch.
"""

from __future__ import annotations

import asyncio
import os
import sys
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


class _PlaywrightLoop:
    """Playwright's event loop, marked running only while a browser test runs."""

    loop: asyncio.AbstractEventLoop | None = None
    parked_hooks: Any = None

    @classmethod
    def park(cls) -> None:
        if cls.loop is None or asyncio.events._get_running_loop() is not cls.loop:
            return
        asyncio.events._set_running_loop(None)
        cls.parked_hooks = sys.get_asyncgen_hooks()
        sys.set_asyncgen_hooks(None, None)

    @classmethod
    def resume(cls) -> None:
        if cls.loop is None or cls.loop.is_closed() or cls.parked_hooks is None:
            return
        if asyncio.events._get_running_loop() is not None:
            raise RuntimeError("another event loop is running: the browser tests cannot resume")
        asyncio.events._set_running_loop(cls.loop)
        sys.set_asyncgen_hooks(*cls.parked_hooks)
        cls.parked_hooks = None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[Any]:
    if "playwright_instance" not in getattr(item, "fixturenames", ()):
        return (yield)
    _PlaywrightLoop.resume()
    try:
        return (yield)
    finally:
        _PlaywrightLoop.park()


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    """The one Playwright driver of the session (started by the first browser test)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    if asyncio.events._get_running_loop() is not None:
        pytest.fail("Playwright's sync API cannot start inside a running event loop")
    manager = sync_api.sync_playwright()
    playwright = manager.start()
    _PlaywrightLoop.loop = asyncio.events._get_running_loop()
    try:
        yield playwright
    finally:
        _PlaywrightLoop.resume()  # teardown may come during a test without the browser
        playwright.stop()
        _PlaywrightLoop.loop = None
        _PlaywrightLoop.parked_hooks = None


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless, for the whole session."""
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield browser
    _PlaywrightLoop.resume()
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
