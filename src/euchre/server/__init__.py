"""The web server: HTTP API, table socket and pages. It parses messages and knows no rules."""

from __future__ import annotations

from .app import Settings, create_app

__all__ = ["Settings", "create_app"]
