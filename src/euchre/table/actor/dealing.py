"""A table's shuffle: each hand's seed committed before it is dealt, people's seeds mixed
in, and every seed revealed in the record once its hand is over.

The table draws the next hand's seed and publishes its commitment before anyone sends a
seed for that hand; each person may send one seed (:meth:`Shuffle.take`), and the deck is
dealt from the table's seed mixed with theirs (:func:`~euchre.shuffle.mixed_seed`), so
neither the table nor any person can choose the deal.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from ...game import GameState
from ...shuffle import commitment, deck_from_seed, is_client_seed, mixed_seed
from .errors import TableError


class Shuffle:
    """The seeds of a table's hands: those dealt, and the next one's, with the people's
    seeds sent for it so far."""

    def __init__(
        self,
        seed_source: Callable[[], str],
        *,
        seeds: Sequence[str] = (),
        client_seeds: Sequence[dict[int, str]] = (),
        state: dict[str, Any] | None = None,
    ) -> None:
        """The shuffle of hands dealt with ``seeds`` (and people's ``client_seeds``), and
        the next hand's as saved (:meth:`to_json`; None: a seed drawn now from
        ``seed_source``, which draws every later one too)."""
        self.seed_source = seed_source
        """Draws a fresh secret seed for the next hand."""
        self.seeds: list[str] = list(seeds)
        """The table's seed of each hand dealt (the current one is secret until it is over)."""
        self.client_seeds: list[dict[int, str]] = [dict(c) for c in client_seeds]
        """The people's seeds mixed into each hand dealt, by seat."""
        state = state or {}
        self.next_seed: str = state.get("next_seed") or seed_source()
        """The table's seed of the next hand (its commitment is published)."""
        self.pending: dict[int, str] = {int(s): str(c) for s, c in
                                        (state.get("pending") or {}).items()}
        """The people's seeds sent so far for the next hand, by seat."""
        self.changes = 0
        """How many times the shuffle changed (a seed taken, a hand dealt): a copy or its
        saved form made at the same count is still the shuffle's."""
        self._json: dict[str, Any] | None = None  # to_json() at self._json_at changes
        self._json_at = -1

    def copy(self) -> Shuffle:
        """An independent copy (what a failed save goes back to)."""
        other = Shuffle(self.seed_source, seeds=self.seeds, client_seeds=self.client_seeds,
                        state={"next_seed": self.next_seed})
        other.pending = dict(self.pending)
        return other

    def to_json(self) -> dict[str, Any]:
        """The next hand's seed and the people's seeds sent for it, to save with the table
        (a restart deals the hand whose commitment was published). The same dict until the
        shuffle changes (it is saved with every move): not to be changed by the caller."""
        if self._json_at != self.changes or self._json is None:
            self._json = {"next_seed": self.next_seed,
                          "pending": {str(s): c for s, c in self.pending.items()}}
            self._json_at = self.changes
        return self._json

    def seed(self, index: int) -> str | None:
        """The table's seed of hand ``index`` (from 0), if it was dealt here."""
        return (self.seeds[index] or None) if index < len(self.seeds) else None

    def clients(self, index: int) -> dict[int, str]:
        """The people's seeds mixed into hand ``index`` (from 0)."""
        return self.client_seeds[index] if index < len(self.client_seeds) else {}

    def next_commitment(self) -> str:
        """The published commitment of the next hand's seed."""
        return commitment(self.next_seed)

    def take(self, seat: int, hand_number: int, upcoming: int, seed: str) -> bool:
        """Take ``seat``'s ``seed`` for hand ``hand_number`` (the next hand is
        ``upcoming``); True if it was new, False if that same seed was already taken (a page
        reloaded). :class:`TableError` (nothing changes) for another hand, a seed that is
        not 16 to 128 lower-case hex digits, or a second, different seed."""
        if hand_number != upcoming:
            raise TableError(f"seeds are taken for hand {upcoming} only (its commitment is "
                             f"published), not hand {hand_number}")
        if not is_client_seed(seed):
            raise TableError("a shuffle seed is 16 to 128 lower-case hex digits")
        if self.pending.get(seat) == seed:
            return False
        if seat in self.pending:
            raise TableError(f"your seed for hand {hand_number} was already taken")
        self.pending[seat] = seed
        self.changes += 1
        return True

    def all_in(self, people: Collection[int]) -> bool:
        """Whether every seat in ``people`` has sent its seed for the next hand."""
        return all(seat in self.pending for seat in people)

    def deal(self, game: GameState, benny: bool) -> GameState:
        """Deal ``game``'s next hand from the committed seed mixed with the people's sent
        for it (both kept as the hand's, :attr:`seeds` and :attr:`client_seeds`), and draw
        the seed of the hand after; the game after the deal."""
        seed, clients = self.next_seed, self.pending
        new = game.deal(deck_from_seed(mixed_seed(seed, clients), benny))
        self.seeds.append(seed)
        self.client_seeds.append(clients)
        self.next_seed, self.pending = self.seed_source(), {}
        self.changes += 1
        return new
