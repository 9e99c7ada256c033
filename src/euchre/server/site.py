"""What the processes of one site share, as a server extension: the broker and the leases
(Redis when ``Settings.redis_url`` is set, this process's memory otherwise), the site
lease, and the checks it adds to ``GET /readyz``.

Tables do not yet run under leases of their own with sockets relayed to their owner
(:data:`TABLE_OWNERSHIP` is False). Until they do, a site with a Redis URL has one
*active* process: the one holding the site lease, named after the database. Any other
process started for the same site waits in start-up (a standby, not listening) until the
lease is free, then takes over: it claims every unfinished game with its own, higher
fence and resumes them from the database as a restart does. The active process renews
the lease; if it loses it (paused past it, or Redis unreachable that long) its tables
stop handling input at once, its late writes are refused by the fences, and it shuts
down. Without a Redis URL nothing of this happens: one process, fence 0.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import secrets
import signal
import socket
import threading
from collections.abc import Callable
from types import FrameType

from sqlalchemy.engine import make_url
from starlette.applications import Starlette

from ..broker import Broker, BrokerUnavailable, open_broker
from ..leases import Lease, LeaseKeeper, Leases, open_leases
from ..storage.fenced import FencedStore
from ..table.manager import TableManager
from .registry import Extension

log = logging.getLogger(__name__)

TABLE_OWNERSHIP = False
"""Whether tables run under leases of their own with sockets relayed to their owner
(issue 11, still to come): several worker processes are refused until it is True."""


def site_lease_name(database_url: str | None) -> str:
    """The site lease's name: one per database (the password left out of the hash)."""
    shown = make_url(database_url).render_as_string(hide_password=True) \
        if database_url and "://" in database_url else str(database_url)
    return "site:" + hashlib.sha256(shown.encode()).hexdigest()[:16]


def process_name() -> str:
    """This process as a lease owner: host, pid and a random part (no spaces)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}".replace(" ", "_")


def _terminate() -> None:
    """Ask this process to shut down as on Ctrl-C (uvicorn handles SIGTERM)."""
    os.kill(os.getpid(), signal.SIGTERM)


async def startup(app: Starlette) -> None:
    """Open the broker and the leases; with a Redis URL, wait for the site lease (a
    standby waits here) and fence the store with it. A Redis that is down at start-up
    is reported by ``/readyz``; the site lease is tried until it can be taken."""
    settings = app.state.settings
    broker = open_broker(settings.redis_url)
    app.state.broker = broker
    app.state.leases = open_leases(settings.redis_url)
    try:
        await broker.connect()
    except BrokerUnavailable as e:
        log.warning("Redis is unavailable at start-up: %s", e)
    if settings.redis_url:
        await _become_active(app)


async def _become_active(app: Starlette) -> None:
    settings = app.state.settings
    manager: TableManager = app.state.manager
    leases: Leases = app.state.leases
    name, owner, ttl = site_lease_name(settings.database_url), process_name(), settings.lease_ttl
    lost_hook: Callable[[], None] = getattr(app.state, "site_lost_hook", None) or _terminate

    def on_lost(lease: Lease, why: str) -> None:
        log.error("lost the site lease (fence %d): %s; stopping every table and shutting "
                  "down", lease.fence, why)
        # Kept on the app so the task is not collected before it is done.
        app.state.site_stopping = asyncio.ensure_future(_stop_serving(manager, lost_hook))

    keeper: LeaseKeeper | None = None
    said = False
    restore_signals = _standby_exits_on_signal()
    try:
        while keeper is None:
            try:
                keeper = await LeaseKeeper.acquire(leases, name, owner, ttl, on_lost,
                                                   at_least=await app.state.store.max_fence())
            except Exception as e:  # Redis down: a standby keeps trying
                log.warning("cannot take the site lease yet: %s", e)
            if keeper is None:
                if not said:
                    holder = await _holder(leases, name)
                    log.info("standby: %s serves this site; waiting for its lease", holder)
                    said = True
                await asyncio.sleep(ttl / 3)
    finally:
        restore_signals()
    keeper.start()
    fenced = FencedStore(app.state.store, keeper.fence)
    # Everything that writes games must write through the fence (retiring abandoned practice
    # tables included): a plain store would save a game with the fence it was read with.
    app.state.store = manager.store = manager.retirement.store = fenced
    manager.guard = keeper.is_held
    app.state.site_keeper = keeper
    log.info("serving the site as %s with fence %d", owner, keeper.fence)


def _standby_exits_on_signal() -> Callable[[], None]:
    """While this process waits as a standby (not listening, holding nothing), SIGTERM or
    SIGINT ends it at once with status 0 (uvicorn would only act on them after start-up,
    which a standby may never finish). Returns what puts the previous handlers back."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None  # signals go to the main thread only (tests run apps in others)
    signals = (signal.SIGTERM, signal.SIGINT)
    previous = {sig: signal.getsignal(sig) for sig in signals}

    def leave(signum: int, frame: FrameType | None) -> None:
        log.info("standby stopped (signal %d)", signum)
        logging.shutdown()
        os._exit(0)

    for sig in signals:
        signal.signal(sig, leave)

    def restore() -> None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)

    return restore


async def _holder(leases: Leases, name: str) -> str:
    try:
        state = await leases.holder(name)
    except Exception:
        return "another process"
    return "nobody" if state is None else f"{state.owner} (fence {state.fence})"


async def _stop_serving(manager: TableManager, then: Callable[[], None]) -> None:
    try:
        await manager.close()  # their last saves are refused if the next owner claimed
    finally:
        then()


async def shutdown(app: Starlette) -> None:
    """Give the site lease up (a standby takes over at once), close broker and leases."""
    keeper: LeaseKeeper | None = getattr(app.state, "site_keeper", None)
    broker: Broker | None = getattr(app.state, "broker", None)
    leases: Leases | None = getattr(app.state, "leases", None)
    if keeper is not None:
        await keeper.stop(release=True)
    if broker is not None:
        await broker.disconnect()
    if leases is not None:
        await leases.close()


async def readiness(app: Starlette) -> dict[str, str]:
    """The site's ``/readyz`` checks: Redis (if used) answers and this process holds the
    site lease (if there is one)."""
    state = app.state
    checks: dict[str, str] = {}
    if not state.settings.redis_url:
        checks["redis"] = "not used"
        return checks
    try:
        await state.broker.ping()
        checks["redis"] = "ok"
    except Exception as e:
        checks["redis"] = f"unavailable: {type(e).__name__}"
    keeper: LeaseKeeper | None = getattr(state, "site_keeper", None)
    checks["site_lease"] = "held" if keeper is not None and keeper.is_held() else "lost"
    return checks


def site_extension() -> Extension:
    """The site: broker and leases (in Redis with a Redis URL), the site lease and the
    fenced store; put it first, so it decides whether this process runs tables."""
    return Extension("site", startup=startup, shutdown=shutdown, ready=readiness)
