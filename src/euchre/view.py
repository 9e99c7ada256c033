"""Per-seat views: exactly what one seat may know about a hand.

Bots and clients get a :class:`HandView`, never the :class:`~euchre.hand.HandState`.
A view holds the seat's own cards, the upcard, every bid, the dealer's discard (to
the dealer only), the cards played and the tricks; nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from .actions import Action
from .cards import Card, card_text, suit_text
from .rules import Rules

Trick = tuple[int, tuple[Card, ...], int]

_HIDDEN_KINDS = (A.DISCARD, A.FARMER_SWAP)  # actions only their own seat sees in full


@dataclass(frozen=True)
class HandView:
    """One seat's knowledge of a hand."""

    seat: int
    """The seat this view belongs to."""
    rules: Rules
    """The table's rules."""
    dealer: int
    """The dealer's seat."""
    score: tuple[int, int]
    """Game score before this hand (seats 0 & 2, seats 1 & 3)."""
    phase: str
    """``farmer``, ``order``, ``benny``, ``call``, ``discard``, ``defend``, ``play`` or ``over``."""
    to_act: int | None
    """The seat to act, or None once the hand is over."""
    hand: tuple[Card, ...]
    """The cards this seat holds now."""
    upcard: Card
    """The card turned up (known to everyone, even once turned down)."""
    upcard_taken: bool
    """Whether the dealer took the upcard into hand."""
    history: tuple[tuple[int, Action | None], ...]
    """Every action as (seat, action); actions this seat may not see in full are ``None``
    (another seat's discard, a farmer's swap) apart from their kind in ``hidden_kinds``."""
    hidden_kinds: tuple[str, ...]
    """The kinds of the actions shown as ``None`` in ``history``, in order."""
    trump: int
    """The trump suit, or -1 before it is made."""
    maker: int
    """The seat that made trump, or -1."""
    alone: bool
    """Whether the maker went alone."""
    lone_defender: int
    """The seat defending alone, or -1."""
    sitting_out: tuple[int, ...]
    """Seats that sit out this hand."""
    discard: Card | None
    """The dealer's discard, only in the dealer's own view."""
    farmer_gave: tuple[Card, ...]
    """The cards this seat put into the kitty with a farmer's swap (only the farmer's view)."""
    leader: int
    """The leader of the trick in progress (or of the next trick), or -1 before play."""
    trick: tuple[Card, ...]
    """Cards played to the trick in progress, in play order from the leader."""
    tricks: tuple[Trick, ...]
    """Completed tricks as (leader, cards, winner): every card this seat has seen played (the
    seat's own memory; a person at a table is sent only the last:
    ``euchre.table.actor.observer``)."""
    tricks_won: tuple[int, int]
    """Tricks won this hand by seats 0 & 2 and by seats 1 & 3."""
    points: tuple[int, int]
    """Points the hand scored (once over)."""
    thrown_in: bool
    """Whether the hand was thrown in."""
    reneged: tuple[int, int] | None
    """(seat that reneged, seat that claimed) when a renege stopped the hand."""
    legal: tuple[Action, ...] = field(default=())
    """The actions this seat may take now (empty when it is not this seat's turn)."""

    @property
    def is_over(self) -> bool:
        """Whether the hand has ended."""
        return self.phase == "over"

    @property
    def last_trick(self) -> Trick | None:
        """The last completed trick, visible only until the next card is led (table law 11)."""
        if self.tricks and not self.trick:
            return self.tricks[-1]
        return None

    def legal_actions(self) -> list[Action]:
        """The actions this seat may take now."""
        return list(self.legal)

    def bids(self) -> list[tuple[int, Action]]:
        """The bidding actions so far (pass, order, call, defend alone), as (seat, action)."""
        kinds = (A.PASS_KIND, A.ORDER, A.CALL, A.DEFEND)
        return [(s, a) for s, a in self.history if a is not None and a.kind in kinds]

    @property
    def plays_on_view(self) -> int:
        """How many plays a person may still look at (table law 11): the trick in progress, or
        the last completed trick until the next card is led."""
        if self.trick:
            return len(self.trick)
        return len(self.tricks[-1][1]) if self.tricks else 0

    def to_json(self) -> dict[str, Any]:
        """The view as a JSON-ready dict (cards in text notation): the full view, every play
        of the hand included (for programs and computer players; a person at a table is sent
        what ``euchre.table.actor.observer`` lets them see)."""
        return {
            "seat": self.seat,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "score": list(self.score),
            "phase": self.phase,
            "to_act": self.to_act,
            "hand": [card_text(c) for c in self.hand],
            "upcard": card_text(self.upcard),
            "upcard_taken": self.upcard_taken,
            "history": [
                [s, str(a) if a is not None else kind]
                for (s, a), kind in zip(self.history, _kinds(self), strict=True)
            ],
            "trump": suit_text(self.trump) if self.trump >= 0 else None,
            "maker": self.maker if self.maker >= 0 else None,
            "alone": self.alone,
            "lone_defender": self.lone_defender if self.lone_defender >= 0 else None,
            "sitting_out": list(self.sitting_out),
            "discard": card_text(self.discard) if self.discard is not None else None,
            "farmer_gave": [card_text(c) for c in self.farmer_gave],
            "leader": self.leader if self.leader >= 0 else None,
            "trick": [card_text(c) for c in self.trick],
            "last_trick": (
                {
                    "leader": self.last_trick[0],
                    "cards": [card_text(c) for c in self.last_trick[1]],
                    "winner": self.last_trick[2],
                }
                if self.last_trick
                else None
            ),
            "tricks_played": len(self.tricks),
            "tricks_won": list(self.tricks_won),
            "points": list(self.points),
            "thrown_in": self.thrown_in,
            "reneged": list(self.reneged) if self.reneged else None,
            "legal": [str(a) for a in self.legal],
        }


def _kinds(view: HandView) -> list[str]:
    hidden = iter(view.hidden_kinds)
    return [next(hidden) if a is None else a.kind for _, a in view.history]
