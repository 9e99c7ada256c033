"""Postponed solving: the other seats' next cards chosen by the model of play, then the solver.

Open-hand solving lets every seat play as if it saw every card. After one of our
candidate cards, the seats still to play to the trick cannot see the hidden hands, so
here the next few of them (``plies``, never past the end of the trick) play the card the
learned model of play (:mod:`euchre.bots.action_model`) finds most likely for a seat
holding what the sampled deal gives it and seeing what it can see: the public history,
the trick so far (our card included) and its own cards. Only then does the open-hand
solver take over, from the position those cards leave. A seat's choice reads nothing
hidden from it: its own cards come from the sampled deal, everything else is public.

One :class:`Postponer` serves one card-play decision; the public part of each postponed
moment is read once, and the model's choice is remembered per moment and held hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card, cards_of
from ..lookup import EFFECTIVE_SUIT, FOLLOW_MASK, TRICK_RANK
from ..view import HandView
from . import knowledge as K
from . import solver
from .action_model import ActionModel, _play_features_all, _Public, _public, load_model
from .sampling import Hands


@dataclass(frozen=True)
class Line:
    """Where one deal stands after our card and the postponed cards of the others."""

    hands: tuple[int, ...]
    """What each seat still holds."""
    leader: int
    """The seat that led the trick in progress (or leads the next one)."""
    trick: tuple[Card, ...]
    """The trick in progress (empty when the postponed cards finished it)."""
    maker_tricks: int
    """Tricks the makers have taken, the finished trick included."""
    actor: int
    """The seat to play next (-1: the hand is over)."""
    played: tuple[tuple[int, Card], ...]
    """The postponed cards, as (seat, card), in play order."""

    def position(self, view: HandView, out: int, payoff: Sequence[int]) -> solver.Position:
        """The solver's position from here under ``payoff``."""
        return (self.hands, view.trump, self.leader, self.trick, out, view.maker % 2,
                self.maker_tricks, payoff)

    def value(self, solved: dict[Card, int] | None, maker_side: int,
              payoff: Sequence[int]) -> int:
        """The line's value for the makers, from the solver's answer for the actor's cards
        (the makers take their best, the defenders the makers' worst)."""
        if self.actor < 0:
            return int(payoff[self.maker_tricks])
        assert solved
        vals = solved.values()
        return max(vals) if self.actor % 2 == maker_side else min(vals)


class Postponer:
    """The other seats' next plies after each candidate card, for one decision."""

    def __init__(self, view: HandView, plies: int, model: ActionModel | None = None) -> None:
        """Postpone up to ``plies`` cards of the seats after ``view``'s seat in its trick."""
        self.view = view
        self.model = model or load_model()
        seats = K.trick_seats(view)
        self.order = seats
        self.after = seats[len(view.trick) + 1 :][: max(0, plies)]
        self._public: dict[tuple[Card, ...], _Public] = {}
        self._choice: dict[tuple[tuple[Card, ...], int], Card] = {}
        self._bare = dataclasses.replace(view, hand=(), discard=None, farmer_gave=(),
                                         legal=())

    @property
    def active(self) -> bool:
        """Whether any ply is postponed (no seat after this one in the trick: none)."""
        return bool(self.after)

    def public(self, seat: int, trick: tuple[Card, ...]) -> _Public:
        """What ``seat`` sees, apart from its cards, when ``trick`` lies on the table."""
        key = trick
        pub = self._public.get(key)
        if pub is None:
            sv = dataclasses.replace(self._bare, seat=seat, trick=trick)
            pub = self._public[key] = _public(sv)
        return pub

    def choose(self, seat: int, trick: tuple[Card, ...], held: int) -> Card:
        """The model's most likely card for ``seat`` holding ``held`` with ``trick`` down
        (the lowest-numbered among equals); a lone legal card is played as such."""
        trump = self.view.trump
        follow = FOLLOW_MASK[trump][EFFECTIVE_SUIT[trump][trick[0]]]
        legal = held & follow if held & follow else held
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        key = (trick, held)
        card = self._choice.get(key)
        if card is None:
            cards = cards_of(legal)
            w = self.model.weights
            feats = _play_features_all(self.public(seat, trick), held, cards)
            scores = [sum(w.get(name, 0.0) for name in fs) for fs in feats]
            best = max(range(len(cards)), key=lambda i: (scores[i], -i))
            card = self._choice[key] = cards[best]
        return card

    def line(self, hands: Hands, card: Card) -> Line:
        """The deal ``hands`` after we play ``card`` and the postponed seats play theirs."""
        view = self.view
        held = list(hands)
        held[view.seat] &= ~(1 << card)
        trick = (*view.trick, card)
        played: list[tuple[int, Card]] = []
        for seat in self.after:
            c = self.choose(seat, trick, held[seat])
            held[seat] &= ~(1 << c)
            trick = (*trick, c)
            played.append((seat, c))
        maker_side = view.maker % 2
        maker_tricks = view.tricks_won[maker_side]
        seats = self.order
        if len(trick) < len(seats):
            return Line(tuple(held), view.leader, trick, maker_tricks,
                        seats[len(trick)], tuple(played))
        trump = view.trump
        ranks = TRICK_RANK[trump][EFFECTIVE_SUIT[trump][trick[0]]]
        winner = seats[max(range(len(trick)), key=lambda i: ranks[trick[i]])]
        if winner % 2 == maker_side:
            maker_tricks += 1
        actor = winner if held[winner] else -1
        return Line(tuple(held), winner, (), maker_tricks, actor, tuple(played))


__all__ = ["Line", "Postponer"]
