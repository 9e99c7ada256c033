"""The web client's page and folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response

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


async def client_page(request: Request) -> Response:
    """The web client's page, for every path the client routes itself (``/``, ``/table/...``)."""
    page = site_of(request)[ClientFiles].folder / "index.html"
    if not page.is_file():
        return PlainTextResponse("the web client is not installed", status_code=503)
    response = FileResponse(page, headers={"Cache-Control": "no-cache"})
    set_browser_cookie(request, response)  # the browser's id, for rated tables
    return response
