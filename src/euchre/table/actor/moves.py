"""What a move makes: the events one applied action produces (the action, a finished trick,
the end of the hand, the end of the game) and the hand's public summary when it ends. Pure:
it reads the game before and after and the shuffle's seeds, and changes nothing."""

from __future__ import annotations

from ...actions import Action
from ...cards import card_text
from ...game import GameState
from .dealing import Shuffle
from .events import hand_summary
from .wire import ActionEvent, EventBody, GameOverEvent, HandOverEvent, HandSummary, TrickEvent


def move_events(old: GameState, new: GameState, seat: int, action: Action, shuffle: Shuffle,
                *, timed_out: bool = False) -> tuple[list[EventBody], HandSummary | None]:
    """The events ``seat``'s ``action`` made, taking the game from ``old`` to ``new`` (a hand
    under way in both), and the hand's summary if it ended with this move (else None).
    ``timed_out``: the computer moved for a person whose clock ran out."""
    before, hand = old.current, new.current
    assert before is not None and hand is not None
    events: list[EventBody] = [
        ActionEvent(seat=seat, action=str(action), timed_out=True if timed_out else None)
    ]
    if hand.tricks_won != before.tricks_won:  # a trick was completed (`tricks` is a copy)
        leader, cards, winner = hand.tricks[-1]
        events.append(TrickEvent(leader=leader, cards=[card_text(c) for c in cards],
                                 winner=winner))
    summary = None
    if hand.is_over and not before.is_over:
        number = len(new.all_hands())
        summary = hand_summary(hand, number, new.score, shuffle.seed(number - 1),
                               shuffle.clients(number - 1))
        events.append(HandOverEvent(points=list(hand.points), score=list(new.score),
                                    summary=summary))
    if new.is_over and not old.is_over:
        events.append(GameOverEvent(winner=new.winner, score=list(new.score)))
    return events, summary


def last_summary(game: GameState, shuffle: Shuffle) -> HandSummary | None:
    """The public summary of ``game``'s last finished hand (None: no hand finished yet), as
    a table resumed from storage shows it."""
    done = [h for h in game.all_hands() if h.is_over]
    if not done:
        return None
    number = len(done)
    score = (sum(h.points[0] for h in done), sum(h.points[1] for h in done))
    return hand_summary(done[-1], number, score, shuffle.seed(number - 1),
                        shuffle.clients(number - 1))
