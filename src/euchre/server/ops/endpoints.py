"""What operators and load balancers ask: ``/healthz``, ``/readyz`` and ``/metrics``.

``/healthz`` answers while the process is up. ``/readyz`` answers 200 only when the
database answers, the latest table save went through, the compiled solver is loaded and the
extensions' own checks pass (the site's: Redis, the relays); otherwise 503 with each
check's outcome. ``/metrics`` is Prometheus' text format, served only to a scraper that
shows the operator's token (``Settings.metrics_token``, ``$EUCHRE_METRICS_TOKEN``): without a
token configured it is not served at all (404), so nothing about the site's load is public.
"""

from __future__ import annotations

import importlib
import logging
import secrets
from typing import Any, Protocol, cast

import msgspec
from starlette.requests import Request
from starlette.responses import Response

from ...storage.base import GameStore
from ..core.encoder import json_answer
from ..core.errors import ApiError
from ..core.registry import Endpoint
from ..core.site import CoreSite, kept_site
from ..wire.tables import Health, Ready
from .metrics import CONTENT_TYPE, Metrics

log = logging.getLogger(__name__)

SOLVER_MODULE = "euchre.bots._solver"
"""The compiled open-hand solver the hard player and hints need."""


class OpsSite(CoreSite, Protocol):
    """What the operations endpoints read of the site."""

    metrics: Metrics
    """The process's Prometheus metrics."""
    metrics_token: str | None
    """The token a scraper shows to read ``/metrics`` (``Settings.metrics_token``); None:
    not served."""


def ops_site(conn: Any) -> OpsSite:
    """The site of ``conn`` (a request, a socket or the app), as operations read it."""
    return cast(OpsSite, kept_site(conn))


async def get_healthz(request: Request) -> Response:
    """``GET /healthz``: the process is up."""
    return json_answer(Health(ok=True, tables=len(ops_site(request).manager)))


PASSING = frozenset({"ok", "memory", "not used", "held"})
"""Check outcomes that mean ready."""


async def readiness(store: GameStore, metrics: Metrics) -> dict[str, str]:
    """Each core check's outcome: ``ok`` (``memory`` for a store in memory) or why not."""
    checks: dict[str, str] = {}
    if getattr(store, "engine", None) is None:
        checks["database"] = "memory"
    else:
        try:
            await store.ping()
            checks["database"] = "ok"
        except Exception as e:  # the reason goes to the operator; log the details
            log.warning("readiness: the database did not answer: %s", e)
            checks["database"] = f"unavailable: {type(e).__name__}"
    checks["saver"] = "the latest table save failed" if metrics.last_save_failed else "ok"
    try:
        importlib.import_module(SOLVER_MODULE)
        checks["solver"] = "ok"
    except ImportError:
        checks["solver"] = "the compiled solver is not built (scripts/setup builds it)"
    return checks


async def get_readyz(request: Request) -> Response:
    """``GET /readyz``: 200 when every check passes, else 503 with the reasons."""
    site = ops_site(request)
    checks = await readiness(site.store, site.metrics)
    for check in site.registry.ready_checks():
        checks.update(await check(site))
    ready = all(v in PASSING for v in checks.values())
    answer = msgspec.convert({"ready": ready, **checks}, Ready)
    return json_answer(answer, 200 if ready else 503)


def metrics_allowed(token: str | None, authorization: str | None) -> bool:
    """Whether a request with the ``Authorization`` header ``authorization`` may read the
    metrics: only ``Bearer <token>`` with the operator's token, and never without one."""
    if not token or not authorization:
        return False
    scheme, _, given = authorization.partition(" ")
    return scheme.lower() == "bearer" and secrets.compare_digest(
        given.strip().encode(), token.encode())


async def get_metrics(request: Request) -> Response:
    """``GET /metrics``: Prometheus' text format, for the operator's token only. No token
    configured: 404 as for any unknown path; a missing or wrong one: 401."""
    token = ops_site(request).metrics_token
    if not token:
        raise ApiError("not_found", "not found")
    if not metrics_allowed(token, request.headers.get("authorization")):
        return json_answer({"error": "the metrics need the operator's token: "
                                     "Authorization: Bearer <token>", "code": "unauthorized"},
                           401, headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
    metrics = ops_site(request).metrics
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
