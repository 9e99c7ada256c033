"""Reading the other seats' card play by a model of how they play: the conventions.

A sampled deal says what each other seat held when it played each of its cards. For
every such play that was a real choice, the conventions player (``medium``'s
:func:`~euchre.bots.medium.play_card`, cheap and close to what the search players do at
near-ties) is asked what it would have played with that hand at that moment; a deal in
which the seat's card is not the conventions' card explains the play less well, and its
weight is multiplied by :data:`MISS`. A seat that led trump, played low behind a partner
who was winning, or threw off a suit thus says something about the cards it kept.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .. import actions as A
from ..cards import Card, cards_of
from ..lookup import EFFECTIVE_SUIT, FOLLOW_MASK
from ..view import HandView
from .medium import play_card
from .sampling import Hands

MISS = 0.5
"""The weight of a deal for each play of another seat that the conventions, given that
seat's sampled hand, would not have made."""


@dataclass(frozen=True)
class PastPlay:
    """One card another seat played by choice, with what it could see then."""

    seat: int
    """The seat that played."""
    card: Card
    """The card it played."""
    trick_index: int
    """Completed tricks before this play."""
    leader: int
    """Who led the trick."""
    before: tuple[Card, ...]
    """The cards already in the trick."""
    later: int
    """Cards the seat played after this one (it held them then), with this one."""


def past_plays(view: HandView) -> list[PastPlay]:
    """Every card played by a seat other than the viewer's, in order."""
    if view.trump < 0:
        return []
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    seq: list[tuple[int, Card, int, int, tuple[Card, ...]]] = []
    for t, (leader, cards) in enumerate(tricks):
        seat = leader
        for p, card in enumerate(cards):
            while seat in view.sitting_out:
                seat = (seat + 1) % 4
            seq.append((seat, card, t, leader, cards[:p]))
            seat = (seat + 1) % 4
    out: list[PastPlay] = []
    for i, (seat, card, t, leader, before) in enumerate(seq):
        if seat == view.seat:
            continue
        later = 1 << card
        for s2, c2, *_ in seq[i + 1 :]:
            if s2 == seat:
                later |= 1 << c2
        out.append(PastPlay(seat, card, t, leader, before, later))
    return out



class PlayReader:
    """Weights deals by how well the conventions explain the other seats' plays.

    One reader serves one decision; it remembers the conventions' card per play and
    held hand, as many sampled deals give a seat the same cards.
    """

    def __init__(self, view: HandView, miss: float = MISS) -> None:
        """Read the plays of ``view`` (nothing to read before the play)."""
        self.view = view
        self.miss = miss
        self.plays = past_plays(view)
        self._memo: dict[tuple[int, int], Card | None] = {}

    def _conventional(self, index: int, held: int) -> Card | None:
        """The conventions' card for play ``index`` with ``held``; None if forced."""
        key = (index, held)
        if key in self._memo:
            return self._memo[key]
        v = self.view
        pp = self.plays[index]
        trump = v.trump
        legal = held
        if pp.before:
            follow = held & FOLLOW_MASK[trump][EFFECTIVE_SUIT[trump][pp.before[0]]]
            if follow:
                legal = follow
        choice: Card | None = None
        if legal & (legal - 1):
            done = v.tricks[: pp.trick_index]
            won = [0, 0]
            for _, _, winner in done:
                won[winner % 2] += 1
            then = dataclasses.replace(
                v,
                seat=pp.seat,
                to_act=pp.seat,
                hand=tuple(cards_of(held)),
                discard=None,
                farmer_gave=(),
                leader=pp.leader,
                trick=pp.before,
                tricks=done,
                tricks_won=(won[0], won[1]),
                legal=tuple(A.PLAYS[c] for c in cards_of(legal)),
            )
            choice = play_card(then)
        self._memo[key] = choice
        return choice

    def weight(self, hands: Hands) -> float:
        """The product over the plays of 1, or :attr:`miss` where the conventions differ."""
        w = 1.0
        for i, pp in enumerate(self.plays):
            choice = self._conventional(i, hands[pp.seat] | pp.later)
            if choice is not None and choice != pp.card:
                w *= self.miss
        return w


__all__ = ["MISS", "PastPlay", "PlayReader", "past_plays"]
