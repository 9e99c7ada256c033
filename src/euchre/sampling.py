"""Dealing the cards a seat has not seen again, consistently with everything it saw.

:func:`resample` is the researcher's entry point (OpenSpiel's ``resample_from_infostate``):
given one seat's :class:`~euchre.view.HandView` it returns a whole :class:`HandState`, from a
full deal and the same actions, that gives that seat exactly the same view. The parts under it
are public for programs that sample many deals of one view (the computer players do):
:func:`knowledge` reads a view into the facts that bind the unseen cards, and
:func:`sample_hands` deals the unseen cards at random within them. Cards are bit masks here
(bit ``c`` for card ``c``), as in the engine's hot paths.

What binds the unseen cards: the seat's own cards, every card played (each by its seat), the
suits each seat has shown it is out of (the left bower counting as trump), how many cards each
hand and the kitty hold, and the upcard's fate (turned down: face up in the kitty; picked up:
in the dealer's hand until played). One simplification, from the computer players: a dealer
who picked the upcard up is taken to hold it until it is played (discarding it is legal but
rare), so deals in which the dealer discarded it are drawn only when the view forces it (the
dealer showed out of its suit). Every deal drawn is consistent with the view; not every
consistent deal can be drawn.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from . import actions as A
from .actions import Action
from .cards import JOKER, NINE, TEN, Card, card_rank, cards_of
from .errors import DealError, IllegalActionError
from .hand import Deal, HandState
from .lookup import EFFECTIVE_SUIT, FOLLOW_MASK
from .view import HandView

Hands = tuple[int, int, int, int]
"""Four hands as card masks, by seat."""

_DECK = (1 << 24) - 1  # the 24 regular cards
_NINES_AND_TENS = sum(1 << c for c in range(24) if card_rank(c) in (NINE, TEN))
_RESAMPLE_TRIES = 4000


def _count(mask: int) -> int:
    return mask.bit_count()


def _mask(cards: tuple[Card, ...] | list[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def deck_mask(view: HandView) -> int:
    """Every card in play at this table (the joker too under the Benny)."""
    return _DECK | (1 << JOKER) if view.rules.benny else _DECK


def played_by_seat(view: HandView) -> list[int]:
    """The cards each seat has played so far this hand, as four masks."""
    out = [0, 0, 0, 0]
    for seat, action in view.history:
        if action is not None and action.kind == A.PLAY:
            out[seat] |= 1 << action.card
    return out


def voids(view: HandView) -> list[int]:
    """Per seat, a bit mask of the effective suits that seat has shown it is out of."""
    out = [0, 0, 0, 0]
    trump = view.trump
    tricks = [(leader, cards) for leader, cards, _ in view.tricks]
    if view.trick:
        tricks.append((view.leader, view.trick))
    order_cache: dict[int, list[int]] = {}
    for leader, cards in tricks:
        if leader not in order_cache:
            order = []
            seat = leader
            for _ in range(4):
                if seat not in view.sitting_out:
                    order.append(seat)
                seat = (seat + 1) % 4
            order_cache[leader] = order
        led = EFFECTIVE_SUIT[trump][cards[0]]
        for seat, card in zip(order_cache[leader], cards, strict=False):
            if EFFECTIVE_SUIT[trump][card] != led:
                out[seat] |= 1 << led
    return out


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about where the unseen cards are."""

    seat: int
    """The seat whose knowledge this is."""
    fixed: Hands
    """Cards known to be in each hand now (this seat's own cards, the dealer's upcard)."""
    allowed: Hands
    """Per seat, the unseen cards that seat may hold (not in a suit it has shown out of)."""
    slots: tuple[int, int, int, int]
    """How many unseen cards each hand holds now."""
    pool: int
    """The unseen cards: in other hands or face down in the kitty."""
    kitty_slots: int
    """How many unseen cards are face down in the kitty."""
    played: Hands
    """Cards each seat has played this hand."""


def knowledge(view: HandView) -> Knowledge:
    """Read a view into the facts that bind the unseen cards."""
    me = view.seat
    mine = _mask(view.hand)
    played = played_by_seat(view)
    all_played = played[0] | played[1] | played[2] | played[3]
    seen = mine | all_played | _mask(view.farmer_gave) | (1 << view.upcard)
    if view.discard is not None:
        seen |= 1 << view.discard
    pool = deck_mask(view) & ~seen
    fixed = [0, 0, 0, 0]
    fixed[me] = mine
    shown = voids(view) if view.trump >= 0 else [0, 0, 0, 0]
    allowed = [pool, pool, pool, pool]
    if view.trump >= 0:
        for s in range(4):
            for suit in range(4):
                if shown[s] >> suit & 1:
                    allowed[s] &= ~FOLLOW_MASK[view.trump][suit]
    dealer = view.dealer
    up = view.upcard
    sizes = [5 - _count(played[s]) for s in range(4)]
    if view.phase == "discard":
        sizes[dealer] = 6
    sizes[me] = len(view.hand)
    if (
        view.upcard_taken
        and dealer != me
        and sizes[dealer] > 0
        and not all_played >> up & 1
        and (view.trump < 0 or not shown[dealer] >> EFFECTIVE_SUIT[view.trump][up] & 1)
    ):
        # the dealer picked it up; discarding it is possible but so rare we trust it is held
        fixed[dealer] |= 1 << up
    slots = [max(0, sizes[s] - _count(fixed[s])) for s in range(4)]
    slots[me] = 0
    kitty = _count(pool) - sum(slots)
    if kitty < 0:  # pragma: no cover - a view the engine cannot produce
        raise ValueError("the view holds fewer unseen cards than the hands need")
    return Knowledge(
        seat=me,
        fixed=_four(fixed),
        allowed=_four(allowed),
        slots=(slots[0], slots[1], slots[2], slots[3]),
        pool=pool,
        kitty_slots=kitty,
        played=_four(played),
    )


def _four(x: list[int]) -> Hands:
    return (x[0], x[1], x[2], x[3])


@functools.lru_cache(maxsize=32)
def _plan(k: Knowledge) -> tuple[tuple[tuple[Card, tuple[int, ...]], ...], tuple[Card, ...]]:
    """The unseen cards that only some hands may hold (with those hands), and the rest."""
    holding = tuple(s for s in range(4) if k.slots[s])
    bound: list[tuple[Card, tuple[int, ...]]] = []
    free: list[Card] = []
    for c in cards_of(k.pool):
        seats = tuple(s for s in holding if k.allowed[s] >> c & 1)
        if seats == holding:
            free.append(c)
        else:
            bound.append((c, seats))
    return tuple(bound), tuple(free)


def sample_hands(k: Knowledge, rng: random.Random) -> Hands:
    """The four hands now, the unseen cards dealt at random within what is known.

    Cards that only some seats may hold are placed first, fewest holders first; each
    goes to a seat (or the kitty) with chance in proportion to the places left there.
    The other cards are then shuffled into the places left. A dead end, which voids
    make possible, starts the deal again; after a few, a matching finds a valid deal.
    """
    bound, free = _plan(k)
    for _ in range(12):
        order = list(bound)
        rng.shuffle(order)
        order.sort(key=lambda x: len(x[1]))
        rem = list(k.slots)
        kitty = k.kitty_slots
        hands = list(k.fixed)
        for c, seats in order:
            total = kitty
            for s in seats:
                total += rem[s]
            if total == 0:
                break
            r = rng.randrange(total)
            if r < kitty:
                kitty -= 1
                continue
            r -= kitty
            for s in seats:
                if r < rem[s]:
                    hands[s] |= 1 << c
                    rem[s] -= 1
                    break
                r -= rem[s]
        else:
            rest = list(free)
            rng.shuffle(rest)
            i = 0
            for s in range(4):
                for c in rest[i : i + rem[s]]:
                    hands[s] |= 1 << c
                i += rem[s]
            return _four(hands)
    return _matching(k, rng)


def _matching(k: Knowledge, rng: random.Random) -> Hands:
    """A valid deal by bipartite matching of hand places to cards (the slow, sure way)."""
    places = [s for s in range(4) for _ in range(k.slots[s])]
    cards = cards_of(k.pool)
    rng.shuffle(cards)
    owner: dict[Card, int] = {}

    def augment(p: int, seen: set[Card]) -> bool:
        for c in cards:
            if c in seen or not k.allowed[places[p]] >> c & 1:
                continue
            seen.add(c)
            if c not in owner or augment(owner[c], seen):
                owner[c] = p
                return True
        return False

    for p in range(len(places)):
        if not augment(p, set()):
            raise ValueError("no deal of the unseen cards fits what this seat has seen")
    hands = list(k.fixed)
    for c, p in owner.items():
        hands[places[p]] |= 1 << c
    return _four(hands)


def is_consistent(k: Knowledge, hands: Hands) -> bool:
    """Whether four hands fit the knowledge (used by tests and checks)."""
    placed = 0
    for s in range(4):
        extra = hands[s] & ~k.fixed[s]
        if hands[s] & k.fixed[s] != k.fixed[s]:
            return False
        if extra & ~k.allowed[s] or placed & hands[s]:
            return False
        if s != k.seat and _count(extra) != k.slots[s]:
            return False
        if s == k.seat and extra:
            return False
        placed |= hands[s]
    return _count(k.pool & ~placed) == k.kitty_slots


# -- whole states ------------------------------------------------------------------------


def resample(view: HandView, rng: random.Random) -> HandState:
    """A hand, dealt in full, in which the view's actions give its seat this very view.

    The state is built from a :class:`~euchre.hand.Deal` of every card (the hidden ones
    drawn at random within what the seat knows, see the module's notes) and the view's
    history, its hidden actions (another dealer's discard, another farmer's swap) filled in
    to fit the deal; ``resample(view, rng).view(view.seat) == view`` always holds, and the
    state can be played on with :meth:`HandState.apply`. Raises :class:`ValueError` when no
    deal fits (a view the engine did not make).
    """
    k = _farmer_knowledge(view, knowledge(view))
    for _ in range(_RESAMPLE_TRIES):
        state = _try_state(view, k, rng)
        if state is not None:
            return state
    raise ValueError("no deal of the hidden cards fits this view")


def _farmer(view: HandView) -> tuple[int, Action | None, str] | None:
    """The seat that decided on a farmer's hand, its action (None: hidden) and its kind."""
    hidden = iter(view.hidden_kinds)
    for seat, action in view.history:
        kind = next(hidden) if action is None else action.kind
        if kind in (A.FARMER_KEEP, A.FARMER_SWAP, A.FARMER_THROW):
            return seat, action, kind
    return None


def _farmer_knowledge(view: HandView, k: Knowledge) -> Knowledge:
    """``k``, with a farmer who has yet to decide, kept or threw in held to nines and tens
    (so that a draw fits; a swap is drawn in :func:`_try_state`)."""
    if view.phase == "farmer":
        seat = view.to_act
    else:
        decided = _farmer(view)
        if decided is None or decided[2] == A.FARMER_SWAP:
            return k
        seat = decided[0]
    if seat is None or seat == view.seat:
        return k
    allowed = list(k.allowed)
    allowed[seat] &= _NINES_AND_TENS
    return Knowledge(k.seat, k.fixed, _four(allowed), k.slots, k.pool, k.kitty_slots, k.played)


def _try_state(view: HandView, k: Knowledge, rng: random.Random) -> HandState | None:
    """One draw: a deal and the filled-in history, or None when the replay differs."""
    up = view.upcard
    gave = 0
    farmer = -1  # the seat that swapped with the kitty, if one did
    decided = _farmer(view)
    if decided is not None and decided[2] == A.FARMER_SWAP:
        farmer = decided[0]
        if view.farmer_gave:
            gave = _mask(view.farmer_gave)
        else:
            # another farmer's swap: three nines and tens it gave lie face down in the kitty
            choices = cards_of(k.pool & _NINES_AND_TENS)
            if len(choices) < 3 or k.kitty_slots < 3:
                return None
            gave = _mask(rng.sample(choices, 3))
            k = Knowledge(k.seat, k.fixed, _four([a & ~gave for a in k.allowed]), k.slots,
                          k.pool & ~gave, k.kitty_slots - 3, k.played)
    try:
        now = sample_hands(k, rng)
    except ValueError:
        return None
    played = k.played
    held = [now[s] | played[s] for s in range(4)]
    kitty_now = deck_mask(view) & ~(held[0] | held[1] | held[2] | held[3])
    dealer = view.dealer
    exchanged = view.phase == "discard" or A.DISCARD in _kinds(view)
    discard = -1
    if view.phase == "discard":
        held[dealer] &= ~(1 << up)
    elif exchanged:
        if view.discard is not None:
            discard = view.discard
        elif kitty_now >> up & 1:
            discard = up  # taken, not held, not played: it went back down
        else:
            choices = cards_of(kitty_now & ~gave & ~(1 << up))
            if not choices:
                return None
            discard = rng.choice(choices)
        if discard != up:  # a discarded upcard came and went: the dealt hand is what was held
            held[dealer] = held[dealer] & ~(1 << up) | 1 << discard
    down_now = kitty_now & ~(1 << up) & ~gave
    if discard >= 0:
        down_now &= ~(1 << discard)
    took: list[Card] = []
    if farmer >= 0:
        keep = cards_of(held[farmer] & _NINES_AND_TENS)
        if len(keep) < 2:
            return None
        kept = _mask(rng.sample(keep, 2))
        took = cards_of(held[farmer] & ~kept)
        if len(took) != 3:
            return None
        held[farmer] = kept | gave
    rest = cards_of(down_now)
    rng.shuffle(rest)
    deal = Deal(
        tuple(tuple(cards_of(h)) for h in held),
        (up, *took, *rest),
        "3-2",
    )
    history = _filled(view, discard, gave)
    try:
        state = HandState(view.rules, dealer, deal, view.score)
        for seat, action in history:
            state = state.apply(action, seat)
    except (DealError, IllegalActionError):  # the draw does not fit the actions
        return None
    return state if state.view(view.seat) == view else None


def _kinds(view: HandView) -> list[str]:
    hidden = iter(view.hidden_kinds)
    return [next(hidden) if a is None else a.kind for _, a in view.history]


def _filled(view: HandView, discard: Card, gave: int) -> list[tuple[int, Action]]:
    """The view's history with its hidden actions filled in."""
    out: list[tuple[int, Action]] = []
    for (seat, action), kind in zip(view.history, _kinds(view), strict=True):
        if action is None:
            action = A.DISCARDS[discard] if kind == A.DISCARD else A.farmer_swap(cards_of(gave))
        out.append((seat, action))
    return out
