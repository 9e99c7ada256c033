"""The ``medium`` computer player (being written: plays like ``easy`` for now)."""

from __future__ import annotations

from .simple import EasyBot


class MediumBot(EasyBot):
    """The conventions good players follow."""

    level = "medium"
