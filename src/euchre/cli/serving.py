"""One ``euchre serve`` process: listen, start the app, then serve, in that order, so that
whatever stops it before it serves is told in one line naming the cause, with exit status 1
(never a traceback and uvicorn's "Application startup failed", status 3).

uvicorn would start the app (its lifespan) itself and print a failure's traceback; here the
app's lifespan is entered before uvicorn serves (uvicorn runs with ``lifespan="off"``) and
left after uvicorn has shut down, so the order of a stop is the same as uvicorn's: stop
accepting, close sockets, then the app's shutdown (tables saved), then the signal.

The event loop is the one uvicorn itself would run (:func:`loop_factory`): uvloop where it is
installed (``uvicorn[standard]`` installs it), else the standard library's. One process and
``--workers`` (which ``uvicorn.run`` serves) run on the same kind of loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import uvicorn

if TYPE_CHECKING:
    from starlette.applications import Starlette

log = logging.getLogger("uvicorn.error")


class StartFailed(Exception):
    """``euchre serve`` could not start; the message is the one line to print."""


def one_line(error: BaseException) -> str:
    """An error as one short line: its words, else its type's name."""
    text = " ".join(str(error).split())
    cause = getattr(error, "orig", None)  # SQLAlchemy wraps the driver's error
    if cause is not None and str(cause).strip():
        text = " ".join(str(cause).split())
    name = type(cause if cause is not None else error).__name__
    return f"{name}: {text[:300]}" if text else name


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (as uvicorn binds one), or :class:`StartFailed`."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family=family)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise StartFailed(f"cannot listen on {host}:{port}: "
                          f"{e.strerror or one_line(e)}") from None
    except (OverflowError, socket.gaierror) as e:
        sock.close()
        raise StartFailed(f"cannot listen on {host}:{port}: {one_line(e)}") from None
    sock.set_inheritable(True)
    return sock


def loop_factory(config: uvicorn.Config) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """What makes the loop ``config`` asks for (its ``loop``, by default ``"auto"``: uvloop
    if it can be imported, else the standard library's), as ``uvicorn.run`` would; None for
    the standard library's default loop. uvloop runs the loop, timers and socket transports
    in C: they were about a tenth of the server's CPU on the standard library's loop."""
    return config.get_loop_factory()


class _Server(uvicorn.Server):
    """uvicorn's server that says where it listens once it serves (it does not when given
    a socket) and leaves the app's lifespan after its own shutdown."""

    def __init__(self, config: uvicorn.Config, url: str,
                 leave: Callable[[], Any]) -> None:
        super().__init__(config)
        self._url = url
        self._leave = leave

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            log.info("Uvicorn running on %s (Press CTRL+C to quit)", self._url)

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().shutdown(sockets)
        finally:
            await self._leave()


def serve(app: Starlette, host: str, port: int, options: dict[str, Any],
          sock: socket.socket | None = None) -> None:
    """Serve ``app`` on ``host:port`` (or on ``sock``, bound there by :func:`listen`, which
    this closes) with uvicorn ``options`` until stopped; raises :class:`StartFailed`
    (nothing served) if it cannot listen or the app cannot start."""
    if sock is None:
        sock = listen(host, port)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{sock.getsockname()[1]}"
    config = uvicorn.Config(app, host=host, port=port, lifespan="off", **options)

    async def main() -> None:
        lifespan = app.router.lifespan_context(app)
        try:
            await lifespan.__aenter__()
        except (Exception, asyncio.CancelledError) as e:
            raise StartFailed(f"could not start: {one_line(e)}") from None
        log.info("Application startup complete.")  # uvicorn's words: scripts wait for them
        left = False

        async def leave() -> None:
            nonlocal left
            if not left:
                left = True
                log.info("Waiting for application shutdown.")
                await lifespan.__aexit__(None, None, None)
                log.info("Application shutdown complete.")

        try:
            await _Server(config, url, leave).serve(sockets=[sock])
        finally:
            with contextlib.suppress(Exception):
                await leave()

    try:
        with asyncio.Runner(loop_factory=loop_factory(config)) as runner:
            runner.run(main())
    finally:
        sock.close()
