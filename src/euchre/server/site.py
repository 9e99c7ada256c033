"""What the processes of one site share, as a server extension: the broker and the leases
(Redis when ``Settings.redis_url`` is set, this process's memory otherwise), and
``GET /readyz``, which says whether the database and Redis answer.

Table actors do not run under leases yet, nor do sockets go through the broker
(:data:`TABLE_OWNERSHIP` is False): until they do, ``euchre serve`` refuses ``--workers``
above 1 (see docs/scaling.md).
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import text
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..broker import Broker, BrokerUnavailable, open_broker
from ..leases import Leases, open_leases

log = logging.getLogger(__name__)

TABLE_OWNERSHIP = False
"""Whether tables run under leases with sockets relayed to their owner (issue 11, still to
come): several worker processes are refused until it is True."""


async def startup(app: Starlette) -> None:
    """Open the broker and the leases (a Redis that is down is reported by ``/readyz``
    and tried again on use; it does not stop the server starting)."""
    redis_url = app.state.settings.redis_url
    broker = open_broker(redis_url)
    app.state.broker = broker
    app.state.leases = open_leases(redis_url)
    try:
        await broker.connect()
    except BrokerUnavailable as e:
        log.warning("Redis is unavailable at start-up: %s", e)


async def shutdown(app: Starlette) -> None:
    """Close the broker and the leases."""
    broker: Broker | None = getattr(app.state, "broker", None)
    leases: Leases | None = getattr(app.state, "leases", None)
    if broker is not None:
        await broker.disconnect()
    if leases is not None:
        await leases.close()


async def readyz(request: Request) -> Response:
    """200 when the database and Redis (if used) answer, else 503 naming what does not."""
    state = request.app.state
    checks: dict[str, Any] = {}
    engine = getattr(state.store, "engine", None)
    if engine is None:
        checks["database"] = "memory"
    else:
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            checks["database"] = "ok"
        except Exception as e:
            checks["database"] = f"unavailable: {type(e).__name__}"
    if not state.settings.redis_url:
        checks["redis"] = "not used"
    else:
        try:
            await state.broker.ping()
            checks["redis"] = "ok"
        except Exception as e:
            checks["redis"] = f"unavailable: {type(e).__name__}"
    ready = all(v in ("ok", "memory", "not used") for v in checks.values())
    return JSONResponse({"ready": ready, **checks}, status_code=200 if ready else 503)


def routes() -> list[BaseRoute]:
    """``GET /readyz``."""
    return [Route("/readyz", readyz, methods=["GET"])]
