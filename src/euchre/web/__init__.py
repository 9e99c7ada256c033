"""The browser client: static files only (HTML, CSS, ES modules). It holds no rules.

The server mounts :data:`STATIC_DIR` and serves ``index.html`` for the pages of the client.
"""

from __future__ import annotations

from pathlib import Path

STATIC_DIR: Path = Path(__file__).parent / "static"
"""The folder of static files the server serves at ``/``."""

INDEX_HTML: Path = STATIC_DIR / "index.html"
"""The single page every client route loads."""
