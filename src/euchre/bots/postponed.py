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

from ..cards import Card, card_rank, cards_of
from ..lookup import EFFECTIVE_SUIT, FOLLOW_MASK, TRICK_RANK
from ..view import HandView
from . import knowledge as K
from . import solver
from .action_model import ActionModel, _Public, _public, load_model


def _count(mask: int) -> int:
    return bin(mask).count("1")


_POWER = [[K.power(c, t) for c in range(25)] for t in range(4)]
"""Per trump, each card's strength within its effective suit (:func:`knowledge.power`)."""
_ABOVE = [[sum(1 << x for x in range(25) if EFFECTIVE_SUIT[t][x] == EFFECTIVE_SUIT[t][c]
               and _POWER[t][x] > _POWER[t][c]) for c in range(25)] for t in range(4)]
"""Per trump and card, the cards of its effective suit that outrank it."""


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
        self._scores: dict[tuple[object, ...], float] = {}
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
        led = EFFECTIVE_SUIT[trump][trick[0]]
        follow = FOLLOW_MASK[trump][led]
        legal = held & follow if held & follow else held
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        key = (trick, held)
        card = self._choice.get(key)
        if card is None:
            card = self._choice[key] = self._best(seat, trick, held, legal, led)
        return card

    def _best(self, seat: int, trick: tuple[Card, ...], held: int, legal: int,
              led: int) -> Card:
        """The legal card with the highest score under the model.

        A following card's features read the seat's cards only through a few counts
        (its trumps, the trumps it cannot see, whether the card is the boss of what it
        cannot see, the card's place among the legal ones, the length of its suit), so
        each card's score is remembered by those; the features are read in full
        (:meth:`_score`) only for a new key.
        """
        pub = self.public(seat, trick)
        trump = self.view.trump
        power = _POWER[trump]
        above = _ABOVE[trump]
        table = EFFECTIVE_SUIT[trump]
        ranks = TRICK_RANK[trump][led]
        tmask = FOLLOW_MASK[trump][trump]
        unseen = pub.unseen & ~held
        counts = (min(_count(held & tmask), 3), min(_count(unseen & tmask), 3))
        cards = cards_of(legal)
        powers = [power[c] for c in cards]
        low, high = min(powers), max(powers)
        win_rank = ranks[pub.win_card]
        winners = [ranks[c] for c in cards if ranks[c] > win_rank]
        cheapest = min(winners) if winners else -1
        # the public part of the moment as the features read it (who plays, who wins with
        # what, the suit led, partner's throw-off): the same for many tricks
        ctx = (pub.seat, led, pub.win_seat, pub.win_card, pub.partner_threw)
        keys = []
        for c, pw in zip(cards, powers, strict=True):
            suit = table[c]
            length = 0 if suit in (led, trump) else min(
                _count(held & FOLLOW_MASK[trump][suit]), 3)
            keys.append((ctx, c, pw == low, pw == high, ranks[c] == cheapest, counts,
                         not unseen & above[c], length))
        scores = self._scores
        for k in keys:
            if k not in scores:
                scores[k] = self._score(pub, led, k)
        values = [scores[k] for k in keys]
        return cards[max(range(len(cards)), key=lambda i: (values[i], -i))]

    def _score(self, pub: _Public, led: int, key: tuple[object, ...]) -> float:
        """The model's score of following with the card of ``key`` (see :meth:`_best`):
        the features :func:`~euchre.bots.action_model._play_features_all` names for it,
        built from the key's counts (a test checks the two agree)."""
        _, c, lo, hi, cheap, counts, boss_, length = key
        assert isinstance(c, int) and isinstance(counts, tuple) and isinstance(length, int)
        my_trumps, tout = counts
        trump = pub.trump
        table = EFFECTIVE_SUIT[trump]
        ranks = TRICK_RANK[trump][led]
        suit = table[c]
        is_trump = int(suit == trump)
        lowest, highest, boss = int(bool(lo)), int(bool(hi)), int(bool(boss_))
        mate = (pub.seat + 2) % 4
        pw = int(pub.win_seat == mate)
        last = int(not pub.after)
        ra = int(any(pub.voids[s] >> led & 1 for s in pub.after if s != mate))
        beats = int(ranks[c] > ranks[pub.win_card])
        ch = int(bool(beats) and bool(cheap))
        k, pos = pub.trick_no, pub.pos
        kind = "fol" if suit == led else ("ruff" if is_trump else "off")
        names = [
            "play", f"play:k{k}:lo{lowest}:hi{highest}",
            f"play:mytr{my_trumps}:tout{tout}:tr{is_trump}:lo{lowest}:hi{highest}",
            kind,
            f"{kind}:p{pos}:pw{pw}:b{beats}",
            f"{kind}:p{pos}:pw{pw}:lo{lowest}",
            f"{kind}:b{beats}:ch{ch}:last{last}",
            f"{kind}:pw{pw}:boss{boss}",
            f"{kind}:lo{lowest}:hi{highest}:b{beats}",
            f"{kind}:b{beats}:ch{ch}:ra{ra}:tout{min(tout, 2)}",
            f"{kind}:pw{pw}:b{beats}:k{k}",
            f"{kind}:p{pos}:pw{pw}:boss{boss}:hi{highest}",
        ]
        if kind == "off":
            rank = card_rank(c)
            names += [f"off:r{rank}", f"off:len{length}",
                      f"off:r{rank}:len{min(length, 2)}:boss{boss}",
                      f"off:len1:tr{int(my_trumps > 0)}" if length == 1 else "off:len2+",
                      f"off:pthrew{int(suit == pub.partner_threw)}"]
        w = self.model.weights
        return sum(w.get(name, 0.0) for name in names)

    def line(self, hands: Sequence[int], card: Card) -> Line:
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
