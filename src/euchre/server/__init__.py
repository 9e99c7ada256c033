"""The web platform: an ASGI app (Starlette) around the table layer.

:func:`create_app` builds the whole site (or the extensions given);
:func:`~euchre.server.app.build_app` builds an app from exactly the extensions given.
"""

from .app import Given, Settings, build_app, create_app, site_extensions
from .core.registry import Extension

__all__ = ["Extension", "Given", "Settings", "build_app", "create_app", "site_extensions"]
