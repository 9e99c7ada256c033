"""The web platform: an ASGI app (Starlette) around the table layer.

:func:`create_app` builds the whole site (or the extensions given);
:func:`~euchre.server.app.build_app` builds an app from exactly the extensions given.

The names are loaded when first used (:func:`__getattr__`), so a light part of the server
(a start-up check, a setting's default) can be imported without building the whole site:
``euchre serve`` refuses a bad option before it loads SQLAlchemy and every page.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import Given, Settings, build_app, create_app, site_extensions
    from .core.registry import Extension

_HOMES = {"Given": ".app", "Settings": ".app", "build_app": ".app", "create_app": ".app",
          "site_extensions": ".app", "Extension": ".core.registry"}
"""Each public name and the module it is loaded from."""

__all__ = ["Extension", "Given", "Settings", "build_app", "create_app", "site_extensions"]


def __getattr__(name: str) -> Any:
    """A public name of the server, loaded from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value
