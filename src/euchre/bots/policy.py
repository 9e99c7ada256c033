"""Bidding by hand-value tables: what ordering, calling, going alone and passing are worth.

The tables (``data/policy.json``, fitted offline by ``scripts/research/train_policy.py``) give, for
each bidding position (round one or two, seat relative to the dealer), linear weights over
a few hand features (bowers, trumps, off aces, voids, where the upcard goes). They estimate
the expected points for the bidder's side of calling, of going alone and of passing, and
the chances of making it and of a march. :func:`bid_estimates` turns them into one
:class:`BidEstimate` per legal bid; :func:`utility` makes the choice score-aware.
"""

from __future__ import annotations

import functools
import json
import math
import operator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .. import actions as A
from ..actions import Action
from ..cards import (
    ACE,
    JACK,
    JOKER,
    KING,
    Card,
    card_rank,
    card_suit,
    cards_of,
    effective_suit,
    trump_rank,
)
from ..rules import Rules
from ..view import HandView

FEATURES: tuple[str, ...] = (
    "bias",
    "joker",
    "right",
    "left",
    "trump_ace",
    "trump_king",
    "low_trumps",
    "three_trumps",
    "four_trumps",
    "off_aces",
    "off_kings",
    "voids",
    "up_to_partner",
    "up_to_opponent_bower",
    "up_to_opponent",
    "next_suit",
)
"""The names of the hand features, in the order of the table weights."""

TARGETS: tuple[str, ...] = ("call", "pass", "make", "march", "alone", "make_alone",
                            "march_alone")
"""What the tables estimate: points for calling, passing and calling alone; chances."""

DATA_FILE = "policy.json"
"""The shipped tables, in ``euchre/bots/data``."""


def dealer_discard(hand: int, trump: int) -> Card:
    """A plain dealer's discard from six cards: the weakest off card, keeping aces."""
    cards = cards_of(hand)
    off = [c for c in cards if effective_suit(c, trump) != trump]
    if not off:
        return min(cards, key=lambda c: trump_rank(c, trump))
    counts = [0, 0, 0, 0]
    for c in off:
        counts[card_suit(c)] += 1

    def key(c: Card) -> tuple[int, int, int]:
        return (card_rank(c) == ACE, counts[card_suit(c)], card_rank(c))

    return min(off, key=key)


def _masks(trump: int) -> tuple[int, ...]:
    """Per trump: right, left, ace, king, low trumps, all trumps, off aces, off kings, suits."""
    trumps = sum(1 << c for c in range(25) if effective_suit(c, trump) == trump)
    right = 1 << (trump * 6 + JACK)
    left = 1 << ((3 - trump) * 6 + JACK)
    ace = 1 << (trump * 6 + ACE)
    king = 1 << (trump * 6 + KING)
    low = trumps & ~(right | left | ace | king | 1 << JOKER)
    off = ((1 << 24) - 1) & ~trumps
    off_aces = sum(1 << c for c in range(24) if off >> c & 1 and card_rank(c) == ACE)
    off_kings = sum(1 << c for c in range(24) if off >> c & 1 and card_rank(c) == KING)
    suits = tuple(
        sum(1 << c for c in range(24) if off >> c & 1 and card_suit(c) == s)
        for s in range(4) if s != trump
    )
    return (right, left, ace, king, low, trumps, off_aces, off_kings, *suits)


_MASKS = tuple(_masks(t) for t in range(4))
_JOKER_BIT = 1 << JOKER


def bid_features(hand: int, trump: int, pos: int, round_: int, upcard: Card) -> list[float]:
    """The feature vector of a five-card hand (the dealer's after the exchange) for ``trump``.

    ``pos`` is the seat relative to the dealer (1 left of the dealer … 0 the dealer),
    ``round_`` 1 (upcard suit) or 2 (another suit named).
    """
    right, left, ace, king, low, trumps, off_aces, off_kings, s1, s2, s3 = _MASKS[trump]
    n_trump = (hand & trumps).bit_count()
    voids = (not hand & s1) + (not hand & s2) + (not hand & s3)
    up_partner = up_opp_bower = up_opp = 0.0
    if round_ == 1 and upcard != JOKER:
        strength = (trump_rank(upcard, trump) + 1) / 7.0
        if pos == 2:
            up_partner = strength
        elif pos in (1, 3):
            if card_rank(upcard) == JACK:
                up_opp_bower = 1.0
            else:
                up_opp = strength
    next_suit = 1.0 if round_ == 2 and upcard != JOKER and trump == 3 - card_suit(upcard) else 0.0
    return [
        1.0,
        1.0 if hand & _JOKER_BIT else 0.0,
        1.0 if hand & right else 0.0,
        1.0 if hand & left else 0.0,
        1.0 if hand & ace else 0.0,
        1.0 if hand & king else 0.0,
        float((hand & low).bit_count()),
        1.0 if n_trump >= 3 else 0.0,
        1.0 if n_trump >= 4 else 0.0,
        float((hand & off_aces).bit_count()),
        float((hand & off_kings).bit_count()),
        float(voids),
        up_partner,
        up_opp_bower,
        up_opp,
        next_suit,
    ]


def heuristic_strength(features: list[float]) -> float:
    """A rough hand value in points, used when no table is shipped."""
    (_, joker, right, left, t_ace, t_king, low, three, four, aces, kings, voids,
     up_p, up_ob, up_o, nxt) = features
    s = (3.2 * joker + 3.0 * right + 2.5 * left + 2.0 * t_ace + 1.6 * t_king + 1.2 * low
         + 1.0 * three + 1.0 * four + 1.0 * aces + 0.3 * kings + 0.6 * voids
         + 2.0 * up_p - 2.5 * up_ob - 1.0 * up_o + 0.5 * nxt)
    return (s - 8.5) / 3.0


Weights = dict[str, dict[str, list[float]]]
Buckets = dict[str, list[float | None]]


@functools.cache
def _load() -> dict[str, Any]:
    try:
        text = resources.files("euchre.bots").joinpath("data", DATA_FILE).read_text()
    except (FileNotFoundError, OSError):
        return {}
    data: dict[str, Any] = json.loads(text)
    if tuple(data.get("features", ())) != FEATURES or tuple(data.get("targets", ())) != TARGETS:
        return {}
    return data


def load_tables() -> dict[str, Weights]:
    """The shipped linear weights by rules variant (``classic``, ``stick``); empty if none."""
    variants: dict[str, Weights] = _load().get("variants", {})
    return variants


def load_buckets() -> dict[str, dict[str, Buckets]]:
    """The shipped bucket averages by rules variant and group; empty if none."""
    buckets: dict[str, dict[str, Buckets]] = _load().get("buckets", {})
    return buckets


def variant(rules: Rules) -> str:
    """Which table a table's rules use: ``stick`` when the dealer is stuck, else ``classic``."""
    return "stick" if rules.stick_the_dealer else "classic"


@dataclass(frozen=True)
class CallValue:
    """What calling one suit is worth, from the tables, for the bidder's side."""

    points: float
    """Expected points for the bidder's side if the bidder calls (not alone)."""
    make: float
    """Chance that the makers take three tricks or more."""
    march: float
    """Chance that the makers take all five."""
    alone_points: float
    """Expected points for the bidder's side if the bidder goes alone."""
    make_alone: float
    """Chance of making it alone."""
    march_alone: float
    """Chance of taking all five alone."""
    pass_points: float
    """Expected points for the bidder's side if the bidder passes instead."""


def _dot(w: list[float], x: list[float]) -> float:
    return float(sum(map(operator.mul, w, x)))


def _clamp(p: float) -> float:
    return 0.0 if p < 0.0 else 1.0 if p > 1.0 else p


def call_value(rules: Rules, features: list[float], pos: int, round_: int) -> CallValue:
    """The table's estimates for one hand and suit (``features`` from :func:`bid_features`)."""
    return _call_value(variant(rules), features, pos, round_)


def _call_value(name: str, features: list[float], pos: int, round_: int) -> CallValue:
    key = f"{round_}-{pos}"
    tables = load_tables().get(name)
    buckets = load_buckets().get(name, {}).get(key)
    return estimate(tables.get(key) if tables else None, features, buckets)


ALONE_CALIBRATION = 0.3
"""Points added to the tables' value of going alone. The tables are fitted on open-hand
play, and lone hands do better in real play than open-handed (over 600 hands of hard
against hard, lone calls the tables valued at 1.96 points on average scored 2.28)."""

SHRINK = 8.0
"""How many deals' weight the linear fit gets against a bucket's own average."""


def bucket_key(features: list[float]) -> str:
    """The hand's bucket: top trumps held, trump count, off aces, voids, where the upcard goes."""
    (_, joker, right, left, t_ace, t_king, low, _, _, aces, _, voids, up_p, up_ob, up_o,
     nxt) = features
    top = int(joker) * 8 + int(right) * 4 + int(left) * 2 + int(t_ace)
    n = int(joker + right + left + t_ace + t_king + low)
    up = up_p or up_o
    upb = 3 if up_ob else (2 if up >= 0.99 else 1 if up >= 4 / 7 - 1e-9 else 0)
    return f"{top},{n},{int(aces)},{int(voids)},{upb},{int(nxt)}"



def estimate(
    group: dict[str, list[float]] | None, features: list[float], buckets: Buckets | None = None
) -> CallValue:
    """The estimates of one table group (None: the built-in heuristic) for a feature vector.

    The linear fit is blended with the average of the hand's bucket, weighted by how many
    deals the bucket saw (:data:`SHRINK`).
    """
    if group is None:
        s = heuristic_strength(features)
        make = _clamp(0.6 + 0.25 * s)
        march = _clamp(0.15 + 0.15 * s)
        pts = 3.0 * make - 2.0 + march
        return CallValue(pts, make, march, pts - 1.0, make, _clamp(march - 0.1), 0.0)
    values = [_dot(group[t], features) for t in TARGETS]
    cell = buckets.get(bucket_key(features)) if buckets else None
    if cell is not None:
        n = float(cell[0] or 0.0)
        for i in range(len(TARGETS)):
            mean = cell[1 + i]
            if mean is not None:
                values[i] = (n * mean + SHRINK * values[i]) / (n + SHRINK)
    call, pass_, make, march, alone, make_alone, march_alone = values
    make = _clamp(make)
    make_alone = _clamp(make_alone)
    return CallValue(
        points=call,
        make=make,
        march=min(make, _clamp(march)),
        alone_points=alone + ALONE_CALIBRATION,
        make_alone=make_alone,
        march_alone=min(make_alone, _clamp(march_alone)),
        pass_points=pass_,
    )


# -- score awareness ---------------------------------------------------------------------

_HAND_POINTS = ((1, 0.33), (2, 0.15), (4, 0.02))
"""A side's chance of scoring 1, 2 or 4 in a hand (the same for both sides)."""


@functools.cache
def win_chance(ours: int, theirs: int, game_to: int) -> float:
    """Rough chance of winning the game from a score, if every hand were a coin toss."""
    if ours >= game_to:
        return 1.0
    if theirs >= game_to:
        return 0.0
    total = 0.0
    for pts, p in _HAND_POINTS:
        total += p * win_chance(min(ours + pts, game_to), theirs, game_to)
        total += p * (1.0 - win_chance(min(theirs + pts, game_to), ours, game_to))
    return total


def utility(score: tuple[int, int], side: int, ours: int, theirs: int, game_to: int) -> float:
    """The worth for ``side`` of a hand scoring ``ours`` and ``theirs``, in points at 0-0.

    The change in the chance of winning the game, scaled so that one point at 0-0 is
    worth about one; at 9-x a euchre against you costs the game, and it shows.
    """
    a, b = score[side], score[1 - side]
    base = win_chance(a, b, game_to)
    scale = _slope(game_to)
    return (win_chance(a + ours, b + theirs, game_to) - base) / scale


@functools.cache
def _slope(game_to: int) -> float:
    return (win_chance(1, 0, game_to) - win_chance(0, 1, game_to)) / 2.0


def call_utility(
    score: tuple[int, int], side: int, game_to: int, make: float, march: float, alone: bool,
    defended_alone: bool = False,
) -> float:
    """Score-aware worth of making trump with these chances of making it and of a march."""
    top = 4 if alone else 2
    euchre = 4 if defended_alone else 2
    return (
        (1.0 - make) * utility(score, side, 0, euchre, game_to)
        + (make - march) * utility(score, side, 1, 0, game_to)
        + march * utility(score, side, top, 0, game_to)
    )


PASS_DECIDED = 0.9
"""Chance that someone scores in a hand after a pass (the rest are thrown in)."""
PASS_ONE = 0.6
"""Of the hands a side scores after a pass, the share scoring one point (the rest two)."""


def linear_utility(score: tuple[int, int], side: int, game_to: int, points: float) -> float:
    """Score-aware worth of a small change in expected points (linear around the score)."""
    up = utility(score, side, 1, 0, game_to)
    down = utility(score, side, 0, 1, game_to)
    return points * (up - down) / 2.0


def pass_utility(score: tuple[int, int], side: int, game_to: int, points: float) -> float:
    """Score-aware worth of passing, from its expected points, as a bounded expectation.

    Passing hands the hand to the others: some side scores 1 or 2 (:data:`PASS_ONE`) in
    :data:`PASS_DECIDED` of hands, in proportions that give ``points`` on average. Points
    past what wins the game are worth nothing, so a pass can never look better than a
    call that surely wins the game (a linear reading of the points once made hard pass a
    lay-down at 9-9: "passing is worth 2.4 points" counted as more than the game).
    """
    size = PASS_ONE + 2.0 * (1.0 - PASS_ONE)
    ours = min(PASS_DECIDED, max(0.0, (points / size + PASS_DECIDED) / 2.0))
    theirs = PASS_DECIDED - ours
    win = PASS_ONE * utility(score, side, 1, 0, game_to) + (1.0 - PASS_ONE) * utility(
        score, side, 2, 0, game_to)
    lose = PASS_ONE * utility(score, side, 0, 1, game_to) + (1.0 - PASS_ONE) * utility(
        score, side, 0, 2, game_to)
    return ours * win + theirs * lose


def bid_utility(
    score: tuple[int, int], side: int, game_to: int, points: float, make: float, march: float,
    alone: bool,
) -> float:
    """Score-aware worth of a call: the worth of its outcomes (euchred, made, march).

    The outcomes' chances come from the tables; the small gap between the tables' expected
    points and the points those chances imply is added linearly around the score.
    """
    top = 4 if alone else 2
    mean = -2.0 * (1.0 - make) + (make - march) + top * march
    return (
        call_utility(score, side, game_to, make, march, alone)
        + linear_utility(score, side, game_to, points - mean)
    )


# -- estimates for a view ------------------------------------------------------------------


@dataclass(frozen=True)
class BidEstimate:
    """One bidding action and what the tables say it is worth."""

    action: Action
    """The bid."""
    expected_points: float
    """Expected points for the bidder's side."""
    make_chance: float | None
    """Chance the bidder's side makes it (None for a pass)."""
    utility: float
    """Score-aware worth used to choose (points at 0-0)."""


def position(view: HandView) -> int:
    """The seat relative to the dealer: 1 left of the dealer, 2 partner, 3 right, 0 dealer."""
    return (view.seat - view.dealer) % 4


def hand_for(view: HandView, trump: int, round_: int) -> int:
    """The five cards the bidder would hold with ``trump`` (the dealer after the exchange)."""
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    if view.seat == view.dealer and (round_ == 1 or view.upcard == JOKER):
        if view.upcard != JOKER or not hand >> JOKER & 1:
            hand |= 1 << view.upcard
        if bin(hand).count("1") > 5:
            hand &= ~(1 << dealer_discard(hand, trump))
    return hand


def _round(view: HandView) -> int:
    return 1 if view.phase in ("order", "benny") else 2


def bid_estimates(view: HandView) -> list[BidEstimate]:
    """One estimate per legal bid (order, call, alone, pass), best (highest utility) first."""
    rules = view.rules
    side = view.seat % 2
    round_ = _round(view)
    pos = position(view)
    score = view.score
    game_to = rules.game_to
    values: dict[int, CallValue] = {}
    out: list[BidEstimate] = []
    pass_pts: list[float] = []
    for action in view.legal:
        if action.kind == A.ORDER:
            suit = card_suit(view.upcard)
        elif action.kind == A.CALL:
            suit = action.suit
        else:
            continue
        if suit not in values:
            hand = hand_for(view, suit, round_)
            values[suit] = call_value(rules, bid_features(hand, suit, pos, round_, view.upcard),
                                      pos, round_)
            pass_pts.append(values[suit].pass_points)
        v = values[suit]
        alone = action.alone
        # going alone when a plain march already wins the game throws points away
        pts = v.alone_points if alone else v.points
        if alone and score[side] + 2 >= game_to:
            u = -100.0
        else:
            u = bid_utility(score, side, game_to, pts, v.make_alone if alone else v.make,
                            v.march_alone if alone else v.march, alone)
        out.append(BidEstimate(action, pts, v.make_alone if alone else v.make, u))
    if A.PASS in view.legal:
        pts = sum(pass_pts) / len(pass_pts) if pass_pts else 0.0
        out.append(BidEstimate(A.PASS, pts, None, pass_utility(score, side, game_to, pts)))
    out.sort(key=lambda e: -e.utility)
    return out


def call_probability(
    rules: Rules, hand: int, trump: int, pos: int, round_: int, upcard: Card,
    temperature: float = 0.35,
) -> float:
    """How likely a player with ``hand`` is to call ``trump`` here (for reading the bidding)."""
    return _call_probability(variant(rules), hand, trump, pos, round_, upcard, temperature)


@functools.lru_cache(maxsize=1 << 16)
def _call_probability(
    name: str, hand: int, trump: int, pos: int, round_: int, upcard: Card, temperature: float
) -> float:
    # sampling asks this for the same few hands again and again: a pure function, cached
    features = bid_features(hand, trump, pos, round_, upcard)
    key = f"{round_}-{pos}"
    tables = load_tables().get(name)
    group = tables.get(key) if tables else None
    if group is None:
        v = estimate(None, features)
        gain = max(v.points, v.alone_points) - v.pass_points
    else:
        # only the three values the gain needs, blended with the bucket as estimate() does
        cell = load_buckets().get(name, {}).get(key, {}).get(bucket_key(features))
        call, pass_, alone = (_dot(group[t], features) for t in ("call", "pass", "alone"))
        if cell is not None:
            n = float(cell[0] or 0.0)
            blended = []
            for i, value in ((0, call), (1, pass_), (4, alone)):
                mean = cell[1 + i]
                blended.append(value if mean is None else (n * mean + SHRINK * value) / (
                    n + SHRINK))
            call, pass_, alone = blended
        gain = max(call, alone + ALONE_CALIBRATION) - pass_
    x = max(-30.0, min(30.0, gain / temperature))
    p = 1.0 / (1.0 + math.exp(-x))
    return 0.1 + 0.8 * p
