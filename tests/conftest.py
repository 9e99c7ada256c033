"""Fixtures every test folder shares: Playwright with Chromium; table sockets read through
the test client fold their events as the browser does (``tests/folding.py``).

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
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import folding

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Playwright

folding.install()  # table sockets read in tests fold like the browser's (tests/folding.py)

# SQLite commits without a flush to disk each (as the test PostgreSQL runs with fsync off):
# every SQLite-backed test and the servers they start, unless the run names a level.
os.environ.setdefault("EUCHRE_SQLITE_SYNCHRONOUS", "NORMAL")

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
    # Every expect waits up to 30 s for its condition (not Playwright's 5 s): on a busy
    # 2-core machine a page can take that long, and a wait that ends sooner when the
    # condition holds asserts the same thing. (One module set this for the whole session,
    # so the full suite had it and a lone module did not.)
    sync_api.expect.set_options(timeout=30_000)
    with sync_api.sync_playwright() as playwright:
        yield playwright


CONSOLE_ERRORS: list[str] = []
"""Console errors (and uncaught exceptions) of every page of the test running now."""


def _watch_console(context: BrowserContext) -> BrowserContext:
    """Note every console error and uncaught exception of the context's pages."""

    def on_console(message: Any) -> None:
        if message.type == "error":
            where = message.location.get("url", "") if message.location else ""
            CONSOLE_ERRORS.append(f"{message.text} ({where})")

    context.on("console", on_console)
    # An uncaught error's stack says which script and line threw (a flaky one is seen once).
    context.on("weberror", lambda error: CONSOLE_ERRORS.append(
        f"uncaught: {error.error}\n{error.error.stack}"))
    return context


MOTION = [False]
"""Whether the test running now sees the page's animations (its ``motion`` marker)."""


@pytest.fixture(autouse=True)
def motion(request: pytest.FixtureRequest) -> None:
    """Pages ask for reduced motion (the stylesheet's ``prefers-reduced-motion``: cards
    dealt, played and swept at once) unless the test is marked ``motion``: the animations
    were an eighth of a whole browser game's CPU, and the suite is CPU-bound (docs/testing.md).
    A few whole games keep them, as a person who has not asked for less motion sees them;
    ``EUCHRE_TEST_MOTION=1`` gives every test its animations."""
    MOTION[0] = request.node.get_closest_marker("motion") is not None \
        or os.environ.get("EUCHRE_TEST_MOTION") == "1"


@pytest.fixture(scope="module")
def browser(playwright_instance: Playwright) -> Iterator[Browser]:
    """Debian's Chromium, headless, for one test module. Every context it makes reports its
    pages' console errors, and a test fails on any (see :func:`no_console_errors`)."""
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM,
                                                  args=CHROMIUM_ARGS)
    make_context = browser.new_context

    def new_context(**options: Any) -> BrowserContext:
        if not MOTION[0]:
            options.setdefault("reduced_motion", "reduce")
        return _watch_console(make_context(**options))

    def new_page(**options: Any) -> Any:
        page = new_context(**options).new_page()
        return page

    browser.new_context = new_context  # type: ignore[method-assign]
    browser.new_page = new_page  # type: ignore[method-assign]
    yield browser
    browser.close()


@pytest.fixture(autouse=True)
def no_console_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a browser test on any console error or uncaught exception in its pages (a
    Content-Security-Policy violation, a failed request, a script error), except those
    its ``console_errors`` marker expects (regular expressions)."""
    CONSOLE_ERRORS.clear()
    yield
    marker = request.node.get_closest_marker("console_errors")
    allowed = [re.compile(p) for p in (marker.args if marker else ())]
    unexpected = [e for e in CONSOLE_ERRORS if not any(p.search(e) for p in allowed)]
    CONSOLE_ERRORS.clear()
    assert not unexpected, f"console errors in the browser: {unexpected}"


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


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    """With EUCHRE_TEST_NO_SKIP=1, a module skipped while collected (a module-level
    ``importorskip``: Playwright missing, say) fails the run too, naming the reason."""
    outcome = yield
    report = outcome.get_result()
    if NO_SKIP and report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped where nothing may be skipped (EUCHRE_TEST_NO_SKIP=1): {reason}"


# -- pytest-xdist ---------------------------------------------------------------------------
# scripts/test runs the suite in worker processes (-n, --dist loadgroup). Every fixture is
# per-worker safe (free ports, tmp_path, fresh key prefixes and database names); what is
# shared on disk is prepared here, once, by the controller before the workers start.
WEB_ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "web"


def pytest_configure(config: pytest.Config) -> None:
    """In the controller of a pytest-xdist run, empty the browser tests' screenshot folder
    (a serial run's ``artifacts`` fixture does it itself)."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        shutil.rmtree(WEB_ARTIFACTS, ignore_errors=True)


REPEAT_ENV = "EUCHRE_TEST_REPEAT"
"""Environment variable: run every collected test this many times (stress runs, as
docs/testing.md shows); each run is a test of its own, ``[...-0]``, ``[...-1]`` ..."""


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Repeat each test ``$EUCHRE_TEST_REPEAT`` times (unset: once)."""
    times = int(os.environ.get(REPEAT_ENV) or 1)
    if times > 1:
        metafunc.fixturenames.append("repeat_round")
        metafunc.parametrize("repeat_round", range(times))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The browser test modules first, each module's tests still together and in order.

    Under pytest-xdist each worker takes the next tests as it frees up, so the run ends when
    the last test handed out ends: the long browser games (30-60 s each) handed out last
    left one worker running them while the others had nothing left. Handed out first, the
    tail is short tests and the workers finish together. (Every worker collects and sorts
    the same way, so they agree on the order, as xdist requires.)"""
    browser_modules = {item.module for item in items
                       if isinstance(item, pytest.Function) and item.get_closest_marker("browser")}
    items.sort(key=lambda item: 0 if getattr(item, "module", None) in browser_modules else 1)
