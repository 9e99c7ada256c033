"""The whole site: the app with every extension (what ``euchre serve`` runs).

``create_app(settings, extensions)`` builds an app from extension objects; without
``extensions`` it has the site's own: practice, accounts and coins, online tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.applications import Starlette

from .accounts_api import accounts_extension
from .app import Settings, build_app
from .online_api import online_extension
from .practice_api import practice_extension
from .registry import Extension


def extensions() -> list[Extension]:
    """The site's extensions: practice tables, accounts and coin tables, online tables."""
    return [practice_extension(), accounts_extension(), online_extension()]


def create_app(settings: Settings | None = None,
               extensions_: Sequence[Extension] | None = None) -> Starlette:
    """The app with ``extensions_`` (default: the whole site's)."""
    return build_app(settings, extensions() if extensions_ is None else extensions_)
