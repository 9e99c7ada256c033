"""The state of one hand (one deal): bidding, the dealer's exchange, going alone, play, score.

A :class:`HandState` is immutable: :meth:`HandState.apply` returns the next state.
Seats are 0-3 clockwise, partners 0 & 2 and 1 & 3, left of the dealer is
``(dealer + 1) % 4``. Sides are ``seat % 2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from . import actions as A
from .actions import Action, parse_action
from .cards import (
    JOKER,
    NINE,
    TEN,
    Card,
    CardError,
    card_name,
    card_rank,
    card_suit,
    cards_of,
    parse_card,
    suit_name,
)
from .errors import DealError, IllegalActionError
from .lookup import EFFECTIVE_SUIT, FOLLOW_MASK, TRICK_RANK
from .rules import Rules
from .view import HandView

FARMER, ORDER, BENNY, CALL, DISCARD, DEFEND, PLAY, OVER = range(8)
PHASE_NAMES = ("farmer", "order", "benny", "call", "discard", "defend", "play", "over")
"""Phase names as used in views and JSON."""

SEAT_NAMES = ("South", "West", "North", "East")
"""Display names of seats 0-3 (clockwise)."""

PATTERNS = ("3-2", "2-3")
"""The two dealing patterns: three cards then two, or two then three."""


def _next_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for out in range(16):
        row = []
        for seat in range(4):
            nxt = (seat + 1) % 4
            for _ in range(4):
                if not out >> nxt & 1:
                    break
                nxt = (nxt + 1) % 4
            row.append(nxt)
        table.append(tuple(row))
    return tuple(table)


_NEXT = _next_table()  # _NEXT[out_mask][seat]: next seat clockwise that is playing
_PLAYERS = tuple(4 - bin(m).count("1") for m in range(16))  # playing seats per out mask
_BIT_OF_CARD = {c: 1 << c for c in range(25)}
_new_state = object.__new__
_INT_ONLY = frozenset({int})
_bit_of = _BIT_OF_CARD.get  # a card's bit; 0 for anything that is not a card
_PLAY_KIND = A.PLAY
_DISCARD_KIND = A.DISCARD
_ORDER_ACTIONS = (A.PASS, A.ORDER_UP, A.ORDER_UP_ALONE)


def _by_mask(actions: Sequence[Action]) -> tuple[tuple[list[Action], ...], ...]:
    """``t[0][m & 0xFFF] + t[1][m >> 12]``: the actions of the cards of mask ``m`` in card order.

    Two halves (cards 0-11 and 12-24) keep the tables small and a lookup to two indexings;
    the entries are lists because adding two lists makes the fresh list a caller gets in one
    step (the tables themselves are never handed out).
    """
    low = tuple([actions[c] for c in cards_of(m)] for m in range(1 << 12))
    high = tuple([actions[c + 12] for c in cards_of(m)] for m in range(1 << 13))
    return (low, high)


_PLAYS_LOW, _PLAYS_HIGH = _by_mask(A.PLAYS)
_DISCARDS_LOW, _DISCARDS_HIGH = _by_mask(A.DISCARDS)


class Deal:
    """The cards as dealt: four hands, the kitty (upcard first) and the dealing pattern."""

    __slots__ = ("hands", "kitty", "pattern")

    def __init__(
        self, hands: tuple[tuple[Card, ...], ...], kitty: tuple[Card, ...], pattern: str
    ) -> None:
        self.hands = hands
        """Five cards for each seat, in the order dealt."""
        self.kitty = kitty
        """The undealt cards; ``kitty[0]`` is the upcard."""
        self.pattern = pattern
        """``"3-2"`` or ``"2-3"``."""

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Deal)
            and (self.hands, self.kitty, self.pattern) == (other.hands, other.kitty, other.pattern)
        )

    def __hash__(self) -> int:
        return hash((self.hands, self.kitty, self.pattern))

    def __repr__(self) -> str:
        return f"Deal(hands={self.hands!r}, kitty={self.kitty!r}, pattern={self.pattern!r})"




def _check_deal(rules: Rules, deal: Deal) -> tuple[int, int, int, int]:
    """The four hands as bit masks, or :class:`DealError` for a misdeal."""
    hands = deal.hands
    kitty = deal.kitty
    if len(hands) == 4 and len(kitty) == (5 if rules.benny else 4) and deal.pattern in PATTERNS:
        # One pass over the cards: an unknown card misses the table, a repeated one loses a
        # bit; anything odd falls through to _refuse_deal, which names the fault.
        bit = _BIT_OF_CARD
        h0, h1, h2, h3 = hands
        try:
            if len(h0) == len(h1) == len(h2) == len(h3) == 5:
                masks = (
                    bit[h0[0]] | bit[h0[1]] | bit[h0[2]] | bit[h0[3]] | bit[h0[4]],
                    bit[h1[0]] | bit[h1[1]] | bit[h1[2]] | bit[h1[3]] | bit[h1[4]],
                    bit[h2[0]] | bit[h2[1]] | bit[h2[2]] | bit[h2[3]] | bit[h2[4]],
                    bit[h3[0]] | bit[h3[1]] | bit[h3[2]] | bit[h3[3]] | bit[h3[4]],
                )
                total = masks[0] | masks[1] | masks[2] | masks[3]
                for c in kitty:
                    total |= bit[c]
                if total.bit_count() == 20 + len(kitty) and (total >> JOKER == 1) == rules.benny:
                    return masks
        except (KeyError, TypeError):
            pass
    _refuse_deal(rules, deal)
    raise DealError("misdeal")  # pragma: no cover - _refuse_deal names every fault


def _refuse_deal(rules: Rules, deal: Deal) -> None:
    """Raise :class:`DealError` naming the first fault of a misdeal."""
    if len(deal.hands) != 4:
        raise DealError(f"misdeal: {len(deal.hands)} hands dealt, not 4")
    for seat, hand in enumerate(deal.hands):
        if len(hand) != 5:
            raise DealError(f"misdeal: seat {seat} was dealt {len(hand)} cards, not 5")
    want = 5 if rules.benny else 4
    if len(deal.kitty) != want:
        raise DealError(f"misdeal: the kitty has {len(deal.kitty)} cards, not {want}")
    cards = [c for h in deal.hands for c in h] + list(deal.kitty)
    if len(set(cards)) != len(cards):
        raise DealError("misdeal: a card was dealt twice")
    if any(not 0 <= c < 25 for c in cards):
        raise DealError("misdeal: an unknown card was dealt")
    if (JOKER in cards) != rules.benny:
        raise DealError(
            "misdeal: the joker is dealt only when the Benny is in use"
            if not rules.benny
            else "misdeal: the Benny is in use but the joker was not dealt"
        )
    if deal.pattern not in PATTERNS:
        raise DealError(f"misdeal: unknown dealing pattern {deal.pattern!r}")


def is_farmers_hand(cards: Sequence[Card], rule: str) -> bool:
    """Whether five cards are a farmer's hand under the ``farmers_hand`` rule."""
    if rule == "off" or JOKER in cards:
        return False
    nines = sum(1 for c in cards if card_rank(c) == NINE)
    tens = sum(1 for c in cards if card_rank(c) == TEN)
    if rule == "nines-and-tens":
        return nines + tens == len(cards)
    return nines == 3 and tens == 2


class _Settled:
    """The parts of a hand that many actions in a row leave alone: the deal, then what the
    bidding settled (trump, maker, alone, who sits out), and at the end the result.

    Consecutive states share one; an action that changes any of it gives its new state a copy
    (a few times a hand), so a card played copies only what a card changes.
    """

    __slots__ = ("alone", "deal", "dealer", "discard", "down", "lone_defender", "maker", "out",
                 "points", "reneged", "rules", "score", "thrown_in", "trump")

    rules: Rules
    deal: Deal
    dealer: int
    score: tuple[int, int]
    trump: int
    maker: int
    alone: bool
    lone_defender: int
    out: int
    discard: int
    down: tuple[Card, ...]
    points: tuple[int, int]
    thrown_in: bool
    reneged: tuple[int, int] | None

    def copy(self) -> _Settled:
        """A copy to change (field by field: faster than a loop over the slots)."""
        new = _new_state(_Settled)
        new.rules = self.rules
        new.deal = self.deal
        new.dealer = self.dealer
        new.score = self.score
        new.trump = self.trump
        new.maker = self.maker
        new.alone = self.alone
        new.lone_defender = self.lone_defender
        new.out = self.out
        new.discard = self.discard
        new.down = self.down
        new.points = self.points
        new.thrown_in = self.thrown_in
        new.reneged = self.reneged
        return new


class HandState:
    """One hand of euchre at one moment; immutable (``apply`` returns a new state)."""

    __slots__ = (
        "_fix",
        "_follow",
        "_hands",
        "_last",
        "_leader",
        "_passes",
        "_prev",
        "_trick",
        "_tricks",
        "_won",
        "is_over",
        "phase",
        "to_act",
    )

    phase: int
    """The phase (``FARMER`` … ``OVER``); :attr:`phase_name` is the word."""
    to_act: int | None
    """The seat to act, or None once the hand is over."""
    is_over: bool
    """Whether the hand has ended (scored, thrown in, or stopped by a renege)."""
    _fix: _Settled
    _follow: int  # cards that follow the suit led to the trick in progress (0: none led)
    _hands: tuple[int, int, int, int]
    _passes: int
    _leader: int
    _trick: tuple[Card, ...]
    _tricks: tuple[tuple[int, tuple[Card, ...], int], ...]
    _won: tuple[int, int]
    _prev: HandState | None
    _last: tuple[int, Action] | None

    def __init__(
        self, rules: Rules, dealer: int, deal: Deal, score: tuple[int, int] = (0, 0)
    ) -> None:
        """Start a hand from a fixed deal; prefer :func:`euchre.deal`."""
        if dealer not in (0, 1, 2, 3):
            raise DealError(f"the dealer must be a seat 0-3, not {dealer!r}")
        self._hands = _check_deal(rules, deal)
        fix = self._fix = _new_state(_Settled)
        fix.rules = rules
        fix.deal = deal
        fix.dealer = dealer
        fix.score = (int(score[0]), int(score[1]))
        fix.trump = -1
        fix.maker = -1
        fix.alone = False
        fix.lone_defender = -1
        fix.out = 0
        fix.discard = -1
        fix.down = deal.kitty[1:]
        fix.points = (0, 0)
        fix.thrown_in = False
        fix.reneged = None
        self._passes = 0
        self._leader = -1
        self._trick = ()
        self._follow = 0
        self._tricks = ()
        self._won = (0, 0)
        self._prev = None
        self._last = None
        self.is_over = False
        self.phase = ORDER
        self.to_act = (dealer + 1) % 4
        if rules.farmers_hand != "off":
            for i in range(1, 5):
                seat = (dealer + i) % 4
                if is_farmers_hand(deal.hands[seat], rules.farmers_hand):
                    self.phase = FARMER
                    self.to_act = seat
                    return
        self._begin_bidding()

    def _own(self) -> _Settled:
        """This (new, not yet returned) state's settled part, copied before its first change."""
        fix = self._fix
        if self._prev is not None and fix is self._prev._fix:
            fix = self._fix = fix.copy()
        return fix

    # -- what the bidding settled (read-only) ---------------------------------------

    @property
    def rules(self) -> Rules:
        """The house rules of this hand."""
        return self._fix.rules

    @property
    def deal(self) -> Deal:
        """The cards as dealt."""
        return self._fix.deal

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self._fix.dealer

    @property
    def score(self) -> tuple[int, int]:
        """The game score before this hand (seats 0 & 2, seats 1 & 3)."""
        return self._fix.score

    @property
    def trump(self) -> int:
        """The trump suit, or -1 before it is made."""
        return self._fix.trump

    @property
    def maker(self) -> int:
        """The seat that made trump, or -1."""
        return self._fix.maker

    @property
    def alone(self) -> bool:
        """Whether the maker plays alone."""
        return self._fix.alone

    @property
    def lone_defender(self) -> int:
        """The seat defending alone, or -1."""
        return self._fix.lone_defender

    @property
    def out(self) -> int:
        """The seats sitting out, as a bit mask (bit ``seat``)."""
        return self._fix.out

    @property
    def discard(self) -> int:
        """The dealer's discard, or -1 (the full state: only the dealer may see it)."""
        return self._fix.discard

    @property
    def points(self) -> tuple[int, int]:
        """Points this hand scored for seats 0 & 2 and seats 1 & 3 ((0, 0) until it ends)."""
        return self._fix.points

    @property
    def thrown_in(self) -> bool:
        """Whether everyone passed and the hand was thrown in (or a farmer threw it in)."""
        return self._fix.thrown_in

    @property
    def reneged(self) -> tuple[int, int] | None:
        """A renege claim that ended the hand: (reneging seat, claiming seat), or None."""
        return self._fix.reneged

    # -- public read-only properties ------------------------------------------------

    @property
    def upcard(self) -> Card:
        """The card turned face up."""
        return self.deal.kitty[0]

    @property
    def phase_name(self) -> str:
        """The phase as a word: ``order``, ``call``, ``discard``, ``play``, ``over`` …"""
        return PHASE_NAMES[self.phase]

    @property
    def maker_side(self) -> int:
        """The makers' side (0: seats 0 & 2, 1: seats 1 & 3), or -1 before trump is made."""
        return self.maker % 2 if self.maker >= 0 else -1

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks taken so far by seats 0 & 2 and by seats 1 & 3."""
        return self._won

    @property
    def tricks(self) -> list[tuple[int, tuple[Card, ...], int]]:
        """Completed tricks as (leader, cards in play order, winner)."""
        return list(self._tricks)

    @property
    def trick(self) -> tuple[int, tuple[Card, ...]]:
        """The trick in progress: (leader, cards played so far)."""
        return (self._leader, self._trick)

    @property
    def kitty_down(self) -> tuple[Card, ...]:
        """The face-down kitty cards (including the dealer's discard)."""
        return self._fix.down

    def hand(self, seat: int) -> list[Card]:
        """The cards a seat holds now (this is the full state: do not show it to others)."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        """The cards a seat holds now, as a bit mask."""
        return self._hands[seat]

    def history(self) -> list[tuple[int, Action]]:
        """Every action taken this hand, as (seat, action), oldest first."""
        out = []
        node: HandState | None = self
        while node is not None and node._last is not None:
            out.append(node._last)
            node = node._prev
        out.reverse()
        return out

    def actions_since(self, earlier: HandState) -> list[tuple[int, Action]] | None:
        """The actions that led from ``earlier`` to this state, as (seat, action), oldest
        first; None if this state does not follow from ``earlier`` (another hand, or a
        later state of this one). Lets a reader that kept what it made of ``earlier``
        (a view's history) add only what is new."""
        out = []
        node: HandState | None = self
        while node is not earlier:
            if node is None or node._last is None:
                return None
            out.append(node._last)
            node = node._prev
        out.reverse()
        return out

    def __repr__(self) -> str:
        """A short summary for debugging: phase, seat to act, trump and tricks."""
        trump = suit_name(self.trump) if self.trump >= 0 else "none"
        return (f"<HandState {self.phase_name} dealer={self.dealer} to_act={self.to_act} "
                f"trump={trump} tricks={self._won[0]}-{self._won[1]}>")

    def sits_out(self, seat: int) -> bool:
        """Whether a seat sits out this hand (a lone player's partner)."""
        return bool(self.out >> seat & 1)

    def view(self, seat: int) -> HandView:
        """What ``seat`` may know, and nothing more."""
        return make_view(self, seat)

    # -- legal actions ------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The actions the seat to act may take (empty once the hand is over)."""
        phase = self.phase
        if phase == PLAY:
            hand = self._hands[self.to_act]  # type: ignore[index]
            follow = hand & self._follow
            if follow:
                hand = follow
            return _PLAYS_LOW[hand & 0xFFF] + _PLAYS_HIGH[hand >> 12]
        if phase == OVER:
            return []
        seat = self.to_act
        assert seat is not None
        if phase == ORDER:
            fix = self._fix
            if fix.rules.canadian_loner and seat == (fix.dealer + 2) % 4:
                return [A.PASS, A.ORDER_UP_ALONE]
            return list(_ORDER_ACTIONS)
        if phase == CALL:
            turned = card_suit(self.upcard)
            acts = [] if self.rules.stick_the_dealer and seat == self.dealer else [A.PASS]
            for s in range(4):
                if s != turned:
                    acts.append(A.CALLS[s])
                    acts.append(A.CALLS_ALONE[s])
            return acts
        if phase == DISCARD:
            hand = self._hands[seat]
            return _DISCARDS_LOW[hand & 0xFFF] + _DISCARDS_HIGH[hand >> 12]
        if phase == DEFEND:
            return [A.PASS, A.DEFEND_ALONE]
        if phase == BENNY:
            return [a for s in range(4) for a in (A.CALLS[s], A.CALLS_ALONE[s])]
        # FARMER
        mine = cards_of(self._hands[seat])
        swaps = [
            A.farmer_swap([mine[i], mine[j], mine[k]])
            for i in range(5)
            for j in range(i + 1, 5)
            for k in range(j + 1, 5)
        ]
        return [A.KEEP, *swaps, A.THROW]

    def is_legal(self, action: Action | str) -> bool:
        """Whether an action may be applied now."""
        try:
            self.apply(action)
        except (IllegalActionError, ValueError):
            return False
        return True

    # -- applying actions --------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> HandState:
        """The state after the seat to act takes ``action``; this state is unchanged.

        ``seat``, if given, is who is trying to act: acting out of turn is refused.
        Raises :class:`IllegalActionError` with a reason a player understands.
        """
        if type(action) is not Action:  # one cheap test on the hot path
            if not isinstance(action, str):
                raise IllegalActionError(f"not an action: {action!r}")
            action = parse_action(action)
        if (self.phase == PLAY and action.kind == _PLAY_KIND
                and (seat is None or seat == self.to_act)):
            return self._apply_play(action)  # most of a hand's actions: first, and no lookup
        if action.kind == A.RENEGE:
            return self._renege(action)
        if self.phase == OVER:
            raise IllegalActionError("the hand is over")
        actor = self.to_act
        assert actor is not None
        if seat is not None and seat != actor:
            raise IllegalActionError(
                f"it is {SEAT_NAMES[actor]}'s turn (seat {actor}), not seat {seat}'s"
            )
        return _APPLY_BY_PHASE[self.phase](self, actor, action)

    # One function per phase, each given the seat to act (checked) and its action.

    def _apply_farmer(self, actor: int, action: Action) -> HandState:
        """A farmer's hand: keep it, swap three cards with the kitty, or throw it in."""
        self._refuse_unless(action in self.legal_actions(), actor, action)
        new = self._copy(actor, action)
        kind = action.kind
        if kind == A.FARMER_SWAP:
            hands = list(new._hands)
            down = self._fix.down
            for c in action.cards:
                hands[actor] &= ~(1 << c)
            for c in down[:3]:
                hands[actor] |= 1 << c
            new._hands = (hands[0], hands[1], hands[2], hands[3])
            new._own().down = (*action.cards, *down[3:])
            new._begin_bidding()
        elif kind == A.FARMER_KEEP:
            new._begin_bidding()
        else:  # FARMER_THROW
            new._throw_in()
        return new

    def _apply_order(self, actor: int, action: Action) -> HandState:
        """Round one: pass, or order the upcard up (alone or not)."""
        if self._fix.rules.canadian_loner:
            legal = action in self.legal_actions()
        else:
            legal = action in _ORDER_ACTIONS  # no list to build in the common case
        self._refuse_unless(legal, actor, action)
        new = self._copy(actor, action)
        if action.kind == A.PASS_KIND:
            new._pass(actor)
        else:
            new._make(actor, card_suit(self._fix.deal.kitty[0]), action.alone, exchange=True)
        return new

    def _apply_benny(self, actor: int, action: Action) -> HandState:
        """The Benny turned up: the dealer names trump and takes the joker."""
        self._refuse_unless(action in self.legal_actions(), actor, action)
        new = self._copy(actor, action)
        new._make(actor, action.suit, action.alone, exchange=True)
        return new

    def _apply_call(self, actor: int, action: Action) -> HandState:
        """Round two: pass, or name a suit other than the one turned down."""
        self._refuse_unless(action in self.legal_actions(), actor, action)
        new = self._copy(actor, action)
        if action.kind == A.PASS_KIND:
            new._pass(actor)
        else:
            new._make(actor, action.suit, action.alone, exchange=False)
        return new

    def _apply_discard(self, actor: int, action: Action) -> HandState:
        """The dealer, having taken the upcard, lays one card face down."""
        self._refuse_unless(
            action.kind == _DISCARD_KIND and bool(self._hands[actor] & _bit_of(action.card, 0)),
            actor, action)
        new = self._copy(actor, action)
        hands = list(new._hands)
        hands[actor] &= ~(1 << action.card)
        new._hands = (hands[0], hands[1], hands[2], hands[3])
        fix = new._own()
        fix.discard = action.card
        fix.down = (*fix.down, action.card)
        new._after_exchange()
        return new

    def _apply_defend(self, actor: int, action: Action) -> HandState:
        """A defender passes or defends alone against a lone maker."""
        self._refuse_unless(action in self.legal_actions(), actor, action)
        new = self._copy(actor, action)
        if action.kind == A.PASS_KIND:
            new._pass(actor)
        else:
            fix = new._own()
            fix.lone_defender = actor
            fix.out |= 1 << ((actor + 2) % 4)
            new._start_play()
        return new

    def _apply_other_than_a_play(self, actor: int, action: Action) -> HandState:
        """The play phase takes only plays (a play takes :meth:`_apply_play`)."""
        raise IllegalActionError(self._why_illegal(actor, action))

    def _refuse_unless(self, legal: bool, actor: int, action: Action) -> None:
        if not legal:
            raise IllegalActionError(self._why_illegal(actor, action))

    def _apply_play(self, action: Action) -> HandState:
        """A card played by the seat to act: checked with two mask tests (no legal list) and
        the state copied here rather than through :meth:`_copy`, for speed."""
        actor: int = self.to_act  # type: ignore[assignment]
        masks = self._hands
        card = action.card
        hand = masks[actor]
        bit = _bit_of(card, 0)
        if not hand & bit:
            raise IllegalActionError(self._why_illegal(actor, action))
        follow = hand & self._follow
        if follow and not follow & bit:
            raise IllegalActionError(self._why_illegal(actor, action))
        fix = self._fix
        new = _new_state(HandState)
        new._fix = fix
        new.phase = PLAY
        new.is_over = False
        new._passes = self._passes
        new._prev = self
        new._last = (actor, action)
        if actor == 0:
            new._hands = (masks[0] ^ bit, masks[1], masks[2], masks[3])
        elif actor == 1:
            new._hands = (masks[0], masks[1] ^ bit, masks[2], masks[3])
        elif actor == 2:
            new._hands = (masks[0], masks[1], masks[2] ^ bit, masks[3])
        else:
            new._hands = (masks[0], masks[1], masks[2], masks[3] ^ bit)
        trick = self._trick
        trump = fix.trump
        if trick:
            new._follow = self._follow
            trick = trick + (card,)  # noqa: RUF005 - faster than (*trick, card)
        else:
            new._follow = FOLLOW_MASK[trump][EFFECTIVE_SUIT[trump][card]]
            trick = (card,)
        out = fix.out
        nxt = _NEXT[out]
        leader = self._leader
        if len(trick) < _PLAYERS[out]:
            new._trick = trick
            new._leader = leader
            new._tricks = self._tricks
            new._won = self._won
            new.to_act = nxt[actor]
            return new
        ranks = TRICK_RANK[trump][EFFECTIVE_SUIT[trump][trick[0]]]
        at = winner = leader
        best = -1
        for c in trick:
            r = ranks[c]
            if r > best:
                best = r
                winner = at
            at = nxt[at]
        won = self._won
        new._won = (won[0] + 1, won[1]) if winner % 2 == 0 else (won[0], won[1] + 1)
        new._tricks = tricks = self._tricks + ((leader, trick, winner),)  # noqa: RUF005
        new._trick = ()
        new._follow = 0
        new._leader = winner
        new.to_act = winner
        if len(tricks) == 5:
            new._leader = leader  # as before: the last trick's leader stays
            new._score_hand()
        return new

    def _copy(self, actor: int, action: Action) -> HandState:
        new = _new_state(HandState)
        new._fix = self._fix
        new.phase = self.phase
        new.is_over = self.is_over
        new.to_act = self.to_act
        new._hands = self._hands
        new._passes = self._passes
        new._leader = self._leader
        new._trick = self._trick
        new._follow = self._follow
        new._tricks = self._tricks
        new._won = self._won
        new._prev = self
        new._last = (actor, action)
        return new

    def _begin_bidding(self) -> None:
        fix = self._fix
        if fix.rules.benny and fix.deal.kitty[0] == JOKER:
            self.phase = BENNY
            self.to_act = fix.dealer
        else:
            self.phase = ORDER
            self.to_act = (fix.dealer + 1) % 4
        self._passes = 0

    def _pass(self, actor: int) -> None:
        self._passes += 1
        if self.phase == DEFEND:
            nxt = self._next_defender(actor)
            if nxt < 0:
                self._start_play()
            else:
                self.to_act = nxt
            return
        if self._passes < 4:
            self.to_act = (actor + 1) % 4
        elif self.phase == ORDER:
            self.phase = CALL
            self._passes = 0
            self.to_act = (self._fix.dealer + 1) % 4
        else:
            self._throw_in()

    def _throw_in(self) -> None:
        self.phase = OVER
        self.is_over = True
        self.to_act = None
        self._own().thrown_in = True

    def _make(self, actor: int, trump: int, alone: bool, exchange: bool) -> None:
        fix = self._own()
        fix.trump = trump
        fix.maker = actor
        fix.alone = alone
        if alone:
            fix.out |= 1 << ((actor + 2) % 4)
        dealer = fix.dealer
        dealer_out = fix.out >> dealer & 1
        if exchange and (not dealer_out or fix.rules.dealer_exchanges_when_partner_alone):
            hands = list(self._hands)
            hands[dealer] |= 1 << fix.deal.kitty[0]
            self._hands = (hands[0], hands[1], hands[2], hands[3])
            self.phase = DISCARD
            self.to_act = dealer
        else:
            self._after_exchange()

    def _after_exchange(self) -> None:
        if self._fix.rules.defend_alone:
            first = self._next_defender(None)
            self.phase = DEFEND
            self._passes = 0
            self.to_act = first
        else:
            self._start_play()

    def _next_defender(self, after: int | None) -> int:
        # Defenders are asked in turn from the dealer's left, so the dealer is asked last;
        # ``after`` None means nobody has been asked yet.
        pos = 0 if after is None else (after - self.dealer - 1) % 4 + 1
        for k in range(pos + 1, 5):
            seat = (self.dealer + k) % 4
            if seat % 2 != self.maker % 2:
                return seat
        return -1

    def _start_play(self) -> None:
        fix = self._fix
        self.phase = PLAY
        lone = fix.maker if fix.alone else fix.lone_defender
        if lone >= 0 and fix.rules.lead_when_sitting_out == "loner-left":
            start = lone
        else:
            start = fix.dealer
        self._leader = self.to_act = _NEXT[fix.out][start]

    def _score_hand(self) -> None:
        self.phase = OVER
        self.is_over = True
        self.to_act = None
        fix = self._own()
        side = fix.maker % 2
        taken = self._won[side]
        if taken >= 3:
            pts = 1 if taken < 5 else (4 if fix.alone else 2)
            fix.points = (pts, 0) if side == 0 else (0, pts)
        else:
            pts = 4 if fix.lone_defender >= 0 else 2
            fix.points = (0, pts) if side == 0 else (pts, 0)

    def _renege(self, action: Action) -> HandState:
        if self.phase != PLAY and not (self.phase == OVER and not self.thrown_in):
            raise IllegalActionError("a renege can only be claimed once play has started")
        if self.reneged is not None:
            raise IllegalActionError("a renege was already claimed this hand")
        if action.seat % 2 == action.by % 2:
            raise IllegalActionError("only an opponent of the reneging player can claim a renege")
        if self.sits_out(action.seat):
            raise IllegalActionError(f"seat {action.seat} sits out this hand and cannot renege")
        if not self._has_followed(action.seat):
            raise IllegalActionError(
                f"seat {action.seat} has not yet played to a trick another seat led, "
                "so cannot have reneged"
            )
        new = self._copy(action.by, action)
        new.phase = OVER
        new.to_act = None
        new.is_over = True
        fix = new._own()
        fix.reneged = (action.seat, action.by)
        # "As if they had won the hand": 4 only when the claiming side played the lone hand.
        side = action.by % 2
        lone = (self.alone and self.maker % 2 == side) or (
            self.lone_defender >= 0 and self.lone_defender % 2 == side
        )
        pts = 4 if lone and self.rules.renege_penalty == "hand" else 2
        fix.points = (pts, 0) if action.by % 2 == 0 else (0, pts)
        return new

    def _has_followed(self, seat: int) -> bool:
        """Whether ``seat`` has played a card to a trick that another seat led."""
        nxt = _NEXT[self.out]
        done = [(leader, len(cards)) for leader, cards, _ in self._tricks]
        for leader, played in (*done, (self._leader, len(self._trick))):
            s = leader
            for _ in range(played):
                if s == seat and s != leader:
                    return True
                s = nxt[s]
        return False

    # -- explanations --------------------------------------------------------------------

    def _why_illegal(self, actor: int, action: Action) -> str:
        kind = action.kind
        phase = self.phase
        hand = self._hands[actor]
        if kind in (A.PLAY, A.DISCARD) and not 0 <= action.card < 25:
            return "that is not a card"
        if kind == A.PLAY and phase == PLAY:
            if not hand >> action.card & 1:
                return f"you do not hold the {card_name(action.card)}"
            trump = self.trump
            led = EFFECTIVE_SUIT[trump][self._trick[0]]
            follow = cards_of(hand & FOLLOW_MASK[trump][led])
            names = " and the ".join(card_name(c) for c in follow)
            what = f"trump ({suit_name(trump)})" if led == trump else suit_name(led)
            extra = ""
            if action.card == JOKER:
                extra = f" (the joker is a trump, not a {suit_name(led)[:-1]})"
            elif EFFECTIVE_SUIT[trump][action.card] == trump and card_suit(action.card) == led:
                extra = f" (the {card_name(action.card)} is the left bower, a trump)"
            return f"you must follow {what}: you hold the {names}{extra}"
        if kind == A.DISCARD and phase == DISCARD:
            return f"you do not hold the {card_name(action.card)}"
        if kind == A.CALL and phase == CALL:
            turned = card_suit(self.upcard)
            if action.suit == turned:
                return f"{suit_name(turned)} was turned down: name another suit or pass"
        if kind == A.PASS_KIND and phase == CALL:
            return "stick the dealer: the dealer must name a suit"
        if kind == A.ORDER and phase == ORDER and not action.alone:
            return "Canadian loner: the dealer's partner who orders up must go alone"
        if kind == A.FARMER_SWAP and phase == FARMER:
            return "swap three cards you hold for the kitty"
        expected = {
            FARMER: "decide on your farmer's hand (farmer keep, farmer swap, farmer throw)",
            ORDER: "order up the upcard or pass",
            BENNY: "name trump (the Benny was turned up)",
            CALL: "name a suit or pass",
            DISCARD: "discard a card",
            DEFEND: "defend alone or pass",
            PLAY: "play a card",
        }[phase]
        return f"{action} is not allowed now: it is time to {expected}"


_APPLY_BY_PHASE = (
    HandState._apply_farmer,
    HandState._apply_order,
    HandState._apply_benny,
    HandState._apply_call,
    HandState._apply_discard,
    HandState._apply_defend,
    HandState._apply_other_than_a_play,
)
"""``_APPLY_BY_PHASE[phase]``: the function that applies an action in that phase (not over)."""


class _Finished(HandState):
    """A finished hand as a game keeps it (:func:`finished`): the same state, with its
    history held as one flat tuple (seat, action, seat, action ...) instead of through the
    chain of every state the hand passed through, each with its (seat, action) pair. A
    game keeps all its hands, and the chains were ~60 objects a hand that the garbage
    collector walked for as long as the game lived."""

    __slots__ = ("_past",)

    _past: tuple[int | Action, ...]

    def history(self) -> list[tuple[int, Action]]:
        """Every action taken this hand, as (seat, action), oldest first."""
        past = self._past
        return list(zip(past[::2], past[1::2], strict=True))  # type: ignore[arg-type]

    def actions_since(self, earlier: HandState) -> list[tuple[int, Action]] | None:
        """As :meth:`HandState.actions_since`: ``earlier`` is a state of this hand when it
        has this hand's deal and dealer and its actions begin this hand's history."""
        if earlier is self:
            return []
        done = earlier.history()
        history = self.history()
        n = len(done)
        if (n > len(history) or earlier._fix.deal is not self._fix.deal
                or earlier.dealer != self.dealer or done != history[:n]):
            return None
        return history[n:]


def finished(hand: HandState) -> HandState:
    """``hand`` (over) as a game keeps it once the next hand is dealt: the same state, its
    history held as one tuple, not through the earlier states (which can then be freed)."""
    if type(hand) is not HandState or hand._prev is None:
        return hand
    new = _new_state(_Finished)
    new._fix = hand._fix
    new.phase = hand.phase
    new.is_over = hand.is_over
    new.to_act = hand.to_act
    new._hands = hand._hands
    new._passes = hand._passes
    new._leader = hand._leader
    new._trick = hand._trick
    new._follow = hand._follow
    new._tricks = hand._tricks
    new._won = hand._won
    new._prev = None
    new._last = hand._last
    new._past = tuple(x for pair in hand.history() for x in pair)
    return new


def deal(
    rules: Rules,
    dealer: int,
    hands: Sequence[Sequence[str | Card]],
    kitty: Sequence[str | Card],
    score: tuple[int, int] = (0, 0),
    pattern: str = "3-2",
) -> HandState:
    """The state of a hand from a fixed deal (cards as text like ``"JH"`` or as ints).

    ``kitty[0]`` is the upcard; ``score`` is the game score before this hand.
    """

    def card(x: str | Card) -> Card:
        return parse_card(x) if isinstance(x, str) else int(x)

    try:
        hs = tuple(map(tuple, hands))
        ks = tuple(kitty)
        if not set(map(type, chain(ks, *hs))) <= _INT_ONLY:  # text (or int-like): convert
            hs = tuple(tuple(card(c) for c in h) for h in hs)
            ks = tuple(card(c) for c in ks)
        d = Deal(hs, ks, pattern)  # type: ignore[arg-type]
    except (CardError, TypeError, ValueError) as e:
        raise DealError(f"misdeal: {e}") from None
    return HandState(rules, dealer, d, score)


_SITTING_OUT = tuple(tuple(s for s in range(4) if m >> s & 1) for m in range(16))
_HIDDEN_KINDS = (A.DISCARD, A.FARMER_SWAP)


def make_view(state: HandState, seat: int,
              legal: Sequence[Action] | None = None) -> HandView:
    """Build ``seat``'s view of ``state``; ``legal``: ``state.legal_actions()`` if the
    caller has it already (a computer's turn asks for them first), else worked out here."""
    fix = state._fix
    history: list[tuple[int, Action | None]] = state.history()  # type: ignore[assignment]
    hidden: list[str] = []
    gave: tuple[Card, ...] = ()
    upcard_taken = state.phase == DISCARD  # the dealer holds the upcard already
    for i, (s, a) in enumerate(history):
        kind = a.kind  # type: ignore[union-attr]
        if kind == _PLAY_KIND:
            break  # nothing is hidden once play has begun
        if kind == _DISCARD_KIND:
            upcard_taken = True
        if kind in _HIDDEN_KINDS:
            if s != seat:
                history[i] = (s, None)
                hidden.append(kind)
            elif kind == A.FARMER_SWAP:
                gave = a.cards  # type: ignore[union-attr]
    view = _new_state(HandView)
    # Set the fields at once: a frozen dataclass's own __init__ sets each of them through
    # object.__setattr__, five times slower, and computers ask for a view at every turn.
    view.__dict__.update(
        seat=seat,
        rules=fix.rules,
        dealer=fix.dealer,
        score=fix.score,
        phase=PHASE_NAMES[state.phase],
        to_act=state.to_act,
        hand=tuple(cards_of(state._hands[seat])),
        upcard=fix.deal.kitty[0],
        upcard_taken=upcard_taken,
        history=tuple(history),
        hidden_kinds=tuple(hidden),
        trump=fix.trump,
        maker=fix.maker,
        alone=fix.alone,
        lone_defender=fix.lone_defender,
        sitting_out=_SITTING_OUT[fix.out],
        discard=fix.discard if seat == fix.dealer and fix.discard >= 0 else None,
        farmer_gave=gave,
        leader=state._leader,
        trick=state._trick,
        tricks=state._tricks,
        tricks_won=state._won,
        points=fix.points,
        thrown_in=fix.thrown_in,
        reneged=fix.reneged,
        legal=(() if state.to_act != seat
               else tuple(state.legal_actions() if legal is None else legal)),
    )
    return view
