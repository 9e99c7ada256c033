"""The frame a table's snapshots are drawn from: the table at one version, read off its parts.

A :class:`~euchre.table.actor.events.Frame` is made each time the table's events are held (once a
move): the game, the last hand's summary, the shuffle's commitments, who is connected, away
or replaced, how many watch, the running clock and whether the table was closed.
:class:`Frames` reads them off the table's parts. The two commitments are SHA-256 digests
that change only at a deal, so each is worked out once per seed, not once a frame.
"""

from __future__ import annotations

from ...game import GameState
from ...shuffle import commitment
from .agenda import Agenda
from .audience import Audience
from .dealing import Shuffle
from .events import UNTIMED, Frame
from .kind import TurnPolicy
from .rematch import Offer
from .wire import HandSummary, NextCommitment


class Frames:
    """Makes a table's frames from its audience (connections, away and replaced seats),
    its agenda (the running clock) and what the handlers decided."""

    def __init__(self, audience: Audience, agenda: Agenda, replacement_level: str) -> None:
        """Frames of the table whose connections are ``audience`` and whose clock is
        ``agenda``'s; a seat taken over is played at ``replacement_level``."""
        self.audience = audience
        """Who is connected, watching, away and replaced."""
        self.agenda = agenda
        """The person's clock running now, if any."""
        self.replacement_level = replacement_level
        """The level of the computer that takes over a seat."""
        self._seed = ""  # the current hand's seed whose commitment is kept
        self._commitment = ""
        self._next: NextCommitment | None = None  # the next hand's, as last made
        self._next_seed = ""  # the seed self._next commits to

    def make(self, version: int, game: GameState, shuffle: Shuffle,
             summary: HandSummary | None, closed: str | None,
             rematch: Offer | None = None, policy: TurnPolicy = UNTIMED,
             settings: int = 0) -> Frame:
        """The table at ``version``: ``game`` dealt from ``shuffle``, the last finished
        hand's ``summary``, why it was ``closed`` (None: open), the ``rematch`` offered,
        the move clock's ``policy`` and how often the ``settings`` changed."""
        current = game.current
        seeds = shuffle.seeds
        seed = seeds[-1] if seeds else ""
        people = self.audience.people
        replaced = people.replaced
        away = people.away
        return Frame(
            version=version,
            game=game,
            summary=summary,
            commitment=(self._current_commitment(seed)
                        if seed and current is not None and not current.is_over else None),
            connected=self.audience.connected(),
            spectators=self.audience.watching(),
            replaced=tuple(sorted(replaced.items())) if replaced else (),
            away=tuple(sorted(away.items())) if away else (),
            replacement_level=self.replacement_level,
            deadline=self.agenda.deadline,
            closed=closed,
            next_commitment=(None if game.is_over or closed is not None
                             else self._next_commitment(
                                 len(game.hands) + (current is not None) + 1, shuffle)),
            rematch=rematch,
            policy=policy,
            settings=settings,
        )

    def _current_commitment(self, seed: str) -> str:
        """The commitment of the current hand's ``seed`` (worked out once per seed)."""
        if seed != self._seed:
            self._seed, self._commitment = seed, commitment(seed)
        return self._commitment

    def _next_commitment(self, hand_number: int, shuffle: Shuffle) -> NextCommitment:
        """Hand ``hand_number``'s published commitment (the shuffle's next seed): the one
        last made while neither changed."""
        last = self._next
        if last is None or last.hand_number != hand_number \
                or self._next_seed != shuffle.next_seed:
            self._next_seed = shuffle.next_seed
            last = self._next = NextCommitment(hand_number=hand_number,
                                               commitment=shuffle.next_commitment())
        return last
