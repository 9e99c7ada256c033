"""A learned model of how a seat plays: the probability of each legal action from its view.

Each legal action is described by a few named yes/no features read from the seat's
:class:`~euchre.view.HandView` alone (its own cards, the bidding, the cards played, the
trick as it stands); the model scores an action by the sum of its features' weights and
gives the legal actions probabilities by a softmax (a conditional logit). The weights
(``data/action_model.json``) were fitted by ``scripts/research/train_action_model.py`` to
decisions recorded by ``scripts/research/record_decisions.py``; the file names both with their
seeds. Plain Python: a decision costs a few tens of microseconds.

:class:`ModelReader` uses the model to weigh a sampled deal by how likely the other
seats' seen actions were had they held that deal's cards (tempered, with a floor), by
replaying the hand from the deal the sample implies.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
from dataclasses import dataclass, field
from importlib import resources

from .. import actions as A
from ..actions import Action
from ..cards import JOKER, Card, card_rank, card_suit, cards_of, trump_rank
from ..hand import Deal, HandState
from ..lookup import EFFECTIVE_SUIT, FOLLOW_MASK, TRICK_RANK
from ..sampling import played_by_seat
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


def _bid_suit(view: HandView, action: Action) -> int:
    """The suit a bid names (the upcard's for an order)."""
    if action.kind == A.ORDER:
        return card_suit(view.upcard) if view.upcard != JOKER else 0
    return action.suit


def _bid_hand(view: HandView) -> list[Card]:
    """The cards a bid is judged on: the dealer's include the upcard it would pick up."""
    hand = list(view.hand)
    if _takes_upcard(view):
        hand.append(view.upcard)
    return hand


def _takes_upcard(view: HandView) -> bool:
    """Whether a bid in ``view`` is the dealer's in the first round (judged with the upcard)."""
    return view.phase in ("order", "benny") and view.dealer == view.seat and view.upcard != JOKER


def _bid_stats(hand: list[Card], suit: int) -> tuple[int, int, int, int, int, int]:
    """What a bid's features read of the hand for ``suit``: trumps, right and left bower,
    side aces (at most 2), voids (at most 2) and trumps from the ace up."""
    table = EFFECTIVE_SUIT[suit]
    trumps = [trump_rank(c, suit) for c in hand if table[c] == suit]
    aces = sum(1 for c in hand if table[c] != suit and card_rank(c) == 5)
    return (len(trumps), int(any(r >= 6 for r in trumps)), int(5 in trumps),
            _bucket(aces, 2), _bucket(4 - len({table[c] for c in hand}), 2),
            sum(1 for r in trumps if r >= 3))


def _suit_tables(suit: int) -> tuple[int, int, int, int, int, tuple[int, ...]]:
    """Card masks for ``suit`` as trump: its trumps, the right bower (or better), the left,
    trumps from the ace up, side aces, and each effective suit's cards."""
    table = EFFECTIVE_SUIT[suit]
    cards = [c for c in range(JOKER + 1)]
    trumps = [c for c in cards if table[c] == suit]

    def m(cs: list[Card]) -> int:
        return sum(1 << c for c in cs)

    return (m(trumps), m([c for c in trumps if trump_rank(c, suit) >= 6]),
            m([c for c in trumps if trump_rank(c, suit) == 5]),
            m([c for c in trumps if trump_rank(c, suit) >= 3]),
            m([c for c in cards if table[c] != suit and card_rank(c) == 5]),
            tuple(m([c for c in cards if table[c] == x]) for x in range(4)))


_SUIT_TABLES = tuple(_suit_tables(s) for s in range(4))


def _bid_stats_mask(held: int, suit: int) -> tuple[int, int, int, int, int, int]:
    """:func:`_bid_stats` of the cards in ``held``, by masks."""
    trumps, right, left, high, aces, suits = _SUIT_TABLES[suit]
    return (K.count(held & trumps), int(bool(held & right)), int(bool(held & left)),
            _bucket(K.count(held & aces), 2),
            _bucket(sum(1 for x in suits if not held & x), 2), K.count(held & high))


def _bid_features(view: HandView, action: Action) -> list[str]:
    pos = (view.seat - view.dealer) % 4
    rnd = 1 if view.phase in ("order", "benny") else 2
    if action.kind == A.PASS_KIND:
        return ["pass", f"pass:r{rnd}:p{pos}"]
    suit = _bid_suit(view, action)
    n, right, left, aces, voids, high = _bid_stats(_bid_hand(view), suit)
    f = [
        "bid",
        f"bid:r{rnd}:p{pos}",
        f"bid:r{rnd}:t{n}",
        f"bid:r{rnd}:p{pos}:t{n}",
        f"bid:t{n}:rb{right}:lb{left}",
        f"bid:t{n}:h{high}",
        f"bid:t{n}:a{aces}",
        f"bid:v{voids}:t{n}",
    ]
    f.append(f"bid:r{rnd}:p{pos}:t{n}:rb{right}:a{aces}")
    if rnd == 1 and view.upcard != JOKER:
        up = trump_rank(view.upcard, suit)
        f += [f"bid:up{up}:p{pos}", f"bid:up{up}:p{pos}:t{n}"]
    if rnd == 2:
        f.append(f"bid:r2:same_colour{int(suit == 3 - card_suit(view.upcard))}")
    if action.alone:
        f += ["alone", f"alone:t{n}:h{high}", f"alone:t{n}:a{aces}",
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


@dataclass(frozen=True)
class _Public:
    """What every seat can see at a card-play decision, apart from its own cards."""

    trump: int
    seat: int
    mine: int
    """Whether this seat's side made trump."""
    trick_no: int
    leading: bool
    pos: int
    """Cards already in the trick."""
    led: int
    """The effective suit led (-1 when leading)."""
    win_seat: int
    win_card: Card
    after: tuple[int, ...]
    """The seats still to play to the trick after this one."""
    voids: tuple[int, ...]
    """Per seat, the effective suits it has shown out of."""
    partner_threw: int
    """The effective suit of partner's first throw-off, or -1."""
    unseen: int
    """Cards neither played nor otherwise shown to this seat (its own cards included)."""


def _public(view: HandView) -> _Public:
    """The public part of a card-play decision (read once per moment)."""
    trump = view.trump
    threw = K.first_discards(view).get(K.partner(view.seat))
    win = K.winning(view)
    return _Public(
        trump=trump,
        seat=view.seat,
        mine=int(view.maker % 2 == view.seat % 2),
        trick_no=len(view.tricks),
        leading=not view.trick,
        pos=len(view.trick),
        led=K.led_suit(view),
        win_seat=win[0] if win else -1,
        win_card=win[1] if win else -1,
        after=tuple(K.seats_after(view)) if view.trick else (),
        voids=tuple(K.voids(view)),
        partner_threw=-1 if threw is None else EFFECTIVE_SUIT[trump][threw],
        unseen=K.unseen_mask(view) | K.hand_mask(view),
    )


def _higher(card: Card, pool: int, trump: int) -> int:
    """How many cards of ``pool`` in ``card``'s effective suit outrank it."""
    suit = EFFECTIVE_SUIT[trump][card]
    mine = K.power(card, trump)
    n = 0
    for x in cards_of(K.suit_cards(pool, suit, trump)):
        if K.power(x, trump) > mine:
            n += 1
    return n


def _play_features_all(pub: _Public, held: int, cards: list[Card]) -> list[list[str]]:
    """The features of playing each of ``cards`` (the legal ones) holding ``held``."""
    trump = pub.trump
    unseen = pub.unseen & ~held
    tout = _bucket(K.count(K.trumps(unseen, trump)), 3)
    my_trumps = _bucket(K.count(K.trumps(held, trump)), 3)
    powers = [K.power(x, trump) for x in cards]
    low, high = min(powers), max(powers)
    me = pub.seat
    mate = (me + 2) % 4
    opp_voids = pub.voids[(me + 1) % 4] | pub.voids[(me + 3) % 4]
    trick_no = pub.trick_no
    mine = pub.mine
    table = EFFECTIVE_SUIT[trump]
    lengths = [0, 0, 0, 0, 0]
    for x in cards_of(held):
        lengths[table[x]] += 1
    out = []
    if not pub.leading:
        led = pub.led
        ranks = TRICK_RANK[trump][led]
        win_rank = ranks[pub.win_card]
        partner_wins = int(pub.win_seat == mate)
        last = int(not pub.after)
        ruff_after = int(any(pub.voids[s] >> led & 1 for s in pub.after if s != mate))
        winner_ranks = [ranks[x] for x in cards if ranks[x] > win_rank]
        cheapest_rank = min(winner_ranks) if winner_ranks else -1
    for c, power in zip(cards, powers, strict=True):
        lowest = int(power == low)
        highest = int(power == high)
        suit = table[c]
        is_trump = int(suit == trump)
        higher = _higher(c, unseen, trump)
        boss = int(higher == 0)
        f = ["play", f"play:k{trick_no}:lo{lowest}:hi{highest}",
             f"play:mytr{my_trumps}:tout{tout}:tr{is_trump}:lo{lowest}:hi{highest}"]
        if pub.leading:
            rank = trump_rank(c, trump) if is_trump else card_rank(c)
            f += [
                f"lead:tr{is_trump}:boss{boss}",
                f"lead:tr{is_trump}:maker{mine}",
                f"lead:tr{is_trump}:maker{mine}:k{trick_no}",
                f"lead:tr{is_trump}:r{rank}",
                f"lead:tr{is_trump}:boss{boss}:maker{mine}",
                f"lead:lo{lowest}:hi{highest}",
                f"lead:tr{is_trump}:boss{boss}:tout{tout}",
                f"lead:tr{is_trump}:hu{_bucket(higher, 2)}:maker{mine}",
                f"lead:tr{is_trump}:mytr{my_trumps}:tout{tout}:maker{mine}",
            ]
            if not is_trump:
                opp_void = opp_voids >> suit & 1
                mate_void = pub.voids[mate] >> suit & 1
                f += [f"lead:plain:len{_bucket(lengths[suit], 3)}:r{rank}",
                      f"lead:plain:ov{opp_void}:mv{mate_void}:tout{_bucket(tout, 1)}",
                      f"lead:plain:pthrew{int(suit == pub.partner_threw)}",
                      f"lead:plain:boss{boss}:ov{opp_void}"]
            out.append(f)
            continue
        pos = pub.pos
        beats = int(ranks[c] > win_rank)
        cheapest = int(bool(beats) and ranks[c] == cheapest_rank)
        kind = "fol" if suit == led else ("ruff" if is_trump else "off")
        f += [
            f"{kind}",
            f"{kind}:p{pos}:pw{partner_wins}:b{beats}",
            f"{kind}:p{pos}:pw{partner_wins}:lo{lowest}",
            f"{kind}:b{beats}:ch{cheapest}:last{last}",
            f"{kind}:pw{partner_wins}:boss{boss}",
            f"{kind}:lo{lowest}:hi{highest}:b{beats}",
            f"{kind}:b{beats}:ch{cheapest}:ra{ruff_after}:tout{_bucket(tout, 2)}",
            f"{kind}:pw{partner_wins}:b{beats}:k{trick_no}",
            f"{kind}:p{pos}:pw{partner_wins}:boss{boss}:hi{highest}",
        ]
        if kind == "off":
            length = lengths[suit]
            rank = card_rank(c)
            f += [f"off:r{rank}", f"off:len{_bucket(length, 3)}",
                  f"off:r{rank}:len{_bucket(length, 2)}:boss{boss}",
                  f"off:len1:tr{int(my_trumps > 0)}" if length == 1 else "off:len2+",
                  f"off:pthrew{int(suit == pub.partner_threw)}"]
        out.append(f)
    return out


def _play_features(view: HandView, action: Action) -> list[str]:
    cards = [a.card for a in view.legal if a.kind == A.PLAY]
    return _play_features_all(_public(view), K.hand_mask(view), cards)[cards.index(action.card)]


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


def features_all(view: HandView) -> list[list[str]]:
    """The features of every legal action of ``view``, in order (the shared part read once)."""
    legal = view.legal
    if legal and legal[0].kind == A.PLAY:
        return _play_features_all(_public(view), K.hand_mask(view), [a.card for a in legal])
    return [features(view, a) for a in legal]


@dataclass(frozen=True)
class ActionModel:
    """Feature weights, and where they came from."""

    weights: dict[str, float]
    """Weight of each named feature (a feature not listed weighs 0)."""
    made_by: str = ""
    """The command and seeds that fitted the weights."""
    _bids: dict[tuple[object, ...], float] = field(
        default_factory=dict, compare=False, repr=False)

    def scores(self, view: HandView) -> list[float]:
        """Each legal action's score, in the order of ``view.legal``."""
        w = self.weights
        return [sum(w.get(name, 0.0) for name in fs) for fs in features_all(view)]

    def bid_chance(self, view: HandView, held: int, action: Action) -> float:
        """The probability of bidding ``action`` in ``view`` had the seat held ``held``.

        A bid's features read its seat's position, the round, the upcard and, of its
        cards, a few counts for each suit it may name (:func:`_bid_stats`), so the answers
        are remembered by those across decisions (bounded: cleared when large).
        """
        hand = held | 1 << view.upcard if _takes_upcard(view) else held
        suits = sorted({_bid_suit(view, a) for a in view.legal if a.kind != A.PASS_KIND})
        key = (view.phase, (view.seat - view.dealer) % 4, view.upcard, action, view.legal,
               tuple(_bid_stats_mask(hand, s) for s in suits))
        cache = self._bids
        p = cache.get(key)
        if p is None:
            if len(cache) > 200_000:
                cache.clear()
            sv = dataclasses.replace(view, hand=tuple(cards_of(held)))
            p = cache[key] = self.probabilities(sv).get(action, 0.0)
        return p

    def chance(self, feats: list[list[str]], index: int) -> float:
        """The probability of action ``index`` among actions with features ``feats``."""
        w = self.weights
        s = [sum(w.get(name, 0.0) for name in fs) for fs in feats]
        top = max(s)
        e = [math.exp(x - top) for x in s]
        return e[index] / sum(e)

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

    One reader serves one decision. Each action another seat took by choice and in
    sight of this seat scores ``max(p, floor) ** temper`` under the model, given the
    cards the deal says that seat held then. What a seat could see at a past action is
    the public history then plus its own cards, so each such moment is kept once as a
    view (taken from one replay of the hand, every card of the acting seat's then
    replaced by the deal's), and the model's answer is remembered per moment and held
    hand: no deal is replayed. ``plays_only`` reads the card play alone (the bidding is
    left to the bidding tables).
    """

    def __init__(self, view: HandView, model: ActionModel | None = None,
                 temper: float = TEMPER, floor: float = FLOOR,
                 plays_only: bool = False) -> None:
        """Read ``view``'s history with ``model`` (the shipped one by default)."""
        self.view = view
        self.model = model or load_model()
        self.temper = temper
        self.floor = floor
        self.plays_only = plays_only
        self._memo: dict[tuple[int, int], float] = {}
        self._moments: list[_Moment] | None = None
        self._played = played_by_seat(view)

    def _build(self, hands: Hands, rng: random.Random) -> list[_Moment] | None:
        """The seen moments, from a replay of the deal ``hands`` implies (None: it fails)."""
        view = self.view
        deal, discard = implied_deal(view, hands, rng)
        try:
            state = HandState(view.rules, view.dealer, deal, view.score)
        except Exception:  # pragma: no cover - a sample the rules cannot deal
            return None
        out: list[_Moment] = []
        later = [0, 0, 0, 0]  # per seat, the cards it plays from this action on
        for seat, action in view.history:
            if action is not None and action.kind == A.PLAY:
                later[seat] |= 1 << action.card
        for i, (seat, action) in enumerate(view.history):
            if action is None:
                if discard is None:
                    break
                action = A.Action(A.DISCARD, card=discard)
            elif seat != view.seat and (not self.plays_only or action.kind == A.PLAY):
                sv = state.view(seat)
                if action.kind == A.PLAY:
                    sv = dataclasses.replace(sv, discard=None, farmer_gave=())
                    led = (EFFECTIVE_SUIT[sv.trump][sv.trick[0]] if sv.trick else -1)
                    follow = FOLLOW_MASK[sv.trump][led] if led >= 0 else 0
                    out.append(_Moment(i, seat, action, later[seat], follow, sv, _public(sv)))
                elif len(sv.legal) > 1:
                    sv = dataclasses.replace(sv, discard=None, farmer_gave=())
                    out.append(_Moment(i, seat, action, -1, 0, sv, None))
            try:
                state = state.apply(action, seat)
            except Exception:  # a sample in which the play could not have happened
                return None
            if action.kind == A.PLAY:
                later[seat] &= ~(1 << action.card)
        return out

    def _dealt(self, seat: int, hands: Hands, rng: random.Random) -> int:
        """The cards ``seat`` held while bidding, in the deal ``hands`` implies."""
        view = self.view
        held = hands[seat] | self._played[seat]
        if seat == view.dealer and view.upcard_taken and view.phase != "discard":
            # it took the upcard and laid down a card this seat did not see: one the
            # sample leaves out of every hand
            used = hands[0] | hands[1] | hands[2] | hands[3] | (1 << view.upcard)
            for p in self._played:
                used |= p
            down = cards_of(K.deck_mask(view) & ~used)
            if down:
                held |= 1 << down[rng.randrange(len(down))]
            held &= ~(1 << view.upcard)
        return held

    def weight(self, hands: Hands, rng: random.Random) -> float:
        """The product over the other seats' seen choices of their tempered probability."""
        moments = self._moments
        if moments is None:
            moments = self._build(hands, rng)
            if moments is None:
                # The reader could not replay the hand with this sample (a farmer's swap it
                # does not follow, say): it knows nothing of the deal, so it leaves its
                # weight as it is. 0 would rule out every sample of such a hand.
                return 1.0
            self._moments = moments
        miss = self.floor ** self.temper
        memo = self._memo
        w = 1.0
        dealt: dict[int, int] = {}
        for m in moments:
            if m.later >= 0:  # a card: held then, it and the cards played after it
                held = hands[m.seat] | m.later
                if not held >> m.action.card & 1:
                    return 0.0
                legal = held & m.follow if m.follow and held & m.follow else held
                if not legal & (legal - 1):
                    continue  # no choice
                key = (m.index, held)
            else:
                held = dealt.get(m.seat, -1)
                if held < 0:
                    held = dealt[m.seat] = self._dealt(m.seat, hands, rng)
                legal = -1
                key = (m.index, held)
            p = memo.get(key)
            if p is None:
                if m.public is not None:
                    cards = cards_of(legal)
                    feats = _play_features_all(m.public, held, cards)
                    prob = self.model.chance(feats, cards.index(m.action.card))
                else:
                    prob = self.model.bid_chance(m.view, held, m.action)
                p = max(prob, self.floor) ** self.temper
                memo[key] = p
            w *= p if p > miss else miss
        return w


@dataclass(frozen=True)
class _Moment:
    """One action another seat took in sight of the reader, with what it could see."""

    index: int
    """Its place in the history."""
    seat: int
    """Who took it."""
    action: Action
    """What it did."""
    later: int
    """A card play: the cards that seat played from this one on (held then); a bid: -1."""
    follow: int
    """A card play: the cards that follow the suit led (0 when leading)."""
    view: HandView
    """The seat's view then, its own cards to be replaced by a deal's."""
    public: _Public | None
    """A card play: what the seat could see then apart from its cards."""


__all__ = ["DATA_FILE", "FLOOR", "TEMPER", "ActionModel", "ModelReader", "features",
           "features_all", "implied_deal", "load_model"]
