"""The whole site: the app with every extension (what ``euchre serve`` runs).

``create_app(settings, extensions)`` builds an app from extension objects; without
``extensions`` it has the site's own: practice, accounts and coins, online tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.applications import Starlette

from .accounts.accounts_api import AccountsOptions, accounts_extension
from .accounts.bots_api import bots_extension
from .accounts.ratings_api import ratings_extension
from .app import Given, Settings, build_app
from .core.registry import Extension
from .nights.nights_api import nights_extension
from .online.my_games import my_games_extension
from .online.online_api import online_extension
from .online.stakes import stakes_extension
from .site import site_extension
from .tables.practice_api import practice_extension
from .tournaments.tournaments_api import tournaments_extension


def site_extensions(accounts: AccountsOptions | None = None) -> list[Extension]:
    """The site's extensions, in the order they are started (each after those whose parts
    it needs, :attr:`Extension.needs`): the site's checks, practice tables, accounts and
    coin tables (``accounts``: its options, default from the environment), outside bots'
    tokens (after accounts: its database), online tables, their coin stakes and leaving a
    started game (after both), ratings and statistics (after accounts and online: it uses
    both), the person's games in progress (after them all), and euchre nights in a room
    (after accounts: the host and the database), and online tournaments (after accounts and
    online tables: their rounds are online tables)."""
    return [site_extension(), practice_extension(), accounts_extension(accounts),
            bots_extension(), online_extension(), stakes_extension(), ratings_extension(),
            my_games_extension(), nights_extension(), tournaments_extension()]


def create_app(settings: Settings | None = None,
               extensions: Sequence[Extension] | None = None, *,
               accounts: AccountsOptions | None = None, given: Given | None = None
               ) -> Starlette:
    """The app with ``extensions`` (default: the whole site's, :func:`site_extensions`,
    with ``accounts`` options), its site using the ``given`` parts."""
    chosen = site_extensions(accounts) if extensions is None else extensions
    return build_app(settings, chosen, given)
