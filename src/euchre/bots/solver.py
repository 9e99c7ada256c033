"""Open-hand (double-dummy) euchre solver: best play when every card is face up.

The ``hard`` computer player deals the unseen cards many times and asks this
module what each of its legal cards is worth in each deal.

A position is given as:

- ``hands``: four card masks, what seats 0-3 still hold (sitting-out seats may
  hold cards; they are ignored).
- ``trump`` (0-3), ``leader`` (the seat that led, or will lead, the current trick)
  and ``trick`` (the cards already played to it, in play order from ``leader``).
- ``out``: a 4-bit mask of seats sitting out (a lone maker's partner, a lone
  defender's partner). A trick has one card from each playing seat.
- ``maker_side`` (0 or 1, seat ``s`` is on side ``s % 2``), ``maker_tricks`` (tricks
  the makers have taken so far) and ``payoff``: six ints, ``payoff[t]`` is what the
  makers score if they finish the hand with ``t`` tricks. The payoff must be
  non-decreasing in ``t`` (every euchre scoring table is); values are returned in
  its units, makers maximizing and defenders minimizing.

Tricks still to play count the current one: ``popcount(hands[leader])`` plus one
if the leader has already played to the trick; tricks completed are five minus
that, so ``maker_tricks`` plus the remaining tricks must not exceed five.

The search (the same in the C extension ``euchre.bots._solver`` and in the
pure-Python fallback here; see the comment at the top of ``_solver.c``): the value
is ``payoff[maker_tricks + X]`` where ``X`` is how many remaining tricks the makers
take under best play, found by boolean "at least k tricks?" searches, one per step
of the payoff, with a transposition table of trick bounds at trick boundaries,
equivalent-card merging and winners-first move ordering.
"""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Sequence
from types import ModuleType

from euchre.cards import card_rank, effective_suit, trick_rank, trump_rank

__all__ = [
    "HAS_C_SOLVER",
    "SolverError",
    "minimax_reference",
    "solve",
    "solve_counted",
    "solve_many",
    "solve_value",
    "solve_value_counted",
]

_c_module: ModuleType | None
try:
    _c_module = importlib.import_module("euchre.bots._solver")
except ImportError:  # pragma: no cover - depends on the build
    _c_module = None

HAS_C_SOLVER: bool = _c_module is not None
"""Whether the compiled solver is available (else the pure-Python one is used)."""

_NCARDS = 25
_TRICKS = 5


class SolverError(ValueError):
    """Raised when a position given to the solver is not a valid euchre position."""


# ---------------------------------------------------------------------------
# Checking arguments

_Args = tuple[tuple[int, ...], int, int, tuple[int, ...], int, int, int, tuple[int, ...]]


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def _next_seat(seat: int, out: int) -> int:
    t = (seat + 1) % 4
    while (out >> t) & 1:
        t = (t + 1) % 4
    return t


def _check(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    out: int,
    maker_side: int,
    maker_tricks: int,
    payoff: Sequence[int],
) -> _Args:
    """Validate a position and return it as plain tuples of ints."""
    hs = tuple(int(h) for h in hands)
    tr = tuple(int(c) for c in trick)
    pay = tuple(int(v) for v in payoff)
    if len(hs) != 4:
        raise SolverError(f"need 4 hands, got {len(hs)}")
    if len(pay) != 6:
        raise SolverError(f"need 6 payoffs (0 to 5 tricks), got {len(pay)}")
    if any(b < a for a, b in itertools.pairwise(pay)):
        raise SolverError(f"payoff must be non-decreasing in tricks: {pay}")
    if trump not in range(4):
        raise SolverError(f"trump must be 0..3, got {trump}")
    if out not in range(16):
        raise SolverError(f"out must be a 4-bit seat mask, got {out}")
    if out & 5 == 5 or out & 10 == 10:
        raise SolverError("each side needs a playing seat")
    if leader not in range(4) or (out >> leader) & 1:
        raise SolverError(f"leader must be a playing seat, got {leader}")
    if maker_side not in (0, 1):
        raise SolverError(f"maker_side must be 0 or 1, got {maker_side}")
    seen = 0
    for h in hs:
        if h < 0 or h >> _NCARDS or seen & h:
            raise SolverError("hands must be disjoint masks of cards 0..24")
        seen |= h
    nplay = 4 - _popcount(out)
    if len(tr) >= nplay:
        raise SolverError("the current trick is already complete")
    played = [0, 0, 0, 0]
    seat = leader
    for card in tr:
        if card not in range(_NCARDS) or (seen >> card) & 1:
            raise SolverError(f"trick card {card} is not a card, or is also in a hand")
        seen |= 1 << card
        played[seat] = 1
        seat = _next_seat(seat, out)
    remaining = _popcount(hs[leader]) + (1 if tr else 0)
    for s in range(4):
        if not (out >> s) & 1 and _popcount(hs[s]) + played[s] != remaining:
            raise SolverError("the playing seats hold unequal numbers of cards")
    if maker_tricks < 0 or maker_tricks + remaining > _TRICKS:
        raise SolverError(
            f"maker_tricks {maker_tricks} plus {remaining} tricks to play exceeds five"
        )
    return hs, trump, leader, tr, out, maker_side, maker_tricks, pay


# ---------------------------------------------------------------------------
# Pure-Python search (mirrors _solver.c; keep the two in step)


def _build_tables() -> tuple[list[list[int]], list[list[int]]]:
    """Per trump: card -> bit index ``8 * effective_suit + order``, and back."""
    enc: list[list[int]] = []
    dec: list[list[int]] = []
    for t in range(4):
        e = [0] * _NCARDS
        d = [-1] * 32
        for c in range(_NCARDS):
            s = effective_suit(c, t)
            order = trump_rank(c, t) if s == t else card_rank(c)
            e[c] = 8 * s + order
            d[8 * s + order] = c
        enc.append(e)
        dec.append(d)
    return enc, dec


_ENC, _DEC = _build_tables()
_ABOVE = [(0xFF << (b & ~7)) & ~((2 << b) - 1) for b in range(32)]
"""Bits above bit ``b`` within its suit's byte."""
_SUIT_BYTE = [0xFF << (8 * s) for s in range(4)]
_U64 = (1 << 64) - 1


class _PySearch:
    """Per-call search state of the pure-Python solver."""

    def __init__(
        self, hand: list[int], out: int, trump: int, maker_side: int, remaining: int = 5
    ) -> None:
        self.hand = hand
        self.next = [_next_seat(s, out) for s in range(4)]
        self.nplay = 4 - _popcount(out)
        self.trump = trump
        self.maker_side = maker_side
        # the same fixed-size, always-replace table as the C solver, so that both visit
        # the same nodes (node counts are a search budget and must not depend on the build)
        bits = 12 if remaining >= 5 else 10 if remaining == 4 else 8
        self.tt_mask = (1 << bits) - 1
        self.tt: list[list[int] | None] = [None] * (1 << bits)
        self.nodes = 0

    def slot(self, a: int, b: int, leader: int) -> int:
        """The table slot of a trick-boundary position (the C solver's hash)."""
        h = ((a * 0x9E3779B97F4A7C15) ^ ((b + leader) * 0xC2B2AE3D27D4EB4F)) & _U64
        h ^= h >> 29
        return h & self.tt_mask

    def strength(self, b: int, led: int) -> int:
        s = b >> 3
        if s == self.trump:
            return 16 + (b & 7)
        if s == led:
            return 1 + (b & 7)
        return 0

    def gen_moves(
        self, seat: int, np: int, led: int, wseat: int, wkey: int, trickbits: int
    ) -> list[int]:
        hand = self.hand
        h = hand[seat]
        legal = h
        if np:
            f = h & _SUIT_BYTE[led]
            if f:
                legal = f
        live = hand[0] | hand[1] | hand[2] | hand[3] | trickbits
        others = live & ~h
        partner_winning = np > 0 and ((wseat ^ seat) & 1) == 0
        trump = self.trump
        scored: list[tuple[int, int]] = []
        while legal:
            low = legal & -legal
            legal ^= low
            b = low.bit_length() - 1
            above = _ABOVE[b]
            next_live = live & above
            if next_live and next_live & -next_live & h:
                continue
            s = b >> 3
            cost = (16 if s == trump else 0) + (b & 7)
            if np == 0:
                sc = 100 + cost if others & above == 0 else 40 - cost
            elif partner_winning:
                sc = 40 - cost
            elif self.strength(b, led) > wkey:
                sc = 100 - cost
            else:
                sc = 40 - cost
            scored.append((sc, b))
        scored.sort(key=lambda x: x[0], reverse=True)  # stable, like the C insertion sort
        return [b for _, b in scored]

    def play_and_search(
        self, seat: int, np: int, led: int, wseat: int, wkey: int, trickbits: int, b: int, k: int
    ) -> bool:
        bit = 1 << b
        nled = b >> 3 if np == 0 else led
        key = self.strength(b, nled)
        if key > wkey:
            wseat = seat
            wkey = key
        self.hand[seat] ^= bit
        if np + 1 == self.nplay:
            won = 1 if (wseat & 1) == self.maker_side else 0
            res = self.search_trick(wseat, k - won)
        else:
            res = self.search(self.next[seat], np + 1, nled, wseat, wkey, trickbits | bit, k)
        self.hand[seat] ^= bit
        return res

    def search(
        self, seat: int, np: int, led: int, wseat: int, wkey: int, trickbits: int, k: int
    ) -> bool:
        self.nodes += 1
        maximizing = (seat & 1) == self.maker_side
        for b in self.gen_moves(seat, np, led, wseat, wkey, trickbits):
            if self.play_and_search(seat, np, led, wseat, wkey, trickbits, b, k) == maximizing:
                return maximizing
        return not maximizing

    def last_trick_to_makers(self, leader: int) -> bool:
        hand = self.hand
        b = hand[leader].bit_length() - 1
        led = b >> 3
        wseat, wkey = leader, self.strength(b, led)
        s = self.next[leader]
        while s != leader:
            key = self.strength(hand[s].bit_length() - 1, led)
            if key > wkey:
                wseat, wkey = s, key
            s = self.next[s]
        return (wseat & 1) == self.maker_side

    def search_trick(self, leader: int, k: int) -> bool:
        if k <= 0:
            return True
        hand = self.hand
        r = _popcount(hand[leader])
        if k > r:
            return False
        if r == 1:
            self.nodes += 1
            return self.last_trick_to_makers(leader)
        a = hand[0] | hand[1] << 32
        b = hand[2] | hand[3] << 32
        i = self.slot(a, b, leader)
        e = self.tt[i]
        if e is not None and e[0] == a and e[1] == b and e[2] == leader:
            if e[3] >= k:
                return True
            if e[4] < k:
                return False
        else:
            self.tt[i] = [a, b, leader, 0, r]
        res = self.search(leader, 0, -1, leader, -1, 0, k)
        e = self.tt[i]  # the subtree may have replaced the entry
        if e is None or e[0] != a or e[1] != b or e[2] != leader:
            e = self.tt[i] = [a, b, leader, 0, r]
        if res:
            e[3] = max(e[3], k)
        else:
            e[4] = min(e[4], k - 1)
        return res


class _PyRoot:
    """The root position of a pure-Python solve, as the search sees it."""

    def __init__(self, args: _Args) -> None:
        hands, trump, leader, trick, out, maker_side, maker_tricks, payoff = args
        enc = _ENC[trump]
        hand = [0, 0, 0, 0]
        for s in range(4):
            if not (out >> s) & 1:
                for c in range(_NCARDS):
                    if (hands[s] >> c) & 1:
                        hand[s] |= 1 << enc[c]
        remaining = _popcount(hands[leader]) + (1 if trick else 0)
        self.search = _PySearch(hand, out, trump, maker_side, remaining)
        self.leader = leader
        self.np = len(trick)
        self.led = -1
        self.wseat = leader
        self.wkey = -1
        self.trickbits = 0
        seat = leader
        for i, card in enumerate(trick):
            b = enc[card]
            if i == 0:
                self.led = b >> 3
            key = self.search.strength(b, self.led)
            if key > self.wkey:
                self.wseat, self.wkey = seat, key
            self.trickbits |= 1 << b
            seat = self.search.next[seat]
        self.seat = seat
        self.remaining = _popcount(hands[leader]) + (1 if trick else 0)
        self.maker_tricks = maker_tricks
        self.payoff = payoff

    def ge(self, move: int, k: int) -> bool:
        """Can the makers take ``k`` of the remaining tricks (after ``move``, if not -1)?"""
        s = self.search
        if move >= 0:
            return s.play_and_search(
                self.seat, self.np, self.led, self.wseat, self.wkey, self.trickbits, move, k
            )
        if self.np == 0:
            return s.search_trick(self.leader, k)
        return s.search(self.seat, self.np, self.led, self.wseat, self.wkey, self.trickbits, k)

    def value(self, move: int) -> int:
        """Exact payoff value, by binary search over the steps of the payoff."""
        m, pay = self.maker_tricks, self.payoff
        steps = [x for x in range(1, self.remaining + 1) if pay[m + x] > pay[m + x - 1]]
        lo, hi = -1, len(steps) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.ge(move, steps[mid]):
                lo = mid
            else:
                hi = mid - 1
        return pay[m] if lo < 0 else pay[m + steps[lo]]

    def solve(self) -> dict[int, int]:
        """Value of each legal card of the seat to act."""
        s = self.search
        if self.remaining == 0:
            return {}
        reps = s.gen_moves(self.seat, self.np, self.led, self.wseat, self.wkey, self.trickbits)
        value_of_bit = {b: self.value(b) for b in reps}
        hand = s.hand
        h = hand[self.seat]
        legal = h
        if self.np and h & _SUIT_BYTE[self.led]:
            legal = h & _SUIT_BYTE[self.led]
        live = hand[0] | hand[1] | hand[2] | hand[3] | self.trickbits
        dec = _DEC[s.trump]
        result: dict[int, int] = {}
        for b in range(32):
            if not (legal >> b) & 1:
                continue
            rep = b
            while True:  # climb to the top of the run of equivalent cards
                next_live = live & _ABOVE[rep]
                if not (next_live and next_live & -next_live & h):
                    break
                rep = (next_live & -next_live).bit_length() - 1
            result[dec[b]] = value_of_bit[rep]
        return result


# ---------------------------------------------------------------------------
# Public API


def _use_c(use_c: bool | None) -> bool:
    if use_c is None:
        return HAS_C_SOLVER
    if use_c and not HAS_C_SOLVER:
        raise RuntimeError("the compiled solver euchre.bots._solver is not built")
    return use_c


def solve_counted(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    out: int,
    maker_side: int,
    maker_tricks: int,
    payoff: Sequence[int],
    use_c: bool | None = None,
) -> tuple[dict[int, int], int]:
    """Like :func:`solve`, also returning the nodes visited; ``use_c`` picks the backend."""
    args = _check(hands, trump, leader, trick, out, maker_side, maker_tricks, payoff)
    if _use_c(use_c):
        assert _c_module is not None
        values, nodes = _c_module.solve(*args)
        return dict(values), int(nodes)
    root = _PyRoot(args)
    return root.solve(), root.search.nodes


Position = tuple[Sequence[int], int, int, Sequence[int], int, int, int, Sequence[int]]
"""The arguments of :func:`solve` as one tuple."""


def solve_many(
    positions: Sequence[Position], use_c: bool | None = None
) -> list[tuple[dict[int, int], int]]:
    """:func:`solve_counted` for each position, in order.

    The C solver runs all the searches in one stretch without holding the GIL, so other
    Python threads (other tables of a server) run meanwhile.
    """
    if _use_c(use_c):
        assert _c_module is not None
        # the C solver checks each position as strictly as _check (raising ValueError)
        return [(v, n) for v, n in _c_module.solve_many([tuple(p) for p in positions])]
    out = []
    for args in (_check(*pos) for pos in positions):
        root = _PyRoot(args)
        out.append((root.solve(), root.search.nodes))
    return out


def solve_value_counted(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    out: int,
    maker_side: int,
    maker_tricks: int,
    payoff: Sequence[int],
    use_c: bool | None = None,
) -> tuple[int, int]:
    """Like :func:`solve_value`, also returning the nodes visited; ``use_c`` picks the backend."""
    args = _check(hands, trump, leader, trick, out, maker_side, maker_tricks, payoff)
    if _use_c(use_c):
        assert _c_module is not None
        value, nodes = _c_module.solve_value(*args)
        return int(value), int(nodes)
    root = _PyRoot(args)
    return root.value(-1), root.search.nodes


def solve(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    out: int,
    maker_side: int,
    maker_tricks: int,
    payoff: Sequence[int],
) -> dict[int, int]:
    """Value of each legal card for the seat to act, in payoff units for the makers."""
    args = (hands, trump, leader, trick, out, maker_side, maker_tricks, payoff)
    return solve_counted(*args)[0]


def solve_value(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    out: int,
    maker_side: int,
    maker_tricks: int,
    payoff: Sequence[int],
) -> int:
    """Value of the position under best play by both sides (payoff units for the makers)."""
    args = (hands, trump, leader, trick, out, maker_side, maker_tricks, payoff)
    return solve_value_counted(*args)[0]


# ---------------------------------------------------------------------------
# Reference for tests


def minimax_reference(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    out: int,
    maker_side: int,
    maker_tricks: int,
    payoff: Sequence[int],
) -> dict[int, int]:
    """Value of each legal card by plain minimax over every line of play (slow; for tests).

    Written straight from the rules with :mod:`euchre.cards`, sharing nothing with
    the solver above but the argument check. The only help it takes: each card's suit and
    trick rank under this trump asked of :mod:`euchre.cards` once per call, not once per
    line, and a cache of exact values at trick boundaries, so that whole hands finish in
    test time.
    """
    hs, trump, leader, tr, out, maker_side, maker_tricks, pay = _check(
        hands, trump, leader, trick, out, maker_side, maker_tricks, payoff
    )
    playing = [s for s in range(4) if not (out >> s) & 1]
    nplay = len(playing)
    after_seat = {s: playing[(i + 1) % nplay] for i, s in enumerate(playing)}
    suit_of = [effective_suit(c, trump) for c in range(_NCARDS)]
    suit_cards = [sum(1 << c for c in range(_NCARDS) if suit_of[c] == s) for s in range(4)]
    rank_when_led = [[trick_rank(c, trump, led) for c in range(_NCARDS)] for led in range(4)]
    cache: dict[tuple[tuple[int, ...], int, int], int] = {}
    card_lists: dict[int, list[int]] = {}

    def cards(mask: int) -> list[int]:
        found = card_lists.get(mask)
        if found is None:
            found = card_lists[mask] = [c for c in range(_NCARDS) if (mask >> c) & 1]
        return found

    def legal_cards(seat: int, held: tuple[int, ...], played: tuple[int, ...]) -> list[int]:
        mine = held[seat]
        if played:
            follow = mine & suit_cards[suit_of[played[0]]]
            if follow:
                return cards(follow)
        return cards(mine)

    def trick_won(lead: int, played: tuple[int, ...]) -> int:
        ranks = [rank_when_led[suit_of[played[0]]][c] for c in played]
        winner = lead
        for _ in range(ranks.index(max(ranks))):
            winner = after_seat[winner]
        return winner

    def from_lead(held: tuple[int, ...], lead: int, won: int) -> int:
        if held[lead] == 0:
            return pay[won]
        key = (held, lead, won)
        found = cache.get(key)
        if found is None:
            found = cache[key] = best_value(held, lead, lead, (), won)
        return found

    def child_values(held: tuple[int, ...], lead: int, seat: int, played: tuple[int, ...],
                     won: int) -> list[tuple[int, int]]:
        out = []
        last = len(played) + 1 == nplay
        nxt = after_seat[seat]
        for c in legal_cards(seat, held, played):
            after = (*held[:seat], held[seat] & ~(1 << c), *held[seat + 1:])
            if last:  # the trick is complete: its winner leads the next
                winner = trick_won(lead, (*played, c))
                out.append((c, from_lead(after, winner,
                                         won + (1 if winner % 2 == maker_side else 0))))
            else:
                out.append((c, best_value(after, lead, nxt, (*played, c), won)))
        return out

    def best_value(held: tuple[int, ...], lead: int, seat: int, played: tuple[int, ...],
                   won: int) -> int:
        values = [v for _, v in child_values(held, lead, seat, played, won)]
        return max(values) if seat % 2 == maker_side else min(values)

    if _popcount(hs[leader]) + (1 if tr else 0) == 0:
        return {}
    seat = leader
    for _ in tr:
        seat = after_seat[seat]
    return dict(child_values(hs, leader, seat, tr, maker_tricks))
