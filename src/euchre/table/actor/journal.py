"""Which lines of a table's record are stored, and the lines added since.

A table saves after every move; :class:`RecordJournal` hands it only the record's lines
added since its last save (:class:`~euchre.storage.journal.RecordTail`), so a move's save
costs the same late in a game as early. The lines are worked out from the game itself
(the state is the truth; the journal only says how much of it is stored), so undoing
changes that could not be saved needs nothing from the journal but to forget where it was:
the next save then writes the record whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...game import GameState
from ...hand import HandState
from ...record import action_line, opening_lines, result_line
from ...storage.journal import RecordTail


@dataclass(slots=True)
class Mark:
    """How much of a game's record is stored; read-only by convention (not frozen: one is
    made for every save, and a plain ``__init__`` is several times cheaper)."""

    hands: int = 0
    """Hands whose opening lines (dealer, cards, seeds) are stored."""
    actions: int = 0
    """Actions of the last of those hands stored."""
    result: bool = False
    """Whether that hand's result is stored."""
    final: bool = False
    """Whether the game's end is stored."""
    lines: int = 0
    """Lines stored after the record's base."""
    node: HandState | None = field(default=None, compare=False, repr=False)
    """The last of those hands as stored (None: not known), so the next save walks back
    only the actions taken since."""


def mark_of(game: GameState) -> Mark:
    """Where a record written whole now ends (no lines after its base)."""
    hands = game.all_hands()
    last = hands[-1] if hands else None
    return Mark(len(hands), len(last.history()) if last is not None else 0,
                last is not None and last.is_over, game.is_over, 0, last)


def lines_since(mark: Mark, game: GameState, seeds: list[str],
                client_seeds: list[dict[int, str]]) -> tuple[RecordTail, Mark]:
    """The record's lines added to ``game`` since ``mark`` (each hand's seed and players'
    seeds by index), and the mark once they are stored."""
    hands = game.all_hands()
    out: list[str] = []
    actions, result = mark.actions, mark.result
    if mark.hands:
        hand = hands[mark.hands - 1]
        new = hand.actions_since(mark.node) if mark.node is not None else None
        if new is None:
            new = hand.history()[actions:]
        for s, a in new:
            out.append(action_line(s, a))
        actions += len(new)
        if hand.is_over and not result:
            out.append(result_line(hand.points))
            result = True
    for i in range(mark.hands, len(hands)):
        hand = hands[i]
        seed = (seeds[i] or None) if i < len(seeds) else None
        clients = client_seeds[i] if i < len(client_seeds) else {}
        out += opening_lines(i + 1, hand.dealer, hand.deal, seed, clients)
        history = hand.history()
        out += (action_line(s, a) for s, a in history)
        actions, result = len(history), hand.is_over
        if result:
            out.append(result_line(hand.points))
    final = mark.final
    if not final and game.is_over:
        out.append(f"end {game.score[0]} {game.score[1]}")
        final = True
    end = mark.lines + len(out)
    return (RecordTail(mark.lines, tuple(out)),
            Mark(len(hands), actions, result, final, end, hands[-1] if hands else None))


class RecordJournal:
    """How much of one table's record its store holds."""

    def __init__(self) -> None:
        """Nothing known stored: the first save writes the record whole."""
        self.mark: Mark | None = None
        """Where the stored record ends (None: unknown; the next save writes it whole)."""
        self.generation = 0
        """Counts :meth:`forget` calls, so a save that began before one cannot set a mark."""

    def forget(self) -> None:
        """The store's copy is not known (a save failed, or the record was handed out to
        be written whole): the next save writes the record whole."""
        self.mark = None
        self.generation += 1

    def saved(self, mark: Mark, generation: int) -> None:
        """A save that began at ``generation`` stored the record up to ``mark``."""
        if generation == self.generation:
            self.mark = mark
