"""A fixed game to 5 whose statistics are known: seat 0 marches alone, then seat 1 is euchred."""

from __future__ import annotations

import time

from euchre.cards import parse_card
from euchre.game import GameState
from euchre.hand import Deal
from euchre.record import GameRecord
from euchre.rules import Rules
from euchre.storage.base import FINISHED, StoredGame
from euchre.table.actor.seats import BOT, HUMAN, Seat, TableConfig


def _deal(hands: str, kitty: str) -> Deal:
    return Deal(tuple(tuple(parse_card(c) for c in h.split()) for h in hands.split("|")),
                tuple(parse_card(c) for c in kitty.split()), "3-2")


HAND_1 = _deal("JH JD AH KH QH | 9S TS QS KS AS | 9C TC QC KC AC | TD QD KD AD JC",
               "9H TH 9D JS")
"""Dealer East (3): South holds the top five hearts and orders the 9 of hearts up alone."""

HAND_2 = _deal("JS JC AS KS AH | 9H TH QH KH 9C | TS QS 9D TD QD | JH JD KD AD TC",
               "9S QC KC AC")
"""Dealer South: West orders up the 9 of spades with no trump at all; South picks it up
(discarding the ace of hearts) and holds every trump: West is euchred."""

EXPECTED = [
    {"games": 1, "wins": 1, "hands": 2, "points": 6, "made_trump": 1, "made": 1,
     "euchred": 0, "alone": 1, "marches": 1},
    {"games": 1, "wins": 0, "hands": 2, "points": 0, "made_trump": 1, "made": 0,
     "euchred": 1, "alone": 0, "marches": 0},
    {"games": 1, "wins": 1, "hands": 2, "points": 6, "made_trump": 0, "made": 0,
     "euchred": 0, "alone": 0, "marches": 0},
    {"games": 1, "wins": 0, "hands": 2, "points": 0, "made_trump": 0, "made": 0,
     "euchred": 0, "alone": 0, "marches": 0},
]
"""Each seat's counts in :func:`fixed_game`, worked out by hand from the deals."""


def _bid_then_play(game: GameState, bids: list[str]) -> GameState:
    """The given bidding and discards, then each seat's first legal card to the end."""
    for action in bids:
        game = game.apply(action)
    while game.current is not None and not game.current.is_over:
        game = game.apply(game.legal_actions()[0])
    return game


def fixed_game() -> GameState:
    """The finished game: 4-0 after the lone march, 6-0 after the euchre."""
    game = GameState(Rules.preset("classic", game_to=5), first_dealer=3)
    game = _bid_then_play(game.deal(HAND_1), ["order alone"])
    game = _bid_then_play(game.deal(HAND_2), ["order", "discard AH"])
    return game


def stored_game(game_id: str, kind: str, seats: list[tuple[str, int | None]],
                finished: bool = True, private: bool = False, at: float = 0.0) -> StoredGame:
    """A stored game (the fixed game: seats 0 & 2 win 6 to 0) with these seats (a name and
    an account id; None: a computer)."""
    game = fixed_game()
    table = tuple(Seat(HUMAN, n, account=n, account_id=a) if a is not None
                  else Seat(BOT, n, "easy", 1) for n, a in seats)
    config = TableConfig(game_id, kind, game.rules, table,  # type: ignore[arg-type]
                         extra={"private": True} if private else {})
    stamp = at or time.time()
    return StoredGame(game_id, kind, FINISHED if finished else "playing", 1,
                      {"config": config.to_json()}, GameRecord.from_game(game).to_json(),
                      stamp, stamp)
