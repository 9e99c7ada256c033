"""The observation vector: one seat's view of the hand, as 0/1 values, field by field.

Seats in the vector are relative to the observer: 0 is the observer, 1 the seat on its
left (next to play), 2 its partner, 3 the seat on its right. "Us" is the observer's side.
Cards are numbered as in :mod:`euchre.cards` (``suit * 6 + rank``, clubs diamonds hearts
spades, nine to ace; 24 is the joker), so a 25-wide field holds one bit per card.
One-hot fields with a range ("0-10") light the slot of the value.

=====================  ====  ===============================================================
field                  size  meaning
=====================  ====  ===============================================================
``rules``              14    stick the dealer; a throw-in keeps the dealer; defend alone;
                             Canadian loner; farmer's hand nines-and-tens; farmer's hand
                             three-nines-two-tens; the Benny; loner-left lead; the dealer
                             exchanges when the partner is alone; flat renege penalty;
                             game to 5, 7, 10, 11 (one-hot)
``score_us``           11    our game score before this hand, 0-10 (one-hot)
``score_them``         11    their game score before this hand, 0-10 (one-hot)
``dealer``             4     the dealer (relative seat, one-hot)
``phase``              8     farmer, order, benny, call, discard, defend, play, over
``to_act``             4     the seat to act (relative, one-hot; none once the hand is over)
``hand``               25    the cards the observer holds now
``upcard``             25    the card turned up
``upcard_taken``       1     the dealer has taken the upcard into hand
``passed_first``       4     seats that passed in round one (ordering up)
``passed_second``      4     seats that passed in round two (naming trump)
``declined_defend``    4     defenders who passed on defending alone
``trump``              4     the trump suit, once made
``maker``              4     the seat that made trump
``alone``              1     the maker went alone
``lone_defender``      4     the seat defending alone
``sitting_out``        4     seats that sit out this hand
``farmer``             4     the seat that was dealt a farmer's hand and decided on it
``farmer_choice``      3     that seat kept, swapped, or threw the hand in
``farmer_gave``        25    the cards the observer put into the kitty with a farmer's swap
``discard``            25    the card the observer discarded as dealer
``leader``             4     the leader of the trick in progress (or of the last trick)
``trick``              100   4 x 25: the card each relative seat played to the trick in
                             progress
``played``             100   4 x 25: the cards each relative seat played to completed tricks
``tricks_us``          6     tricks our side took this hand, 0-5 (one-hot)
``tricks_them``        6     tricks their side took this hand, 0-5 (one-hot)
``points_us``          5     points our side scored with the hand, 0-4 (one-hot; 0 until over)
``points_them``        5     points their side scored with the hand, 0-4 (one-hot)
``thrown_in``          1     the hand was thrown in
=====================  ====  ===============================================================

:func:`encode_view` builds the vector from a :class:`~euchre.view.HandView` and nothing
else; it is the definition. The environment keeps one vector per seat up to date step by
step (:class:`Tracker`), writing into a seat's vector only what that seat sees; a test
checks the two agree for every seat after every step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .. import actions as A
from ..actions import Action
from ..hand import PHASE_NAMES, HandState
from ..rules import GAME_LENGTHS, Rules
from ..view import HandView

FIELDS: tuple[tuple[str, int], ...] = (
    ("rules", 14),
    ("score_us", 11),
    ("score_them", 11),
    ("dealer", 4),
    ("phase", 8),
    ("to_act", 4),
    ("hand", 25),
    ("upcard", 25),
    ("upcard_taken", 1),
    ("passed_first", 4),
    ("passed_second", 4),
    ("declined_defend", 4),
    ("trump", 4),
    ("maker", 4),
    ("alone", 1),
    ("lone_defender", 4),
    ("sitting_out", 4),
    ("farmer", 4),
    ("farmer_choice", 3),
    ("farmer_gave", 25),
    ("discard", 25),
    ("leader", 4),
    ("trick", 100),
    ("played", 100),
    ("tricks_us", 6),
    ("tricks_them", 6),
    ("points_us", 5),
    ("points_them", 5),
    ("thrown_in", 1),
)
"""The fields of the vector in order, as (name, size)."""


def _offsets() -> dict[str, int]:
    out: dict[str, int] = {}
    pos = 0
    for name, size in FIELDS:
        out[name] = pos
        pos += size
    return out


OFFSETS: dict[str, int] = _offsets()
"""Where each field starts in the vector."""

SIZE: int = sum(size for _, size in FIELDS)
"""The length of the vector."""

_RULES = OFFSETS["rules"]
_SCORE_US = OFFSETS["score_us"]
_SCORE_THEM = OFFSETS["score_them"]
_DEALER = OFFSETS["dealer"]
_PHASE = OFFSETS["phase"]
_TO_ACT = OFFSETS["to_act"]
_HAND = OFFSETS["hand"]
_UPCARD = OFFSETS["upcard"]
_TAKEN = OFFSETS["upcard_taken"]
_PASSED1 = OFFSETS["passed_first"]
_PASSED2 = OFFSETS["passed_second"]
_DECLINED = OFFSETS["declined_defend"]
_TRUMP = OFFSETS["trump"]
_MAKER = OFFSETS["maker"]
_ALONE = OFFSETS["alone"]
_LONE_DEF = OFFSETS["lone_defender"]
_OUT = OFFSETS["sitting_out"]
_FARMER = OFFSETS["farmer"]
_FARMER_CHOICE = OFFSETS["farmer_choice"]
_FARMER_GAVE = OFFSETS["farmer_gave"]
_DISCARD = OFFSETS["discard"]
_LEADER = OFFSETS["leader"]
_TRICK = OFFSETS["trick"]
_PLAYED = OFFSETS["played"]
_TRICKS_US = OFFSETS["tricks_us"]
_TRICKS_THEM = OFFSETS["tricks_them"]
_POINTS_US = OFFSETS["points_us"]
_POINTS_THEM = OFFSETS["points_them"]
_THROWN = OFFSETS["thrown_in"]

_OVER = PHASE_NAMES.index("over")
_ORDER = PHASE_NAMES.index("order")
_CALL = PHASE_NAMES.index("call")
_DISCARD_PHASE = PHASE_NAMES.index("discard")
_DEFEND = PHASE_NAMES.index("defend")
_FARMER_KINDS = (A.FARMER_KEEP, A.FARMER_SWAP, A.FARMER_THROW)

REL: tuple[tuple[int, ...], ...] = tuple(tuple((x - s) % 4 for x in range(4)) for s in range(4))
"""``REL[observer][seat]``: ``seat`` relative to ``observer``."""


def rules_bits(rules: Rules) -> list[int]:
    """The ``rules`` field for a set of rules (14 values)."""
    return [
        int(rules.stick_the_dealer),
        int(rules.all_pass == "same-dealer"),
        int(rules.defend_alone),
        int(rules.canadian_loner),
        int(rules.farmers_hand == "nines-and-tens"),
        int(rules.farmers_hand == "three-nines-two-tens"),
        int(rules.benny),
        int(rules.lead_when_sitting_out == "loner-left"),
        int(rules.dealer_exchanges_when_partner_alone),
        int(rules.renege_penalty == "flat"),
        *(int(rules.game_to == n) for n in GAME_LENGTHS),
    ]


def playing_order(leader: int, out: Sequence[int], count: int) -> list[int]:
    """The seats that played ``count`` cards to a trick from ``leader``, skipping ``out``."""
    seats = []
    seat = leader
    for _ in range(count):
        seats.append(seat)
        seat = (seat + 1) % 4
        while seat in out:
            seat = (seat + 1) % 4
    return seats


def encode_view(view: HandView) -> npt.NDArray[np.int8]:
    """The observation vector of a seat's view (see the module docstring for each field)."""
    v = bytearray(SIZE)
    me = view.seat
    rel = REL[me]
    us = me % 2
    for i, bit in enumerate(rules_bits(view.rules)):
        v[_RULES + i] = bit
    v[_SCORE_US + min(view.score[us], 10)] = 1
    v[_SCORE_THEM + min(view.score[1 - us], 10)] = 1
    v[_DEALER + rel[view.dealer]] = 1
    v[_PHASE + PHASE_NAMES.index(view.phase)] = 1
    if view.to_act is not None:
        v[_TO_ACT + rel[view.to_act]] = 1
    for c in view.hand:
        v[_HAND + c] = 1
    v[_UPCARD + view.upcard] = 1
    v[_TAKEN] = int(view.upcard_taken)
    # Bids: passes before anyone makes trump are round one until four have passed.
    hidden = iter(view.hidden_kinds)
    passes = 0
    stage = 1  # 1: round one, 2: round two, 3: trump is made
    for seat, action in view.history:
        kind = next(hidden) if action is None else action.kind
        if kind == A.PASS_KIND:
            if stage == 1:
                v[_PASSED1 + rel[seat]] = 1
                passes += 1
                if passes == 4:
                    stage = 2
            elif stage == 2:
                v[_PASSED2 + rel[seat]] = 1
            else:
                v[_DECLINED + rel[seat]] = 1
        elif kind in (A.ORDER, A.CALL):
            stage = 3
        elif kind in _FARMER_KINDS:
            v[_FARMER + rel[seat]] = 1
            v[_FARMER_CHOICE + _FARMER_KINDS.index(kind)] = 1
    if view.trump >= 0:
        v[_TRUMP + view.trump] = 1
    if view.maker >= 0:
        v[_MAKER + rel[view.maker]] = 1
    v[_ALONE] = int(view.alone)
    if view.lone_defender >= 0:
        v[_LONE_DEF + rel[view.lone_defender]] = 1
    for seat in view.sitting_out:
        v[_OUT + rel[seat]] = 1
    for c in view.farmer_gave:
        v[_FARMER_GAVE + c] = 1
    if view.discard is not None:
        v[_DISCARD + view.discard] = 1
    if view.leader >= 0:
        v[_LEADER + rel[view.leader]] = 1
        seats = playing_order(view.leader, view.sitting_out, len(view.trick))
        for seat, c in zip(seats, view.trick, strict=True):
            v[_TRICK + 25 * rel[seat] + c] = 1
    for leader, cards, _ in view.tricks:
        for seat, c in zip(playing_order(leader, view.sitting_out, len(cards)), cards,
                           strict=True):
            v[_PLAYED + 25 * rel[seat] + c] = 1
    v[_TRICKS_US + view.tricks_won[us]] = 1
    v[_TRICKS_THEM + view.tricks_won[1 - us]] = 1
    v[_POINTS_US + min(view.points[us], 4)] = 1
    v[_POINTS_THEM + min(view.points[1 - us], 4)] = 1
    v[_THROWN] = int(view.thrown_in)
    return np.frombuffer(bytes(v), dtype=np.int8).copy()


def describe(vector: Sequence[int] | npt.NDArray[np.int8]) -> dict[str, list[int]]:
    """The vector split into its named fields (for reading and debugging)."""
    values = [int(x) for x in vector]
    if len(values) != SIZE:
        raise ValueError(f"an observation has {SIZE} values, not {len(values)}")
    return {name: values[OFFSETS[name] : OFFSETS[name] + size] for name, size in FIELDS}


class Tracker:
    """The four seats' observation vectors, kept up to date action by action.

    Each step writes into a seat's vector only what that seat sees: its own cards, its own
    discard or farmer's swap, and the public actions. The result equals
    :func:`encode_view` of the seat's view after every step (tests check it).
    """

    __slots__ = ("_masks", "_rules", "_trick", "rows")

    def __init__(self, rules: Rules) -> None:
        """Vectors for a table with these rules; call :meth:`start` for each hand."""
        self._rules = bytes(rules_bits(rules))
        self.rows: list[bytearray] = [bytearray(SIZE) for _ in range(4)]
        """Each seat's vector (do not change it; copy it to hand it out)."""
        self._masks = [0, 0, 0, 0]
        self._trick: list[tuple[int, int]] = []

    def start(self, state: HandState) -> None:
        """Write every seat's vector for a freshly dealt hand."""
        upcard = state.upcard
        phase = state.phase
        to_act = state.to_act
        dealer = state.dealer
        score = state.score
        for seat in range(4):
            v = self.rows[seat]
            v[:] = bytes(SIZE)
            v[_RULES : _RULES + 14] = self._rules
            rel = REL[seat]
            us = seat % 2
            v[_SCORE_US + min(score[us], 10)] = 1
            v[_SCORE_THEM + min(score[1 - us], 10)] = 1
            v[_DEALER + rel[dealer]] = 1
            v[_PHASE + phase] = 1
            if to_act is not None:
                v[_TO_ACT + rel[to_act]] = 1
            mask = state.hand_mask(seat)
            self._masks[seat] = mask
            while mask:
                low = mask & -mask
                v[_HAND + low.bit_length() - 1] = 1
                mask ^= low
            v[_UPCARD + upcard] = 1
            v[_TRICKS_US] = v[_TRICKS_THEM] = 1
            v[_POINTS_US] = v[_POINTS_THEM] = 1
        self._trick = []

    def step(self, before: HandState, after: HandState, actor: int, action: Action) -> None:
        """Bring the vectors from ``before`` to ``after``, the state once ``actor`` took
        ``action``."""
        rows = self.rows
        kind = action.kind
        if kind == A.PLAY:
            card = action.card
            bit = 1 << card
            self._masks[actor] ^= bit
            rows[actor][_HAND + card] = 0
            won = after.tricks_won
            if won == before.tricks_won:
                for seat in range(4):
                    rows[seat][_TRICK + 25 * REL[seat][actor] + card] = 1
                self._trick.append((actor, card))
            else:
                self._trick.append((actor, card))
                for seat in range(4):
                    v = rows[seat]
                    rel = REL[seat]
                    for s, c in self._trick:
                        v[_TRICK + 25 * rel[s] + c] = 0
                        v[_PLAYED + 25 * rel[s] + c] = 1
                    us = seat % 2
                    old = before.tricks_won
                    v[_TRICKS_US + old[us]] = 0
                    v[_TRICKS_US + won[us]] = 1
                    v[_TRICKS_THEM + old[1 - us]] = 0
                    v[_TRICKS_THEM + won[1 - us]] = 1
                self._trick = []
        else:
            self._bid(before, after, actor, action)
        leader = after.trick[0]
        if leader != before.trick[0]:
            old_leader = before.trick[0]
            for seat in range(4):
                if old_leader >= 0:
                    rows[seat][_LEADER + REL[seat][old_leader]] = 0
                rows[seat][_LEADER + REL[seat][leader]] = 1
        if after.to_act != before.to_act:
            old_act = before.to_act
            new_act = after.to_act
            for seat in range(4):
                v = rows[seat]
                if old_act is not None:
                    v[_TO_ACT + REL[seat][old_act]] = 0
                if new_act is not None:
                    v[_TO_ACT + REL[seat][new_act]] = 1
        if after.phase != before.phase:
            self._phase(before, after)

    def _bid(self, before: HandState, after: HandState, actor: int, action: Action) -> None:
        rows = self.rows
        kind = action.kind
        if kind == A.PASS_KIND:
            phase = before.phase
            field = _PASSED1 if phase == _ORDER else _PASSED2 if phase == _CALL else _DECLINED
            for seat in range(4):
                rows[seat][field + REL[seat][actor]] = 1
        elif kind == A.DISCARD:
            rows[actor][_DISCARD + action.card] = 1
        elif kind in _FARMER_KINDS:
            choice = _FARMER_KINDS.index(kind)
            for seat in range(4):
                rows[seat][_FARMER + REL[seat][actor]] = 1
                rows[seat][_FARMER_CHOICE + choice] = 1
            for c in action.cards:
                rows[actor][_FARMER_GAVE + c] = 1
        if after.trump != before.trump:
            for seat in range(4):
                v = rows[seat]
                v[_TRUMP + after.trump] = 1
                v[_MAKER + REL[seat][after.maker]] = 1
                v[_ALONE] = int(after.alone)
        if after.lone_defender != before.lone_defender:
            for seat in range(4):
                rows[seat][_LONE_DEF + REL[seat][after.lone_defender]] = 1
        if after.out != before.out:
            out = after.out
            for seat in range(4):
                for s in range(4):
                    rows[seat][_OUT + REL[seat][s]] = out >> s & 1
        # The dealer's hand changes when the upcard is taken and when it discards; a farmer's
        # when it swaps.
        masks = self._masks
        for seat in range(4):
            mask = after.hand_mask(seat)
            diff = mask ^ masks[seat]
            if diff:
                masks[seat] = mask
                v = rows[seat]
                while diff:
                    low = diff & -diff
                    v[_HAND + low.bit_length() - 1] = 1 if mask & low else 0
                    diff ^= low

    def _phase(self, before: HandState, after: HandState) -> None:
        rows = self.rows
        old = before.phase
        new = after.phase
        for seat in range(4):
            rows[seat][_PHASE + old] = 0
            rows[seat][_PHASE + new] = 1
        if new == _DISCARD_PHASE:
            for seat in range(4):
                rows[seat][_TAKEN] = 1
        if new == _OVER:
            points = after.points
            thrown = int(after.thrown_in)
            for seat in range(4):
                v = rows[seat]
                us = seat % 2
                v[_POINTS_US] = v[_POINTS_THEM] = 0
                v[_POINTS_US + min(points[us], 4)] = 1
                v[_POINTS_THEM + min(points[1 - us], 4)] = 1
                v[_THROWN] = thrown

