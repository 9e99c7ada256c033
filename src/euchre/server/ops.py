"""What operators and load balancers ask: ``/healthz``, ``/readyz`` and ``/metrics``.

``/healthz`` answers while the process is up. ``/readyz`` answers 200 only when the
database answers, the latest table save went through and the compiled solver is loaded;
otherwise 503 with the failing checks' reasons. ``/metrics`` is Prometheus' text format.
"""

from __future__ import annotations

import importlib
import logging

from starlette.requests import Request
from starlette.responses import Response

from ..storage.base import GameStore
from .encoder import json_answer
from .metrics import CONTENT_TYPE, Metrics
from .registry import Endpoint
from .wire.tables import Health, Ready

log = logging.getLogger(__name__)

SOLVER_MODULE = "euchre.bots._solver"
"""The compiled open-hand solver the hard player and hints need."""


async def get_healthz(request: Request) -> Response:
    """``GET /healthz``: the process is up."""
    return json_answer(Health(ok=True, tables=len(request.app.state.manager)))


async def readiness(store: GameStore, metrics: Metrics) -> dict[str, str]:
    """Each check's outcome: ``ok`` or why it failed."""
    checks: dict[str, str] = {}
    try:
        await store.ping()
        checks["database"] = "ok"
    except Exception as e:  # the reason goes to the operator; log the details
        log.warning("readiness: the database did not answer: %s", e)
        checks["database"] = f"the database did not answer ({type(e).__name__})"
    checks["saver"] = "the latest table save failed" if metrics.last_save_failed else "ok"
    try:
        importlib.import_module(SOLVER_MODULE)
        checks["solver"] = "ok"
    except ImportError:
        checks["solver"] = "the compiled solver is not built (scripts/setup builds it)"
    return checks


async def get_readyz(request: Request) -> Response:
    """``GET /readyz``: 200 when every check passes, else 503 with the reasons."""
    state = request.app.state
    checks = await readiness(state.store, state.metrics)
    ready = all(v == "ok" for v in checks.values())
    return json_answer(Ready(ready=ready, checks=checks), 200 if ready else 503)


async def get_metrics(request: Request) -> Response:
    """``GET /metrics``: Prometheus' text format."""
    metrics: Metrics = request.app.state.metrics
    return Response(metrics.render(), media_type=CONTENT_TYPE)


def endpoints() -> list[Endpoint]:
    """The operational endpoints."""
    return [
        Endpoint("GET", "/healthz", get_healthz, "The process is up", answers={200: Health}),
        Endpoint("GET", "/readyz", get_readyz, "Ready to take players",
                 "200 when the database answers, the latest save went through and the "
                 "compiled solver is loaded; else 503 with each failing check's reason.",
                 answers={200: Ready, 503: Ready}),
        Endpoint("GET", "/metrics", get_metrics, "Prometheus metrics", documented=False),
    ]
