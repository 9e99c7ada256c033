"""``euchre serve``: start the web platform with uvicorn (one process, one worker)."""

from __future__ import annotations

import argparse
import logging
import sys

from ..limits.open import default_redis_url, redis_problem
from ..server import Settings, create_app
from ..server.app import default_database_url
from ..server.logs import configure, uvicorn_log_config
from ..server.shutdown import GRACE_SECONDS, exit_zero_on_sigterm
from ..storage.check import unusable_reason


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``euchre serve``."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--bot-delay", type=float, default=0.67, metavar="SECONDS",
                        help="pause before each computer move (default 0.67)")
    parser.add_argument("--hand-pause", type=float, default=2.0, metavar="SECONDS",
                        help="pause between hands (default 2)")
    parser.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL, or 'memory:' (default $EUCHRE_DATABASE_URL "
                             "or sqlite+aiosqlite:///./var/euchre.db)")
    parser.add_argument("--ws-compression", action=argparse.BooleanOptionalAction, default=False,
                        help="per-message deflate on sockets (default off: messages are "
                             "small and compressing them costs more CPU than it saves)")
    parser.add_argument("--redis-url", default=None,
                        help="Redis for the rate limits' counters, shared by every process "
                             "(default $EUCHRE_REDIS_URL; without it they are in memory)")
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    parser.add_argument("--json-logs", action="store_true",
                        help="log JSON lines (with table and request ids) instead of text")
    parser.add_argument("--public-url", default=None, metavar="URL",
                        help="the site's address as people reach it, for invite links "
                             "(default http://HOST:PORT)")
    parser.add_argument("--upgrade", action=argparse.BooleanOptionalAction, default=True,
                        help="run the database migrations at start (default on; "
                             "--no-upgrade leaves them to 'euchre db upgrade')")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted."""
    import uvicorn

    url = args.database_url or default_database_url()
    redis_url = args.redis_url or default_redis_url()
    # One line naming what is wrong, no traceback; makes an SQLite file's folder.
    problem = unusable_reason(url) or redis_problem(redis_url)
    if problem is not None:
        print(f"euchre serve: {problem}", file=sys.stderr)
        return 1
    configure(args.log_level, json_lines=args.json_logs)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    settings = Settings(database_url=url, bot_delay=args.bot_delay, hand_pause=args.hand_pause,
                        tune_gc=True, upgrade=args.upgrade, redis_url=redis_url,
                        public_url=args.public_url or public_url(args.host, args.port))
    exit_zero_on_sigterm()
    uvicorn.run(create_app(settings), host=args.host, port=args.port,
                log_level=args.log_level, ws_max_size=65536,
                ws_per_message_deflate=args.ws_compression,
                log_config=uvicorn_log_config(args.json_logs),
                timeout_graceful_shutdown=GRACE_SECONDS)
    return 0


def public_url(host: str, port: int) -> str:
    """The default public URL from the bind address (all addresses: the loopback name)."""
    if host in ("0.0.0.0", "::", ""):
        host = "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"
