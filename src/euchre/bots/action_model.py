"""A learned model of how a seat plays: the probability of each legal action from its view.

Each legal action is described by a few named yes/no features read from the seat's
:class:`~euchre.view.HandView` alone (its own cards, the bidding, the cards played, the
trick as it stands); the model scores an action by the sum of its features' weights and
gives the legal actions probabilities by a softmax (a conditional logit). The weights
(``data/action_model.json``) were fitted by ``scripts/train_action_model.py`` to
decisions recorded by ``scripts/record_decisions.py``; the file names both with their
seeds. Plain Python: a decision costs a few tens of microseconds.

:class:`ModelReader` uses the model to weigh a sampled deal by how likely the other
seats' seen actions were had they held that deal's cards (tempered, with a floor), by
replaying the hand from the deal the sample implies.
"""

from __future__ import annotations

import functools
import json
import math
import random
from dataclasses import dataclass
from importlib import resources

from .. import actions as A
from ..actions import Action
from ..cards import JOKER, Card, card_rank, card_suit, cards_of, trump_rank
from ..hand import Deal, HandState
from ..lookup import EFFECTIVE_SUIT, TRICK_RANK
from ..view import HandView
from . import knowledge as K
from .sampling import Hands

DATA_FILE = "action_model.json"
"""The weights, under ``euchre/bots/data``."""

TEMPER = 0.5
"""Default power applied to each observed action's probability (below 1: trust it less)."""
FLOOR = 0.02
"""Default least probability an observed action is given (no deal is ruled out by it)."""


def _bucket(n: int, top: int) -> int:
    return n if n < top else top


def _suit_length(view: HandView, card: Card) -> int:
    """How many cards of ``card``'s effective suit the seat holds."""
    table = EFFECTIVE_SUIT[view.trump]
    return sum(1 for x in view.hand if table[x] == table[card])


def _bid_features(view: HandView, action: Action) -> list[str]:
    pos = (view.seat - view.dealer) % 4
    rnd = 1 if view.phase in ("order", "benny") else 2
    if action.kind == A.PASS_KIND:
        return ["pass", f"pass:r{rnd}:p{pos}"]
    if action.kind == A.ORDER:
        suit = card_suit(view.upcard) if view.upcard != JOKER else 0
    else:
        suit = action.suit
    hand = list(view.hand)
    if rnd == 1 and pos == 0 and view.upcard != JOKER:
        hand.append(view.upcard)  # the dealer would pick it up
    trumps = [trump_rank(c, suit) for c in hand if EFFECTIVE_SUIT[suit][c] == suit]
    n = len(trumps)
    right = 1 if any(r >= 6 for r in trumps) else 0
    left = 1 if 5 in trumps else 0
    aces = sum(1 for c in hand if EFFECTIVE_SUIT[suit][c] != suit and card_rank(c) == 5)
    suits = {EFFECTIVE_SUIT[suit][c] for c in hand}
    voids = 4 - len(suits)
    high = sum(1 for r in trumps if r >= 3)  # ace of trump or better
    f = [
        "bid",
        f"bid:r{rnd}:p{pos}",
        f"bid:r{rnd}:t{n}",
        f"bid:r{rnd}:p{pos}:t{n}",
        f"bid:t{n}:rb{right}:lb{left}",
        f"bid:t{n}:h{high}",
        f"bid:t{n}:a{_bucket(aces, 2)}",
        f"bid:v{_bucket(voids, 2)}:t{n}",
    ]
    if rnd == 1 and view.upcard != JOKER:
        up = trump_rank(view.upcard, suit)
        f.append(f"bid:up{up}:p{pos}")
    if rnd == 2:
        f.append(f"bid:r2:same_colour{int(suit == 3 - card_suit(view.upcard))}")
    if action.alone:
        f += ["alone", f"alone:t{n}:h{high}", f"alone:t{n}:a{_bucket(aces, 2)}",
              f"alone:p{pos}"]
    return f


def _discard_features(view: HandView, action: Action) -> list[str]:
    c = action.card
    trump = view.trump
    suit = EFFECTIVE_SUIT[trump][c]
    if suit == trump:
        return ["disc:trump", f"disc:trump:r{trump_rank(c, trump)}"]
    length = sum(1 for x in view.hand if EFFECTIVE_SUIT[trump][x] == suit)
    rank = card_rank(c)
    return ["disc:plain", f"disc:r{rank}", f"disc:len{_bucket(length, 3)}",
            f"disc:r{rank}:len{_bucket(length, 3)}"]


def _play_features(view: HandView, action: Action) -> list[str]:
    c = action.card
    trump = view.trump
    cards = [a.card for a in view.legal if a.kind == A.PLAY]
    power = K.power(c, trump)
    order = sorted(K.power(x, trump) for x in cards)
    lowest = int(power == order[0])
    highest = int(power == order[-1])
    is_trump = int(EFFECTIVE_SUIT[trump][c] == trump)
    boss = int(K.is_boss(c, view))
    trick_no = len(view.tricks)
    mine = view.maker % 2 == view.seat % 2
    f = ["play", f"play:k{trick_no}:lo{lowest}:hi{highest}"]
    if not view.trick:
        rank = trump_rank(c, trump) if is_trump else card_rank(c)
        f += [
            f"lead:tr{is_trump}:boss{boss}",
            f"lead:tr{is_trump}:maker{int(mine)}",
            f"lead:tr{is_trump}:maker{int(mine)}:k{trick_no}",
            f"lead:tr{is_trump}:r{rank}",
            f"lead:tr{is_trump}:boss{boss}:maker{int(mine)}",
            f"lead:lo{lowest}:hi{highest}",
        ]
        if not is_trump:
            length = _suit_length(view, c)
            f.append(f"lead:plain:len{_bucket(length, 3)}:r{rank}")
        return f
    pos = len(view.trick)
    led = EFFECTIVE_SUIT[trump][view.trick[0]]
    win = K.winning(view)
    assert win is not None
    win_seat, win_card = win
    partner_wins = int(win_seat == K.partner(view.seat))
    ranks = TRICK_RANK[trump][led]
    beats = int(ranks[c] > ranks[win_card])
    follows = int(EFFECTIVE_SUIT[trump][c] == led)
    last = int(not K.seats_after(view))
    # of the cards that would win now, is this the cheapest?
    winners = [x for x in cards if ranks[x] > ranks[win_card]]
    cheapest = int(bool(beats) and ranks[c] == min(ranks[x] for x in winners))
    kind = "fol" if follows else ("ruff" if is_trump else "off")
    f += [
        f"{kind}",
        f"{kind}:p{pos}:pw{partner_wins}:b{beats}",
        f"{kind}:p{pos}:pw{partner_wins}:lo{lowest}",
        f"{kind}:b{beats}:ch{cheapest}:last{last}",
        f"{kind}:pw{partner_wins}:boss{boss}",
        f"{kind}:lo{lowest}:hi{highest}:b{beats}",
    ]
    if kind == "off":
        length = _suit_length(view, c)
        f += [f"off:r{card_rank(c)}", f"off:len{_bucket(length, 3)}"]
    return f


def features(view: HandView, action: Action) -> list[str]:
    """The names of the features ``action`` has in ``view`` (read from the view alone)."""
    kind = action.kind
    if kind in (A.PASS_KIND, A.ORDER, A.CALL):
        return _bid_features(view, action)
    if kind == A.DISCARD:
        return _discard_features(view, action)
    if kind == A.PLAY:
        return _play_features(view, action)
    if kind == A.DEFEND:
        return ["defend", f"defend:t{K.trump_count(list(view.hand), view.trump)}"]
    return [kind]  # the farmer's choices and the like: one weight each


@dataclass(frozen=True)
class ActionModel:
    """Feature weights, and where they came from."""

    weights: dict[str, float]
    """Weight of each named feature (a feature not listed weighs 0)."""
    made_by: str = ""
    """The command and seeds that fitted the weights."""

    def scores(self, view: HandView) -> list[float]:
        """Each legal action's score, in the order of ``view.legal``."""
        w = self.weights
        return [sum(w.get(name, 0.0) for name in features(view, a)) for a in view.legal]

    def probabilities(self, view: HandView) -> dict[Action, float]:
        """The probability of each legal action of ``view`` (a distribution over them)."""
        legal = view.legal
        if not legal:
            return {}
        s = self.scores(view)
        top = max(s)
        e = [math.exp(x - top) for x in s]
        total = sum(e)
        return {a: x / total for a, x in zip(legal, e, strict=True)}

    def to_json(self) -> str:
        """The weights as the data file holds them."""
        return json.dumps({"made_by": self.made_by, "weights": self.weights},
                          indent=0, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> ActionModel:
        """A model from the text of a data file."""
        data = json.loads(text)
        return cls({str(k): float(v) for k, v in data["weights"].items()},
                   str(data.get("made_by", "")))


@functools.cache
def load_model() -> ActionModel:
    """The shipped model (``data/action_model.json``), read once."""
    text = resources.files("euchre.bots").joinpath("data", DATA_FILE).read_text()
    return ActionModel.from_json(text)


# -- weighing sampled deals ---------------------------------------------------------------


def implied_deal(view: HandView, hands: Hands, rng: random.Random) -> tuple[Deal, Card | None]:
    """The deal a sample of the hands now implies, and the dealer's discard (if any).

    Each seat was dealt the cards it holds now and has played; a dealer who took the
    upcard was dealt its discard instead, which the seat of ``view`` may not know: it is
    then drawn from the cards the sample leaves in the kitty.
    """
    played = [0, 0, 0, 0]
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    for leader, cards in tricks:
        seat = leader
        for card in cards:
            while seat in view.sitting_out:
                seat = (seat + 1) % 4
            played[seat] |= 1 << card
            seat = (seat + 1) % 4
    held = [hands[s] | played[s] for s in range(4)]
    up = view.upcard
    discard: Card | None = None
    if view.upcard_taken:
        if view.seat == view.dealer:
            discard = view.discard
        else:
            used = held[0] | held[1] | held[2] | held[3] | (1 << up)
            down = cards_of(K.deck_mask(view) & ~used)
            discard = down[rng.randrange(len(down))] if down else None
        if discard is not None and view.phase != "discard":
            held[view.dealer] = (held[view.dealer] | 1 << discard) & ~(1 << up)
    if view.phase == "discard":
        discard = None  # not made yet: the dealer holds six
        held[view.dealer] &= ~(1 << up)
    dealt = held[0] | held[1] | held[2] | held[3] | (1 << up)
    kitty = (up, *cards_of(K.deck_mask(view) & ~dealt))
    return Deal(tuple(tuple(cards_of(h)) for h in held), kitty, "3-2"), discard


class ModelReader:
    """Weighs deals by how likely the model finds the other seats' seen actions in them.

    One reader serves one decision. Each of its deals is replayed from the deal it
    implies; each action another seat took by choice and in sight of this seat scores
    ``max(p, floor) ** temper``. A seat's view at a past action depends only on the
    cards it held then, so the model's answers are remembered per action and held hand.
    """

    def __init__(self, view: HandView, model: ActionModel | None = None,
                 temper: float = TEMPER, floor: float = FLOOR) -> None:
        """Read ``view``'s history with ``model`` (the shipped one by default)."""
        self.view = view
        self.model = model or load_model()
        self.temper = temper
        self.floor = floor
        self._memo: dict[tuple[int, tuple[Card, ...], Card | None], float] = {}

    def weight(self, hands: Hands, rng: random.Random) -> float:
        """The product over the other seats' seen choices of their tempered probability."""
        view = self.view
        deal, discard = implied_deal(view, hands, rng)
        miss = self.floor ** self.temper
        try:
            state = HandState(view.rules, view.dealer, deal, view.score)
        except Exception:  # pragma: no cover - a sample the rules cannot deal
            return 0.0
        w = 1.0
        for i, (seat, action) in enumerate(view.history):
            if action is None:
                if discard is None:
                    return w
                action = A.Action(A.DISCARD, card=discard)
                seen = False
            else:
                seen = seat != view.seat
            if seen:
                sv = state.view(seat)
                if len(sv.legal) > 1:
                    key = (i, sv.hand, discard if seat == view.dealer else None)
                    p = self._memo.get(key)
                    if p is None:
                        prob = self.model.probabilities(sv).get(action, 0.0)
                        p = max(prob, self.floor) ** self.temper
                        self._memo[key] = p
                    w *= p if p > miss else miss
            try:
                state = state.apply(action, seat)
            except Exception:  # a sample in which the play could not have happened
                return 0.0
        return w


__all__ = ["DATA_FILE", "FLOOR", "TEMPER", "ActionModel", "ModelReader", "features",
           "implied_deal", "load_model"]
