"""What one seat did in one game, read from the replayed game, and the rates shown.

Counted for the seat: a finished game (and whether its side won), hands played (every
hand that ended, except a hand thrown in when all passed), the points its side scored
in them, trump made (this seat was the maker), hands it made and was euchred on, hands
it went alone, and marches (as maker, its side took all five tricks). A hand ended by
a renege counts its points but not the maker's figures.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from ..game import GameState

COUNT_NAMES = ("games", "wins", "hands", "points", "made_trump", "made", "euchred",
               "alone", "marches")
"""The counts, in display order."""


@dataclass
class Counts:
    """Sums of a seat's figures over one game or many."""

    games: int = 0
    """Finished games."""
    wins: int = 0
    """Games its side won."""
    hands: int = 0
    """Hands played (thrown-in hands not counted)."""
    points: int = 0
    """Points its side scored in those hands."""
    made_trump: int = 0
    """Hands in which this seat was the maker (ordered up or named trump)."""
    made: int = 0
    """Of those, hands its side took three tricks or more."""
    euchred: int = 0
    """Of those, hands its side took fewer than three (euchred)."""
    alone: int = 0
    """Hands it went alone."""
    marches: int = 0
    """Hands it made in which its side took all five tricks."""

    def add(self, other: Counts) -> None:
        """Add ``other``'s counts to these."""
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def rates(self) -> dict[str, float | None]:
        """Points per hand, and how often it makes trump (per hand), is euchred (per
        hand it made trump), goes alone and marches (per hand); None with nothing to
        divide by."""

        def per(n: int, d: int) -> float | None:
            return round(n / d, 3) if d else None

        return {
            "win_rate": per(self.wins, self.games),
            "points_per_hand": per(self.points, self.hands),
            "make_trump_rate": per(self.made_trump, self.hands),
            "euchred_rate": per(self.euchred, self.made_trump),
            "alone_rate": per(self.alone, self.hands),
            "march_rate": per(self.marches, self.hands),
        }

    def to_json(self) -> dict[str, Any]:
        """The counts and their rates."""
        return {**asdict(self), **self.rates()}


def game_counts(game: GameState, seat: int) -> Counts:
    """``seat``'s counts in ``game`` (a game still running counts its ended hands only)."""
    out = Counts()
    side = seat % 2
    for hand in game.all_hands():
        if not hand.is_over or hand.thrown_in:
            continue
        out.hands += 1
        out.points += hand.points[side]
        if hand.reneged is not None or hand.maker != seat:
            continue
        tricks = hand.tricks_won[side]
        out.made_trump += 1
        out.made += int(tricks >= 3)
        out.euchred += int(tricks < 3)
        out.alone += int(hand.alone)
        out.marches += int(tricks == 5)
    if game.is_over and game.winner is not None:
        out.games = 1
        out.wins = int(game.winner == side)
    return out
