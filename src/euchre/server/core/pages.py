"""The web client's page and folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response

from .site import site_of
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


@dataclass(frozen=True)
class ClientFiles:
    """Where the web client's files are (a part of the site)."""

    folder: Path
    """The folder holding ``index.html``, the scripts and the styles."""


_GAME_PAGES = ("/table/", "/replay/")
"""Pages of one table or game: a missing one gets the 404 page, saying it does not exist
(never the table page's "not yours", which is for a table that exists)."""


async def _known(request: Request, game_id: str) -> bool:
    """Whether a table or game ``game_id`` runs here or is stored."""
    site = site_of(request)
    return site.manager.peek(game_id) is not None or await site.store.get(game_id) is not None


async def client_page(request: Request) -> Response:
    """The web client's page, for every path the client routes itself (``/``, ``/table/...``);
    the 404 page for a table or game that does not exist."""
    page = site_of(request)[ClientFiles].folder / "index.html"
    if not page.is_file():
        return PlainTextResponse("the web client is not installed", status_code=503)
    game_id = request.path_params.get("table_id") or request.path_params.get("game_id")
    if game_id is not None and request.url.path.startswith(_GAME_PAGES) \
            and not await _known(request, str(game_id)):
        missing = _page_404(request, "This table does not exist",
                            "There is no table or game at this address: the link may be "
                            "mistyped, or the table was never opened.")
        if missing is not None:
            return missing
    response = FileResponse(page, headers={"Cache-Control": "no-cache"})
    set_browser_cookie(request, response)  # the browser's id, for rated tables
    return response


_NOT_PAGES = ("/api/", "/ws/", "/static/", "/openapi.json", "/asyncapi.json", "/metrics",
              "/healthz", "/readyz")
"""Paths whose 404 stays JSON: the API, sockets, files and operations endpoints."""


_HEADING = "<h1>Page not found</h1>"
_TEXT = "There is no page at this address."


def _page_404(request: Request, heading: str | None = None, text: str | None = None
              ) -> Response | None:
    """``404.html`` with status 404, its heading and first sentence replaced when given
    (plain words of ours, never from the request); None if the file is missing."""
    page = site_of(request)[ClientFiles].folder / "404.html"
    if not page.is_file():
        return None
    html = page.read_text(encoding="utf-8")
    if heading is not None:
        html = html.replace(_HEADING, f"<h1>{heading}</h1>")
    if text is not None:
        html = html.replace(_TEXT, text)
    return HTMLResponse(html, status_code=404, headers={"Cache-Control": "no-cache"})


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
