"""The composition root: the site's parts, built once at start in a fixed order, and stopped
in the reverse order.

:func:`open_site` makes every part of one process of the site from the :class:`Settings`,
each from those made before it, and returns the :class:`Site`: typed fields for what
every process has and one optional field per extension's group (``accounts``, ``bots``,
``online`` ... None when the app has not that extension), so mypy checks the wiring;
nothing is rewired or patched after it is made. Each layer below reads it through a small
protocol of its own (:class:`~euchre.server.core.site.CoreSite`, ``TablesSite`` ...), and
:func:`layer_views` has mypy check that the ``Site`` is every one of them; the top layer,
and tests, reach it through :func:`root_of`. :func:`start_site` then runs the
extensions' start-up hooks (handed the finished site), resumes the unfinished tables and
starts the sweepers; :func:`close_site` undoes it all, last part first. The order is the
code below, and ``docs/server.md`` ("The composition root") lists it.

With a Redis URL every process serves: each table runs in the one process holding its
lease (:mod:`euchre.table.hosting.owners`; the manager takes a table's lease to open or load it,
and stops its actor when the lease is lost), a socket that reaches another process is
relayed to the owner (:mod:`.tables.relay`), and every process sweeps for tables whose
owner died every half lease and resumes them from the database. Writes that are not an
actor's (retiring an abandoned table, closing a left coin game) take the table's lease for
the write (:class:`~euchre.table.hosting.owners.LeasedStore`). Without a Redis URL nothing of this
happens: one process, fence 0. :func:`site_extension` adds the site's checks to
``GET /readyz``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..accounts.bots import BotService
from ..accounts.seat_claims import SeatClaims
from ..accounts.service import AccountService
from ..accounts.sessions import LoginSessionStore
from ..broker import Broker, BrokerUnavailable, open_broker
from ..coins.pots import PotService
from ..leases import LeaseClock, Leases, open_leases
from ..leases.keeper import MONOTONIC
from ..limits import Limits, open_limits
from ..nights import NightService
from ..shuffle import new_seed
from ..storage import GameStore, open_store
from ..storage.sql import SqlStore
from ..table.actor.actor import BotFactory
from ..table.actor.pacing import LoopScheduler, Pacing, Scheduler
from ..table.hosting.manager import TableManager
from ..table.hosting.owners import LeasedStore, TableOwners
from .accounts.accounts_api import AccountsSite, AccountsState
from .accounts.ratings_state import RatingsSite, RatingsState
from .core.guards import GuardedSite, PersonLocks
from .core.limit_settings import LimitSettings
from .core.pages import static_dir
from .core.redis_client import open_redis
from .core.registry import Extension, Registry
from .core.site import Background, CoreSite, kept_site
from .nights.nights_api import NightsSite
from .online.lobby_state import Online, OnlineSite
from .ops.cycles import collect_on_growth, pace_collector
from .ops.endpoints import OpsSite
from .ops.loop_lag import watch_loop_lag
from .ops.metrics import Metrics
from .tables.bot_gate import BotGate
from .tables.door import Tables, TablesSite
from .tables.hints import HintService
from .tables.relay import RelayEdge, RelayHost, Relays
from .tables.replay_cache import ReplayCache
from .tables.socket_guard import SocketGuard, SocketLimits
from .tournaments.tournaments_api import Tournaments, TournamentsSite

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from sqlalchemy.ext.asyncio import AsyncEngine

log = logging.getLogger(__name__)


@dataclass
class Settings:
    """Everything a server is configured with."""

    database_url: str | None = "memory:"
    """SQLAlchemy URL (``sqlite+aiosqlite:///...``, ``postgresql+asyncpg://...``) or
    ``memory:`` to keep games in memory only."""
    redis_url: str | None = None
    """Redis shared by the processes of one site (``redis://host:port/db``): rate-limit
    counters, broker and leases; None: one process, all in memory."""
    lease_ttl: float = 10.0
    """Seconds each table's lease lives without a renewal (with a Redis URL): another
    process takes over a dead one's tables about this long after."""
    lease_clock: LeaseClock | None = None
    """The clock table leases are kept on (default: the monotonic one; a test moves a fake
    one to run a lease out without waiting)."""
    bot_delay: float = 0.67
    """Seconds before each computer move."""
    hand_pause: float = 2.0
    """Seconds between the end of a hand and the next deal."""
    trick_pause: float | None = None
    """Least seconds before a computer leads after a completed trick, so people read it
    (None: 1.8 times ``bot_delay``, 1.2 s at the default delay; none when bots are instant)."""
    seed_wait: float = 0.0
    """Longest wait before a table's first deal for the people's shuffle seeds (``euchre
    serve``: 3 s; the deal is at once when every person has sent one)."""
    hint_budget: float = 1.0
    """Seconds an analysis for a hint may take."""
    move_clock_pace: float = 1.0
    """Real seconds each second of an online table's move clock takes: 1 in play; a test's
    site runs the clock faster, its tables still telling the seconds chosen
    (:attr:`euchre.table.kinds.clock.ClockPolicy.pace`)."""
    resume: bool = True
    """Resume unfinished tables from storage at startup."""
    static_dir: Path | None = None
    """The web client's files (default: the ``euchre.web`` package's ``static`` folder)."""
    store: GameStore | None = None
    """A ready store to use instead of opening ``database_url``."""
    scheduler: Scheduler | None = None
    """The clock tables use (default: the event loop's)."""
    bot_factory: BotFactory | None = None
    """Makes computer players (default: :func:`euchre.bots.make`)."""
    seed_source: Callable[[], str] = new_seed
    """Makes each hand's shuffle seed (default: a secure random seed)."""
    idle_after: float = 600.0
    """Seconds after which a table nobody watches, waiting for a person, leaves memory."""
    sweep_every: float = 60.0
    """Seconds between sweeps for idle tables."""
    tune_gc: bool = False
    """Pace the cycle collector for a long-running server (``euchre serve`` sets it):
    automatic collection off, a collection once the heap has grown
    (:mod:`~euchre.server.ops.cycles`)."""
    public_url: str = "http://127.0.0.1:8000"
    """The site's address as people reach it: invite links are built from it (never from
    a request's Host header). ``euchre serve --public-url``; default from the bind address."""
    upgrade: bool = True
    """Run the database migrations at start (``euchre serve --no-upgrade`` leaves them to
    ``euchre db upgrade``)."""
    limits: LimitSettings = field(default_factory=LimitSettings)
    """How much each rate limit allows."""
    socket_limits: SocketLimits = field(default_factory=SocketLimits)
    """What table sockets may hold: join deadline, caps (``socket_guard.py``)."""
    metrics_token: str | None = None
    """The token a scraper shows to read ``/metrics`` (``Authorization: Bearer ...``;
    ``euchre serve`` reads ``$EUCHRE_METRICS_TOKEN``). None: ``/metrics`` is not served."""



@dataclass(frozen=True)
class Given:
    """Parts made beforehand (by tests) that the site uses instead of making its own; the
    site closes them when it stops, as its own."""

    limits: Limits | None = None
    """Rate-limit counters (instead of ``open_limits`` on the process's Redis)."""
    broker: Broker | None = None
    """The broker (connected at start, disconnected at the end)."""
    hints: HintService | None = None
    """The hint service."""
    socket_guard: SocketGuard | None = None
    """The sockets' guard (instead of one with ``Settings.socket_limits``)."""


@dataclass(eq=False)
class Site:
    """Everything one process of the site serves with, built once at start by
    :func:`open_site` and never changed after (an assignment then is refused).

    The groups of the optional extensions are None when the app has not the extension;
    each extension's part maker fills its own, in the registry's order."""

    settings: Settings
    """What the server was configured with."""
    registry: Registry[Site]
    """The app's extensions: endpoints, pages, kinds and the hooks handed this site."""
    store: GameStore
    """Where games are kept (with a Redis URL, writes that are not a table's take the
    table's lease: :class:`~euchre.table.hosting.owners.LeasedStore`)."""
    engine: AsyncEngine | None
    """The SQL database the games are in (None: games in memory)."""
    redis: Redis | None
    """The process's one Redis client (None: one process, everything in memory)."""
    limits: Limits
    """Rate-limit counters (in Redis with a Redis URL)."""
    limit_settings: LimitSettings
    """How much each limit allows."""
    broker: Broker
    """Messages between the site's processes (in memory without a Redis URL)."""
    leases: Leases
    """Leases (table ownership, a person's requests one at a time)."""
    owners: TableOwners | None
    """This process's table leases (None without a Redis URL: every table runs here)."""
    manager: TableManager
    """The tables this process runs."""
    public_url: str
    """The site's address as people reach it (invite links)."""
    static_folder: Path
    """The web client's files."""
    background: Background
    """The tasks the site runs until it stops (sweepers, listeners)."""
    person_locks: PersonLocks
    """One lock per person (site-wide with a Redis URL)."""
    metrics: Metrics
    """The process's Prometheus metrics."""
    metrics_token: str | None
    """The token a scraper shows to read ``/metrics`` (None: not served)."""
    hints: HintService
    """Hints at practice tables."""
    socket_guard: SocketGuard
    """The sockets' caps and join deadline."""
    replay_cache: ReplayCache
    """Finished games' replays, built once."""
    gate: BotGate = field(init=False)
    """The outside bots' token check for sockets (made after the extensions' parts)."""
    tables: Tables = field(init=False)
    """The door to every table (made last: this process's, the others' through the
    relays)."""
    relays: Relays | None = None
    """The relays between processes (None without a Redis URL)."""
    accounts: AccountsState | None = None
    """Accounts and coin tables (``accounts_extension``)."""
    bots: BotService | None = None
    """Outside bots' tokens (``bots_extension``)."""
    online: Online | None = None
    """Online tables and their lobby (``online_extension``)."""
    pots: PotService | None = None
    """Coin stakes at online tables (``stakes_extension``)."""
    ratings: RatingsState | None = None
    """Ratings and statistics (``ratings_extension``)."""
    claims: SeatClaims | None = None
    """Guest seats bound to an account (``my_games_extension``)."""
    nights: NightService | None = None
    """Euchre nights in a room (``nights_extension``)."""
    tournaments: Tournaments | None = None
    """Online tournaments (``tournaments_extension``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        """Set a field while the site is built; refused after (nothing is rewired)."""
        if self.__dict__.get("_built"):
            raise AttributeError(f"the site is built: its {name} is not rewired")
        object.__setattr__(self, name, value)

    def seal(self) -> None:
        """Mark the site built: from now on no field changes."""
        self.__dict__["_built"] = True

    @property
    def site_wide(self) -> bool:
        """Whether several processes serve the site (it has a Redis URL)."""
        return self.redis is not None

    @property
    def sessions(self) -> LoginSessionStore | None:
        """Sign-in sessions (None: the app has no accounts)."""
        return self.accounts.sessions if self.accounts is not None else None

    @property
    def account_service(self) -> AccountService | None:
        """Accounts (None: the app has no accounts)."""
        return self.accounts.accounts if self.accounts is not None else None


LayerViews = tuple[CoreSite, GuardedSite, OpsSite, TablesSite, AccountsSite, RatingsSite,
                   OnlineSite, NightsSite, TournamentsSite]
"""The protocols the layers below read the site through, one each."""


def layer_views(site: Site) -> LayerViews:
    """``site`` as each layer below reads it: mypy checks here that a :class:`Site` is
    every layer's protocol (a field missing or of another type fails the type check)."""
    return (site, site, site, site, site, site, site, site, site)


def root_of(conn: Any) -> Site:
    """The started site of ``conn`` (a request, a socket or the app): the top layer's
    typed accessor."""
    site = kept_site(conn)
    if not isinstance(site, Site):
        raise RuntimeError(f"the app's site is a {type(site).__name__}, not a Site")
    return site


def process_name() -> str:
    """This process as a lease owner: host, pid and a random part (no spaces)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}".replace(" ", "_")


def _pacing(settings: Settings) -> Pacing:
    return Pacing(bot_delay=settings.bot_delay, hand_pause=settings.hand_pause,
                  seed_wait=settings.seed_wait, clock_pace=settings.move_clock_pace,
                  trick_pause=(settings.bot_delay * 1.8 if settings.trick_pause is None
                               else settings.trick_pause))


async def open_site(settings: Settings, registry: Registry[Site],
                    given: Given = Given()) -> Site:
    """Make the site's parts, in this order, each from those before it:

    1. the game store (migrated, unless ``settings.store`` is given) and its SQL engine;
    2. the process's one Redis client (None without a Redis URL), and on it the rate
       limits, the broker (connected: a Redis that is down at start-up is reported by
       ``/readyz``, and new tables are refused until it is back) and the leases;
    3. with a Redis URL, this process's table leases and the store that writes under them
       (what writes a game outside its table's actor takes the table's lease);
    4. the table manager on that store and those leases, closing a table another process
       runs through the broker;
    5. the server's services: metrics, hints (one at a time per client site-wide, in the
       limits, with a Redis URL), the sockets' guard, a person's lock;
    6. each extension's group, in the registry's order, each maker handed the site made
       so far (a group it stands on that is missing is refused: ``MissingPart``);
    7. the outside bots' gate on the bots' service (if the app has it) and, with a Redis
       URL, the relays, listening before the site is returned; last the door to every
       table. The site is then sealed.
    """
    store = (settings.store if settings.store is not None
             else await open_store(settings.database_url, upgrade=settings.upgrade))
    engine = store.engine if isinstance(store, SqlStore) else None
    redis = open_redis(settings.redis_url)
    limits = given.limits if given.limits is not None else open_limits(redis)
    broker = given.broker if given.broker is not None else open_broker(redis)
    try:
        await broker.connect()
    except BrokerUnavailable as e:
        log.warning("Redis is unavailable at start-up: %s", e)
    leases = open_leases(redis)
    owners = None
    games = store
    if redis is not None:
        owners = TableOwners(leases, store, process_name(), settings.lease_ttl,
                             clock=settings.lease_clock or MONOTONIC)
        games = LeasedStore(owners)
    metrics = Metrics()
    manager = TableManager(
        games, settings.scheduler or LoopScheduler(), _pacing(settings),
        bot_factory=settings.bot_factory, seed_source=settings.seed_source, observer=metrics,
        owners=owners)
    metrics.watch_tables(manager.count_by_kind)
    hints = given.hints if given.hints is not None else HintService(settings.hint_budget,
                                                                   metrics)
    if redis is not None:
        hints.share_site_wide(limits)
    guard = (given.socket_guard if given.socket_guard is not None
             else SocketGuard(settings.socket_limits))
    site = Site(settings=settings, registry=registry, store=games, engine=engine, redis=redis,
                limits=limits, limit_settings=settings.limits, broker=broker, leases=leases,
                owners=owners, manager=manager, public_url=settings.public_url,
                static_folder=static_dir(settings.static_dir), background=Background(),
                person_locks=PersonLocks(leases if redis is not None else None),
                metrics=metrics, metrics_token=settings.metrics_token, hints=hints,
                socket_guard=guard, replay_cache=ReplayCache())
    for make in registry.makers():
        await make(site)
    site.gate = gate = BotGate(site.bots)
    edge = None
    if owners is not None:
        host = RelayHost(broker, manager, owners.owner, owners.ttl, hints, gate,
                         guard.limits.table_rate)
        edge = RelayEdge(broker, owners, metrics.relayed_messages.inc)
        host.start()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(host.ready.wait(), settings.lease_ttl)
        site.relays = Relays(host, edge)
        log.info("serving the site as %s", owners.owner)
    # The door to every table: this process's, and the others' through the relays.
    site.tables = Tables(manager, hints, gate, edge)
    site.seal()
    return site


async def start_site(site: Site) -> None:
    """Run the extensions' start-up hooks in order (each handed the finished site: it
    registers its table kinds and hooks, settles what a crash left), resume the unfinished
    tables, and start sweeping for idle tables and, with a Redis URL, orphaned ones, and
    watching the event loop's lag (``euchre_loop_lag_seconds``)."""
    settings = site.settings
    for startup in site.registry.startups():
        await startup(site)
    manager = site.manager
    if settings.resume:
        resumed = await manager.resume_unfinished()
        if resumed:
            log.info("resumed %d unfinished tables", len(resumed))
    background = site.background
    if settings.tune_gc:
        pace_collector()
        background.start(collect_on_growth(site.metrics.cycles_collected))
    background.start(_sweep_idle(manager, settings))
    background.start(watch_loop_lag(site.metrics.loop_lagged))
    if site.owners is not None:
        background.start(_sweep_orphans(manager, settings.lease_ttl))


async def close_site(site: Site) -> None:
    """Stop the site, last part first: the sweepers and listeners, the tables (saved,
    their leases given up), the extensions (last first), the relays, the broker, the
    leases, the limits, the Redis client and the store (unless it was given)."""
    await site.background.stop()
    await site.manager.close()
    for shutdown in site.registry.shutdowns():
        await shutdown(site)
    if site.relays is not None:
        await site.relays.edge.stop()
        await site.relays.host.stop()
    await site.broker.disconnect()
    await site.leases.close()
    await site.limits.close()
    if site.redis is not None:
        await site.redis.aclose()
    if site.settings.store is None:
        await site.store.close()


async def _sweep_idle(manager: TableManager, settings: Settings) -> None:
    while True:
        await asyncio.sleep(settings.sweep_every)
        try:
            dropped = await manager.sweep(settings.idle_after)
        except Exception:
            log.exception("sweeping idle tables failed")
            continue
        if dropped:
            log.info("dropped %d idle tables from memory", len(dropped))


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


async def readiness(site: Site) -> dict[str, str]:
    """The site's ``/readyz`` checks: Redis (if used) answers, and this process listens
    for relayed sockets."""
    checks: dict[str, str] = {}
    if not site.site_wide:
        checks["redis"] = "not used"
        return checks
    try:
        await site.broker.ping()
        checks["redis"] = "ok"
    except Exception as e:
        checks["redis"] = f"unavailable: {type(e).__name__}"
    ready = site.relays is not None and site.relays.host.ready.is_set()
    checks["relays"] = "ok" if ready else "not listening"
    return checks


def site_extension() -> Extension[Site]:
    """The site's checks in ``/readyz`` (its broker, leases, table ownership, relays and
    orphan sweeper are the composition root's)."""
    return Extension("site", ready=readiness)
