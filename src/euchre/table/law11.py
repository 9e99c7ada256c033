"""Table law 11 for rejoining seats: "A player may look at the last completed trick until the
next card is led. Earlier tricks may not be examined."

Snapshots obey it through :meth:`euchre.view.HandView.to_table_json`. A rejoin that would
replay missed events is checked here: each replayed event carries the table as it was then,
so replaying is allowed only if every card on view in those old tables is still on view now;
otherwise the seat gets a snapshot instead.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card
from ..game import GameState
from .events import Event


def plays_on_view(game: GameState) -> tuple[int, frozenset[Card]]:
    """(hand number, the played cards a seat may look at): the trick in progress, or the
    last completed trick until the next card is led."""
    current = game.current
    if current is None:
        return 0, frozenset()
    cards = current.trick[1] or (current.tricks[-1][1] if current.tricks else ())
    return len(game.all_hands()), frozenset(cards)


def replay_keeps_law11(events: Iterable[Event], now: GameState) -> bool:
    """Whether replaying ``events`` (with the tables they carry) shows only plays still on
    view at ``now``; False means send a snapshot."""
    hand, on_view = plays_on_view(now)
    for event in events:
        if event.frame is None:
            continue
        then, cards = plays_on_view(event.frame.game)
        if cards and (then != hand or not cards <= on_view):
            return False
    return True
