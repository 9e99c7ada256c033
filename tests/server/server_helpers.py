"""Moved to ``tests/table_helpers.py`` (the helpers build table actors, and the table's tests
moved to ``tests/table``). Kept for a while so branches written before the move still
import them from here; new tests import ``table_helpers``."""

from __future__ import annotations

from table_helpers import (
    CARD_TEXTS,
    Recorder,
    cards_in,
    fixed_bots,
    make_manager,
    make_table,
    play_game,
    seeds,
    until_person,
    visible_cards,
)

__all__ = ["CARD_TEXTS", "Recorder", "cards_in", "fixed_bots", "make_manager", "make_table",
           "play_game", "seeds", "until_person", "visible_cards"]
