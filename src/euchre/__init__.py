"""euchre: a Euchre rules engine, computer players, and a place to play.

The engine (this package's top level) uses the standard library only. Start with
:func:`deal` for one hand from a fixed deal, or :class:`GameState` for a whole game.
"""

from .actions import Action, ActionError, parse_action
from .cards import (
    JOKER,
    CardError,
    card_name,
    card_text,
    effective_suit,
    parse_card,
    parse_suit,
    suit_name,
    suit_text,
    trick_rank,
)
from .errors import DealError, IllegalActionError, RecordError
from .game import GameState
from .hand import SEAT_NAMES, Deal, HandState, deal
from .rules import PRESETS, Rules, RulesError
from .view import HandView

__all__ = [
    "JOKER",
    "PRESETS",
    "SEAT_NAMES",
    "Action",
    "ActionError",
    "CardError",
    "Deal",
    "DealError",
    "GameState",
    "HandState",
    "HandView",
    "IllegalActionError",
    "RecordError",
    "Rules",
    "RulesError",
    "card_name",
    "card_text",
    "deal",
    "effective_suit",
    "parse_action",
    "parse_card",
    "parse_suit",
    "suit_name",
    "suit_text",
    "trick_rank",
]

__version__ = "0.1.0"
