"""`euchre serve` runs on the event loop uvicorn would pick: uvloop where it is installed,
the standard library's where it is not (``cli/serving.py``)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from starlette.applications import Starlette

from euchre.cli.serving import StartFailed, serve


def loop_served() -> asyncio.AbstractEventLoop:
    """The loop `serve` ran an app's start on (the start then fails, so nothing is served)."""
    seen: list[asyncio.AbstractEventLoop] = []

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        seen.append(asyncio.get_running_loop())
        raise RuntimeError("stop here")
        yield  # pragma: no cover

    with pytest.raises(StartFailed, match="stop here"):
        serve(Starlette(lifespan=lifespan), "127.0.0.1", 0, {})
    assert len(seen) == 1
    return seen[0]


def test_serve_runs_on_uvloop_where_it_is_installed() -> None:
    uvloop = pytest.importorskip("uvloop")
    assert isinstance(loop_served(), uvloop.Loop)


def test_serve_runs_on_the_standard_loop_where_uvloop_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # import uvloop raises ImportError
    loop = loop_served()
    assert type(loop).__module__.startswith("asyncio")
    assert isinstance(loop, asyncio.BaseEventLoop)
