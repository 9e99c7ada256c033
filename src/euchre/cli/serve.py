"""``euchre serve``: start the web platform with uvicorn (one process, one worker)."""

from __future__ import annotations

import argparse
import logging
import sys

from ..limits.open import default_redis_url, redis_problem
from ..server.app import Settings, create_app, default_database_url
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
    parser.add_argument("--seed-wait", type=float, default=3.0, metavar="SECONDS",
                        help="longest wait before a table's first deal for the people's "
                             "shuffle seeds (default 3)")
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
    logging.basicConfig(level=args.log_level.upper())
    logging.getLogger("alembic").setLevel(logging.WARNING)
    settings = Settings(database_url=url, bot_delay=args.bot_delay, hand_pause=args.hand_pause,
                        seed_wait=args.seed_wait, tune_gc=True, redis_url=redis_url)
    exit_zero_on_sigterm()
    uvicorn.run(create_app(settings), host=args.host, port=args.port,
                log_level=args.log_level, ws_max_size=65536,
                ws_per_message_deflate=args.ws_compression,
                timeout_graceful_shutdown=GRACE_SECONDS)
    return 0
