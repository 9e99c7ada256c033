"""Actions and their text notation.

Notation (``str(action)`` and :func:`parse_action` are a pair):

==========================  ==================================================
``pass``                    pass a bid (or decline to defend alone)
``order`` / ``order alone`` round one: order up the upcard (the dealer's "pick up")
``call H`` / ``call H alone`` round two (and the Benny upcard): name trump
``discard 9C``              the dealer's discard after taking the upcard
``defend alone``            a defender announces alone (house rule)
``farmer keep``             a farmer's hand is kept as dealt
``farmer swap 9C TD 9H``    swap three cards for the three face-down kitty cards
``farmer throw``            throw a farmer's hand in
``play JH``                 play a card
``renege 1 by 2``           (records of live games) seat 2 claims that seat 1 reneged
==========================  ==================================================
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CardError, card_text, parse_card, parse_suit, suit_text
from .errors import IllegalActionError

PASS_KIND = "pass"
ORDER = "order"
CALL = "call"
DISCARD = "discard"
DEFEND = "defend"
FARMER_KEEP = "farmer keep"
FARMER_SWAP = "farmer swap"
FARMER_THROW = "farmer throw"
PLAY = "play"
RENEGE = "renege"


class ActionError(IllegalActionError):
    """Raised when a text is not an action in the notation.

    A kind of :class:`IllegalActionError`, so ``state.apply("bid 3")`` raises what the README
    promises for any action that cannot be applied.
    """


class Action(NamedTuple):
    """One decision by the seat to act. Compare and hash by value."""

    kind: str
    """One of the kind constants (``"play"``, ``"order"`` …)."""
    card: int = -1
    """The card played or discarded."""
    suit: int = -1
    """The suit named with ``call``."""
    alone: bool = False
    """Announced alone with the bid (or ``defend alone``)."""
    cards: tuple[int, ...] = ()
    """The three cards a farmer swaps."""
    seat: int = -1
    """``renege``: the seat that reneged."""
    by: int = -1
    """``renege``: the seat that claimed it."""

    def __str__(self) -> str:
        kind = self.kind
        if kind in (PLAY, DISCARD):
            return f"{kind} {card_text(self.card)}"
        if kind == ORDER:
            return "order alone" if self.alone else "order"
        if kind == CALL:
            return f"call {suit_text(self.suit)}{' alone' if self.alone else ''}"
        if kind == DEFEND:
            return "defend alone"
        if kind == FARMER_SWAP:
            return "farmer swap " + " ".join(card_text(c) for c in self.cards)
        if kind == RENEGE:
            return f"renege {self.seat} by {self.by}"
        return kind

    def __repr__(self) -> str:
        """The notation in angle brackets: ``<Action play JH>``."""
        return f"<Action {self}>"

    def uci(self) -> str:
        """Alias of ``str(action)``, for readers who know python-chess."""
        return str(self)


PASS = Action(PASS_KIND)
"""Pass."""
ORDER_UP = Action(ORDER)
"""Order up the upcard (round one)."""
ORDER_UP_ALONE = Action(ORDER, alone=True)
"""Order up and go alone."""
DEFEND_ALONE = Action(DEFEND, alone=True)
"""Defend alone."""
KEEP = Action(FARMER_KEEP)
"""Keep a farmer's hand."""
THROW = Action(FARMER_THROW)
"""Throw a farmer's hand in."""
PLAYS: tuple[Action, ...] = tuple(Action(PLAY, card=c) for c in range(25))
"""``PLAYS[card]``: play that card."""
DISCARDS: tuple[Action, ...] = tuple(Action(DISCARD, card=c) for c in range(25))
"""``DISCARDS[card]``: discard that card."""
CALLS: tuple[Action, ...] = tuple(Action(CALL, suit=s) for s in range(4))
"""``CALLS[suit]``: name that suit trump."""
CALLS_ALONE: tuple[Action, ...] = tuple(Action(CALL, suit=s, alone=True) for s in range(4))
"""``CALLS_ALONE[suit]``: name that suit and go alone."""

_FIXED: dict[str, Action] = {
    str(a): a
    for a in (PASS, ORDER_UP, ORDER_UP_ALONE, DEFEND_ALONE, KEEP, THROW, *PLAYS, *DISCARDS,
              *CALLS, *CALLS_ALONE)
}


def farmer_swap(cards: tuple[int, ...] | list[int]) -> Action:
    """The farmer's swap of three cards (kept in card order)."""
    return Action(FARMER_SWAP, cards=tuple(sorted(cards)))


def renege(seat: int, by: int) -> Action:
    """A claim, in a live game's record, that ``seat`` reneged, made by ``by``."""
    return Action(RENEGE, seat=seat, by=by)


def parse_action(text: str) -> Action:
    """Parse the notation (case and spacing are forgiven) into an action."""
    norm = " ".join(text.strip().split())
    hit = _FIXED.get(norm)
    if hit is not None:
        return hit
    raw = norm.split()
    words = norm.lower().split()
    try:
        if len(words) == 2 and words[0] in (PLAY, DISCARD):
            card = parse_card(raw[1])
            return PLAYS[card] if words[0] == PLAY else DISCARDS[card]
        if words[:1] == ["call"] and len(words) in (2, 3):
            if len(words) == 3 and words[2] != "alone":
                raise ActionError(f"not an action: {text!r}")
            suit = parse_suit(raw[1])
            return CALLS_ALONE[suit] if len(words) == 3 else CALLS[suit]
        if words[:2] == ["farmer", "swap"] and len(words) == 5:
            return farmer_swap([parse_card(w) for w in raw[2:]])
        if words[:1] == ["renege"] and len(words) == 4 and words[2] == "by":
            return renege(_seat(words[1]), _seat(words[3]))
        if words in (["order", "up"], ["pick", "up"]):
            return ORDER_UP
        if words in (["order", "up", "alone"], ["pick", "up", "alone"]):
            return ORDER_UP_ALONE
        if len(words) == 1 and words[0] in ("pass", "order", "keep", "throw"):
            return _FIXED[{"keep": "farmer keep", "throw": "farmer throw"}.get(words[0], words[0])]
        if words in (["order", "alone"], ["defend", "alone"], ["farmer", "keep"],
                     ["farmer", "throw"]):
            return _FIXED[" ".join(words)]
    except CardError as e:
        raise ActionError(f"not an action: {text!r} ({e})") from None
    raise ActionError(
        f"not an action: {text!r} (try pass, order, order alone, call H, discard 9C, play JH)"
    )


def _seat(word: str) -> int:
    if word not in ("0", "1", "2", "3"):
        raise ActionError(f"not a seat: {word!r} (seats are 0-3)")
    return int(word)
