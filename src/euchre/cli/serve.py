"""``euchre serve``: start the web platform with uvicorn.

One process by default. ``--redis-url`` (or ``$EUCHRE_REDIS_URL``) names the Redis that
the processes of one site share; ``--workers N`` asks for N processes on one port, which
needs that Redis and a PostgreSQL database (refused otherwise with a one-line reason):
each table runs in the one process holding its lease, and sockets are relayed to it
(docs/scaling.md).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

# Only light modules here: a refused option, database or port is told before the site
# (SQLAlchemy, every page) is loaded, which is most of a start's CPU.
from ..server.core.database_url import default_database_url
from ..server.core.limit_settings import LimitSettings
from ..server.core.redis_client import REDIS_URL_ENV, default_redis_url, redis_problem
from ..server.ops.logs import configure, uvicorn_log_config
from ..server.ops.shutdown import GRACE_SECONDS, exit_zero_on_sigterm
from ..server.tables.socket_guard import SocketLimits
from .parent_watch import end_with_parent, mark_parent

if TYPE_CHECKING:
    from ..server import Settings

BOT_DELAY_ENV = "EUCHRE_BOT_DELAY"
"""Environment variable: ``--bot-delay`` for worker processes."""
HAND_PAUSE_ENV = "EUCHRE_HAND_PAUSE"
"""Environment variable: ``--hand-pause`` for worker processes."""
LEASE_SECONDS_ENV = "EUCHRE_LEASE_SECONDS"
"""Environment variable: ``--lease-seconds`` for worker processes."""
SEED_WAIT_ENV = "EUCHRE_SEED_WAIT"
"""Environment variable: ``--seed-wait`` for worker processes."""
DATABASE_URL_ENV = "EUCHRE_DATABASE_URL"
"""Environment variable: the database URL (``--database-url``)."""
SOCKETS_PER_ADDRESS_ENV = "EUCHRE_SOCKETS_PER_ADDRESS"
"""Environment variable: ``--sockets-per-address`` for worker processes."""
RATE_LOOPBACK_ENV = "EUCHRE_RATE_LOOPBACK"
"""Environment variable: ``--rate-loopback`` for worker processes (``1``)."""
TABLES_PER_ADDRESS_ENV = "EUCHRE_TABLES_PER_ADDRESS"
"""Environment variable: ``--tables-per-address`` for worker processes."""
PUBLIC_URL_ENV = "EUCHRE_PUBLIC_URL"
"""Environment variable: the public URL for worker processes."""
LOG_LEVEL_ENV = "EUCHRE_LOG_LEVEL"
"""Environment variable: ``--log-level`` for worker processes."""
JSON_LOGS_ENV = "EUCHRE_JSON_LOGS"
"""Environment variable: ``1`` for ``--json-logs`` in worker processes."""
FORWARDED_ALLOW_IPS_ENV = "FORWARDED_ALLOW_IPS"
"""Environment variable uvicorn reads: the proxies whose ``X-Forwarded-For`` is believed
(default ``127.0.0.1``)."""
PROXY_OVERWRITES_ENV = "EUCHRE_PROXY_OVERWRITES_FORWARDED"
"""Environment variable: ``1`` for ``--proxy-overwrites-forwarded``."""
METRICS_TOKEN_ENV = "EUCHRE_METRICS_TOKEN"
"""Environment variable: the token that reads ``/metrics`` (unset: it is not served). Only
from the environment, never an argument, so it does not show in the process list."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``euchre serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--bot-delay", type=float, default=0.67, metavar="SECONDS",
                        help="pause before each computer move (default 0.67)")
    parser.add_argument("--hand-pause", type=float, default=2.0, metavar="SECONDS",
                        help="pause between hands (default 2)")
    parser.add_argument("--seed-wait", type=float, default=3.0, metavar="SECONDS",
                        help="longest wait before a table's first deal for the people's "
                             "shuffle seeds (default 3)")
    parser.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL, or 'memory:' (default $EUCHRE_DATABASE_URL "
                             "or sqlite+aiosqlite:///./var/euchre.db)")
    parser.add_argument("--redis-url", default=None,
                        help="Redis shared by every process of the site (rate-limit counters, "
                             "table leases, the broker), redis://host:port/db (default "
                             f"${REDIS_URL_ENV}; without it all of these are in memory)")
    parser.add_argument("--lease-seconds", type=float, default=10.0, metavar="SECONDS",
                        help="with --redis-url: how long a table's lease lives unrenewed, so "
                             "how soon another process takes over a dead one's tables "
                             "(default 10)")
    parser.add_argument("--workers", type=int, default=1, metavar="N",
                        help="processes serving this port (default 1; more need --redis-url "
                             "and a PostgreSQL --database-url)")
    parser.add_argument("--ws-compression", action=argparse.BooleanOptionalAction, default=False,
                        help="per-message deflate on sockets (default off: messages are "
                             "small and compressing them costs more CPU than it saves)")
    parser.add_argument("--sockets-per-address", type=int, default=SocketLimits.per_address,
                        metavar="N", help="table sockets one client address may hold at once "
                                          f"(default {SocketLimits.per_address}; load tests "
                                          "from one address need more)")
    parser.add_argument("--rate-loopback", action="store_true",
                        help="rate the opening of sockets from loopback addresses other than "
                             "127.0.0.1 and ::1 as from any other (a benchmark's attackers "
                             "on 127.0.0.2 and up); by default loopback is not rated")
    parser.add_argument("--tables-per-address", type=int,
                        default=LimitSettings.tables_per_address, metavar="N",
                        help="new tables one client address may open in the rate limit's "
                             f"window (default {LimitSettings.tables_per_address}; load "
                             "tests from one address need more)")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    parser.add_argument("--json-logs", action="store_true",
                        help="log JSON lines (with table and request ids) instead of text")
    parser.add_argument("--public-url", default=None, metavar="URL",
                        help="the site's address as people reach it, for invite links "
                             "(default http://HOST:PORT)")
    parser.add_argument("--proxy-overwrites-forwarded", action="store_true",
                        help="with FORWARDED_ALLOW_IPS='*': vouch that only a proxy which "
                             "overwrites X-Forwarded-For with the client's address can reach "
                             "this port (without it, '*' is refused: any client could choose "
                             f"its own address; also ${PROXY_OVERWRITES_ENV}=1)")
    parser.add_argument("--upgrade", action=argparse.BooleanOptionalAction, default=True,
                        help="run the database migrations at start (default on; "
                             "--no-upgrade leaves them to 'euchre db upgrade')")


def workers_refusal(workers: int, database_url: str, redis_url: str | None) -> str | None:
    """Why ``--workers`` cannot be served with these URLs (one line), or None if it can."""
    if workers < 1:
        return f"--workers must be at least 1, not {workers}"
    if workers == 1:
        return None
    if not redis_url:
        return (f"--workers {workers} needs --redis-url (or ${REDIS_URL_ENV}): the processes "
                "share table ownership and socket relays through Redis")
    if not database_url.startswith("postgresql"):
        return (f"--workers {workers} needs a PostgreSQL --database-url "
                "(postgresql+asyncpg://...): SQLite and memory: serve one process")
    return None


def forwarded_refusal(trusted: str | None, vouched: bool) -> str | None:
    """Why a trust of forwarded addresses ``trusted`` (``FORWARDED_ALLOW_IPS``) is refused,
    in one line, or None. ``*`` believes ``X-Forwarded-For`` from anyone, and uvicorn then
    takes its leftmost entry, which the client wrote unless the proxy overwrote the header:
    every limit per address would fall, so it needs ``vouched``."""
    entries = [e.strip() for e in (trusted or "").split(",")]
    if "*" not in entries or vouched:
        return None
    return (f"{FORWARDED_ALLOW_IPS_ENV}='*' lets any client choose its own address "
            "(X-Forwarded-For): trust only your proxy's address, or pass "
            "--proxy-overwrites-forwarded if only a proxy that overwrites the header can "
            "reach this port (docs/server.md, Behind a proxy)")


def settings_from_env(environ: dict[str, str] | None = None) -> Settings:
    """The settings of a worker process, from the variables :func:`run` sets."""
    from ..server import Settings

    env = os.environ if environ is None else environ
    return Settings(
        database_url=env.get(DATABASE_URL_ENV) or default_database_url(),
        redis_url=env.get(REDIS_URL_ENV) or None,
        bot_delay=float(env.get(BOT_DELAY_ENV, "0.67")),
        hand_pause=float(env.get(HAND_PAUSE_ENV, "2.0")),
        lease_ttl=float(env.get(LEASE_SECONDS_ENV, "10")),
        seed_wait=float(env.get(SEED_WAIT_ENV, "3")),
        tune_gc=True,
        socket_limits=SocketLimits(per_address=int(
            env.get(SOCKETS_PER_ADDRESS_ENV, str(SocketLimits.per_address))),
            rate_loopback=env.get(RATE_LOOPBACK_ENV) == "1"),
        limits=LimitSettings(tables_per_address=int(
            env.get(TABLES_PER_ADDRESS_ENV, str(LimitSettings.tables_per_address)))),
        upgrade=False,  # the parent migrated the database before forking the workers
        public_url=env.get(PUBLIC_URL_ENV) or Settings.public_url,
        metrics_token=env.get(METRICS_TOKEN_ENV) or None,
    )


def app_from_env() -> Any:
    """The app of one worker process (uvicorn's factory when ``--workers`` > 1), with this
    process's logging set up as the parent's."""
    from uvicorn.config import STARTUP_FAILURE

    from ..server import create_app

    end_with_parent()  # a killed parent cannot stop its workers: they stop themselves
    configure(os.environ.get(LOG_LEVEL_ENV, "info"),
              json_lines=os.environ.get(JSON_LOGS_ENV) == "1")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    try:
        return create_app(settings_from_env())
    except Exception:
        # uvicorn's supervisor starts a worker that died again, forever, unless it says it
        # failed to start: then the supervisor stops the others and ends.
        logging.getLogger(__name__).exception("this worker could not make the app")
        sys.exit(STARTUP_FAILURE)


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    url = args.database_url or default_database_url()
    redis_url = args.redis_url or default_redis_url()
    refusal = workers_refusal(args.workers, url, redis_url)
    if refusal is None and not args.lease_seconds > 0:
        refusal = f"--lease-seconds must be positive, not {args.lease_seconds}"
    if refusal is None:
        refusal = forwarded_refusal(
            os.environ.get(FORWARDED_ALLOW_IPS_ENV),
            args.proxy_overwrites_forwarded or os.environ.get(PROXY_OVERWRITES_ENV) == "1")
    if refusal is not None:
        print(f"euchre serve: {refusal}", file=sys.stderr)
        return 2
    from ..storage.check import unusable_reason

    # One line naming what is wrong, no traceback; makes an SQLite file's folder.
    problem = unusable_reason(url) or redis_problem(redis_url)
    if problem is not None:
        print(f"euchre serve: {problem}", file=sys.stderr)
        return 1
    configure(args.log_level, json_lines=args.json_logs)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    options: dict[str, Any] = {"host": args.host, "port": args.port,
                               "log_level": args.log_level, "ws_max_size": 65536,
                               # The cheapest of uvicorn's WebSocket implementations per
                               # message sent (docs/scaling.md), named rather than "auto".
                               "ws": "websockets-sansio",
                               "ws_per_message_deflate": args.ws_compression,
                               "timeout_graceful_shutdown": GRACE_SECONDS,
                               "log_config": uvicorn_log_config(args.json_logs)}
    exit_zero_on_sigterm()
    if args.workers > 1:
        # Each worker process builds its own app from the environment.
        os.environ.update({DATABASE_URL_ENV: url, REDIS_URL_ENV: redis_url or "",
                           BOT_DELAY_ENV: str(args.bot_delay),
                           HAND_PAUSE_ENV: str(args.hand_pause),
                           LEASE_SECONDS_ENV: str(args.lease_seconds),
                           SOCKETS_PER_ADDRESS_ENV: str(args.sockets_per_address),
                           RATE_LOOPBACK_ENV: "1" if args.rate_loopback else "",
                           TABLES_PER_ADDRESS_ENV: str(args.tables_per_address),
                           PUBLIC_URL_ENV: args.public_url or public_url(args.host, args.port),
                           LOG_LEVEL_ENV: args.log_level,
                           JSON_LOGS_ENV: "1" if args.json_logs else "0",
                           SEED_WAIT_ENV: str(args.seed_wait)})
        mark_parent()
        if args.upgrade:  # once, here, not in every worker at once
            from ..storage.sql import migrate
            from .serving import one_line

            try:
                migrate(url)
            except Exception as e:  # one line naming the cause, as a single process says it
                print(f"euchre serve: could not upgrade the database: {one_line(e)}",
                      file=sys.stderr)
                return 1
        uvicorn.run("euchre.cli.serve:app_from_env", factory=True, workers=args.workers,
                    **options)
        return 0
    from .serving import StartFailed, listen, serve

    try:  # the port before the site is loaded: taken, it is told at once
        sock = listen(args.host, args.port)
    except StartFailed as e:
        print(f"euchre serve: {e}", file=sys.stderr)
        return 1
    from ..server import Settings, create_app

    settings = Settings(database_url=url, redis_url=redis_url, bot_delay=args.bot_delay,
                        hand_pause=args.hand_pause, lease_ttl=args.lease_seconds,
                        seed_wait=args.seed_wait, tune_gc=True,
                        socket_limits=SocketLimits(per_address=args.sockets_per_address,
                                                   rate_loopback=args.rate_loopback),
                        limits=LimitSettings(tables_per_address=args.tables_per_address),
                        upgrade=args.upgrade,
                        public_url=args.public_url or public_url(args.host, args.port),
                        metrics_token=os.environ.get(METRICS_TOKEN_ENV) or None)
    served = {k: v for k, v in options.items() if k not in ("host", "port")}
    try:
        try:
            app = create_app(settings)
        except BaseException:
            sock.close()
            raise
        serve(app, args.host, args.port, served, sock=sock)
    except StartFailed as e:
        print(f"euchre serve: {e}", file=sys.stderr)
        return 1
    return 0


def public_url(host: str, port: int) -> str:
    """The default public URL from the bind address (all addresses: the loopback name)."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"
