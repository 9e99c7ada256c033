"""What the processes of one site share, as a server extension: the broker and the leases
(Redis when ``Settings.redis_url`` is set, this process's memory otherwise), table
ownership, socket relays, the orphan sweeper, and the checks it adds to ``GET /readyz``.

With a Redis URL every process serves: each table runs in the one process holding its
lease (:mod:`euchre.table.owners`; the manager takes a table's lease to open or load it,
and stops its actor when the lease is lost), a socket that reaches another process is
relayed to the owner (:mod:`.tables.relay`, behind the door to every table,
:mod:`.tables.door`), and every process sweeps for tables whose owner died every half
lease and resumes them from the database. Writes that are not an actor's (retiring an
abandoned table, closing a left coin game) take the table's lease for the write
(:class:`~euchre.table.owners.LeasedStore`). Without a Redis URL nothing of this
happens: one process, fence 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket

from starlette.applications import Starlette

from ..broker import Broker, BrokerUnavailable, open_broker
from ..leases import Leases, open_leases
from ..table.manager import TableManager
from ..table.owners import LeasedStore, TableOwners
from .core.registry import Extension
from .tables.door import Tables
from .tables.relay import RelayEdge, RelayHost, Relays
from .tables.socket_guard import guard_of

log = logging.getLogger(__name__)

TABLE_OWNERSHIP = True
"""Whether tables run under leases of their own with sockets relayed to their owner, so
any number of processes serve one site (``euchre serve --workers N`` needs it)."""


def process_name() -> str:
    """This process as a lease owner: host, pid and a random part (no spaces)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}".replace(" ", "_")


async def startup(app: Starlette) -> None:
    """Open the broker and the leases; with a Redis URL, run tables under their own leases,
    relay sockets and sweep for orphans. A Redis that is down at start-up is reported by
    ``/readyz`` (and new tables are refused until it is back)."""
    settings = app.state.settings
    broker = open_broker(settings.redis_url)
    app.state.broker = broker
    app.state.leases = open_leases(settings.redis_url)
    try:
        await broker.connect()
    except BrokerUnavailable as e:
        log.warning("Redis is unavailable at start-up: %s", e)
    if settings.redis_url:
        await _join_site(app)


async def _join_site(app: Starlette) -> None:
    settings = app.state.settings
    manager: TableManager = app.state.manager
    leases: Leases = app.state.leases
    owners = TableOwners(leases, app.state.store, process_name(), settings.lease_ttl)
    # Whatever writes games outside an actor writes under the table's lease.
    leased = LeasedStore(owners)
    app.state.store = manager.store = manager.retirement.store = leased
    manager.owners = owners
    gate = getattr(app.state, "bot_gate", None)
    host = RelayHost(app.state.broker, manager, owners.owner, owners.ttl, app.state.hints,
                     gate, guard_of(app.state).limits.table_rate)
    edge = RelayEdge(app.state.broker, owners, app.state.metrics.relayed_messages.inc)
    app.state.owners = owners
    app.state.relays = Relays(host, edge)
    # The door to every table: this process's, and the others' through the relays.
    app.state.tables = Tables(manager, app.state.hints, gate, edge)
    host.start()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(host.ready.wait(), settings.lease_ttl)
    app.state.orphan_sweeper = asyncio.ensure_future(_sweep_orphans(manager, settings.lease_ttl))
    log.info("serving the site as %s", owners.owner)


async def _sweep_orphans(manager: TableManager, ttl: float) -> None:
    """Every half lease (jittered, so processes do not all look at once), take and resume
    the tables whose owner died."""
    failing = False
    while True:
        await asyncio.sleep(ttl / 2 * random.uniform(0.75, 1.25))
        try:
            taken = await manager.claim_orphans()
        except Exception as e:
            if not failing:
                log.warning("sweeping for orphaned tables failed: %s", e)
            failing = True
            continue
        failing = False
        if taken:
            log.info("took over %d orphaned tables", len(taken))


async def shutdown(app: Starlette) -> None:
    """Stop sweeping and relaying (the tables were stopped, saved and their leases given
    up already), close broker and leases."""
    sweeper: asyncio.Task[None] | None = getattr(app.state, "orphan_sweeper", None)
    relays: Relays | None = getattr(app.state, "relays", None)
    broker: Broker | None = getattr(app.state, "broker", None)
    leases: Leases | None = getattr(app.state, "leases", None)
    if sweeper is not None:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper
    if relays is not None:
        await relays.edge.stop()
        await relays.host.stop()
    if broker is not None:
        await broker.disconnect()
    if leases is not None:
        await leases.close()


async def readiness(app: Starlette) -> dict[str, str]:
    """The site's ``/readyz`` checks: Redis (if used) answers, and this process listens
    for relayed sockets."""
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
    relays: Relays | None = getattr(state, "relays", None)
    listening = relays is not None and relays.host.ready.is_set()
    checks["relays"] = "ok" if listening else "not listening"
    return checks


def site_extension() -> Extension:
    """The site: broker and leases (in Redis with a Redis URL), table ownership, relays
    and the orphan sweeper; put it first, so tables run under leases from the start."""
    return Extension("site", startup=startup, shutdown=shutdown, ready=readiness)
