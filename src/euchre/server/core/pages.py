"""The web client's page and folder."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response

from .site import core_site
from .sources import set_browser_cookie


def static_dir(configured: Path | None) -> Path:
    """The web client's folder: ``configured``, else the ``euchre.web`` package's ``static``."""
    if configured is not None:
        return configured
    try:
        from ...web import STATIC_DIR

        return STATIC_DIR
    except ImportError:  # pragma: no cover - the web package is part of the project
        return Path(__file__).resolve().parent.parent / "web" / "static"


async def client_page(request: Request) -> Response:
    """The web client's page, for every path the client routes itself (``/``, ``/table/...``)."""
    page = core_site(request).static_folder / "index.html"
    if not page.is_file():
        return PlainTextResponse("the web client is not installed", status_code=503)
    response = FileResponse(page, headers={"Cache-Control": "no-cache"})
    set_browser_cookie(request, response)  # the browser's id, for rated tables
    return response


_NOT_PAGES = ("/api/", "/ws/", "/static/", "/openapi.json", "/asyncapi.json", "/metrics",
              "/healthz", "/readyz")
"""Paths whose 404 stays JSON: the API, sockets, files and operations endpoints."""


def _page_404(request: Request) -> Response | None:
    """``404.html`` with status 404 (None if the file is missing)."""
    page = core_site(request).static_folder / "404.html"
    if not page.is_file():
        return None
    return FileResponse(page, status_code=404, headers={"Cache-Control": "no-cache"})


def not_found_page(request: Request) -> Response | None:
    """A 404 page in HTML for a browser asking for a page that does not exist (a GET that
    accepts HTML, outside the API and the files); None when the JSON refusal is the
    answer."""
    path = request.url.path
    if request.method not in ("GET", "HEAD") or path.startswith(_NOT_PAGES):
        return None
    if "text/html" not in request.headers.get("accept", ""):
        return None
    return _page_404(request)
