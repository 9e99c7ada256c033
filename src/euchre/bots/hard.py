"""The ``hard`` computer player: deal the unseen cards many times, solve each deal open-handed.

Card play and the dealer's discard: sample deals of the unseen cards that fit the view
(:mod:`euchre.bots.sampling`, weighted by what the bidding says), solve each one with the
open-hand solver (:mod:`euchre.bots.solver`) under a score-aware payoff, and take the card
with the best weighted average. Bidding (order, call, alone) uses the hand-value tables of
:mod:`euchre.bots.policy` instead, since open-hand sampling overvalues calling.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import random
import time
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from .. import actions as A
from ..actions import Action
from ..cards import Card
from ..view import HandView
from . import knowledge as K
from . import solver
from .action_model import ModelReader
from .base import Bot
from .bidding import sampled_bid_estimates
from .clear_cut import clear_bids
from .medium import MediumBot
from .payoffs import first_leader, out_mask, payoffs
from .playouts import bid_playouts
from .policy import BidEstimate, bid_estimates, dealer_discard, hand_for
from .postponed import Postponer
from .reading import PlayReader
from .sampling import (
    bid_weight,
    clue_weight,
    informative_bids,
    knowledge,
    play_clues,
    sample_hands,
)

_T = TypeVar("_T")

BATCH = 50
"""Deals solved between checks of whether the choice is clear (and of the time cap)."""

log = logging.getLogger("euchre.bots")
"""Where a decision that reached its time cap is reported."""


LEAD_MARGIN = 0.15
"""The margin for a lead, where open-handed solving is weakest: it leads as if it knew
where every card is, and the conventions say what partner will make of the lead."""
SECOND_HAND_MARGIN = 0.3
"""The margin for the second hand: open-handed, a high card second looks safe because the
solver knows who holds the cards above it; at the table, second hand plays low."""


@dataclass(frozen=True)
class Budget:
    """The work one decision may do: sampled deals and solver nodes. Seconds only cap it.

    The deals and nodes decide when a search stops, so the same view and seed give the
    same move on any machine, busy or not (the pure-Python solver visits the same nodes
    as the C one). ``time_cap`` is a safety net for a machine far slower than planned:
    when it fires the decision is logged (``euchre.bots``, warning), as it may then differ.
    """

    samples: int = 200
    """Sampled deals for a card-play decision (half as many for a discard or defending)."""
    nodes: int = 2_000_000
    """Solver nodes a decision may visit (summed over its deals)."""
    time_cap: float = 2.0
    """Seconds after which a decision stops anyway, and says so in the log."""
    paired: bool = False
    """Stop card play on the deal-by-deal difference of the two best cards (see ``_clear``)."""
    bid_samples: int = 0
    """Sampled deals to value each call on the bidder's exact cards (0: the tables alone;
    :func:`~euchre.bots.bidding.sampled_bid_estimates`)."""
    read_play: bool = False
    """Weight deals by how well the conventions explain the other seats' plays
    (:class:`~euchre.bots.reading.PlayReader`)."""
    lead_margin: float = LEAD_MARGIN
    """The conventional lead is played when its worth is within this of the best card's."""
    second_hand_margin: float = SECOND_HAND_MARGIN
    """Second hand plays the conventional card when within this of the best card's."""
    bid_playouts: int = 0
    """Sampled deals on which a close bid's two best choices are played out by the
    conventions (0: none; :func:`~euchre.bots.playouts.bid_playouts`)."""
    playout_margin: float = 0.3
    """How close (points of utility, by the tables) two bids must be to be played out."""
    playout_z: float = 0.0
    """The play-outs overrule the tables' first bid only when the rival leads by this many
    standard errors of the deal-by-deal difference."""
    model_reading: bool = False
    """Card play: weight each deal by the learned model of play
    (:class:`~euchre.bots.action_model.ModelReader`) instead of the bidding tables, the
    play clues and the conventions' reading. Off in every level until it passes the
    duplicate-deal gates (docs/bots.md, *A learned model of play*)."""
    model_how: str = "all"
    """With ``model_reading``: ``all`` (the model reads the bidding and the card play, in
    place of today's reading), ``plays`` (the tables and clues read the bidding, the model
    the card play, in place of the conventions' halving rule) or ``joint`` (today's
    reading times the model's)."""
    model_temper: float = 0.5
    """The power applied to each seen action's probability under the model."""
    model_floor: float = 0.1
    """The least probability the model gives a seen action."""
    postpone: int = 0
    """Card play: after each candidate card, up to this many cards of the seats still to
    play to the trick are chosen by the learned model of play from what each can see
    (:class:`~euchre.bots.postponed.Postponer`), and only then is the deal solved
    open-handed (postponed solving). 0: every deal is solved open-handed from the
    decision. Off in every level until it passes the duplicate-deal gates."""


class _Meter:
    """Counts one decision's work against its budget."""

    def __init__(self, budget: Budget, what: str) -> None:
        self.budget = budget
        self.what = what
        self.nodes = 0
        self.start = time.perf_counter()
        self.capped = False

    def spent(self, deals: int) -> bool:
        """Whether the decision must stop now (nodes used up, or the time cap reached)."""
        if self.nodes >= self.budget.nodes:
            return True
        if time.perf_counter() - self.start > self.budget.time_cap:
            self.capped = True
            log.warning("%s stopped by its time cap of %.2f s after %d deals and %d nodes",
                        self.what, self.budget.time_cap, deals, self.nodes)
            return True
        return False

    def solve_many(self, positions: list[solver.Position]) -> list[dict[Card, int]]:
        """:func:`solver.solve_many`, counting its nodes."""
        out = []
        for values, nodes in solver.solve_many(positions):
            self.nodes += nodes
            out.append(values)
        return out

    def solve_value(self, *args: object) -> int:
        """:func:`solver.solve_value`, counting its nodes."""
        value, nodes = solver.solve_value_counted(*args)  # type: ignore[arg-type]
        self.nodes += nodes
        return value


@dataclass
class CardStats:
    """Weighted sums over the solved deals for one card."""

    worth: float = 0.0
    """Sum of weight x score-aware worth for this seat's side."""
    worth_sq: float = 0.0
    """Sum of weight x worth squared (for the spread)."""
    points: float = 0.0
    """Sum of weight x points for this seat's side."""
    made: float = 0.0
    """Sum of weight x (1 if the makers make it)."""
    weight: float = 0.0
    """Sum of weights."""

    def mean(self) -> float:
        """Average worth (points at 0-0)."""
        return self.worth / self.weight if self.weight else 0.0


@dataclass(frozen=True)
class PlayEstimate:
    """What one legal card is worth, averaged over the sampled deals."""

    card: Card
    """The card."""
    worth: float
    """Score-aware worth for the player's side (points at 0-0)."""
    expected_points: float | None
    """Expected points for the player's side (None unless asked for)."""
    make_chance: float | None
    """Chance the makers make it (None unless asked for)."""


def _clear(stats: dict[Card, CardStats], n: int,
           rows: list[tuple[float, list[float]]] | None = None,
           cards: list[Card] | None = None) -> bool:
    """Whether the best card is clear: every deal agreed, or it leads by four standard errors.

    With ``rows`` (per deal: its weight and each card's worth, in the order of ``cards``),
    the standard error is that of the two best cards' difference deal by deal (the deals
    are shared, so most of their spread cancels), and a near tie whose difference is
    known to within :data:`TIE` also ends the search.
    """
    means = sorted(((s.mean(), s) for s in stats.values()), key=lambda x: -x[0])
    if len(means) < 2:
        return True
    (m1, s1), (m2, s2) = means[0], means[1]
    spread = 0.0
    for m, s in ((m1, s1), (m2, s2)):
        if s.weight:
            spread = max(spread, s.worth_sq / s.weight - m * m)
    if spread <= 1e-12 and m1 > m2:
        return True
    if all(abs(m - m1) < 1e-9 for m, _ in means) and spread <= 1e-12:
        return True
    if n < 2 * BATCH:
        return False
    if rows is not None and cards is not None:
        order = sorted(range(len(cards)), key=lambda i: -stats[cards[i]].mean())
        a, b = order[0], order[1]
        wsum = dsum = dsq = 0.0
        for w, values in rows:
            d = values[a] - values[b]
            wsum += w
            dsum += w * d
            dsq += w * d * d
        if wsum <= 0.0:
            return False
        mean = dsum / wsum
        se = math.sqrt(max(dsq / wsum - mean * mean, 0.0) / n)
        return mean > 4.0 * se or (n >= 4 * BATCH and se < TIE and mean < TIE)
    se = math.sqrt(max(spread, 0.0) / n)
    return m1 - m2 > 4.0 * se


TIE = 0.01
"""Two cards whose difference is known to within this (points) and is smaller: a tie, and
more deals would not change the choice in a way that matters (after 200 deals)."""


def evaluate_plays(
    view: HandView,
    rng: random.Random,
    budget: Budget = Budget(),
    detailed: bool = False,
    use_clues: bool = True,
) -> list[PlayEstimate]:
    """Every legal card's worth over sampled deals, best first.

    Stops at ``budget.samples`` deals or ``budget.nodes`` solver nodes, earlier when the
    choice is clear (checked every :data:`BATCH` deals). ``detailed`` also solves for
    expected points and the makers' chance of making it (three solves per deal).
    """
    meter = _Meter(budget, "card play")
    samples = budget.samples
    cards = [a.card for a in view.legal]
    k = knowledge(view)
    bids = informative_bids(view)
    clues = play_clues(view) if use_clues else []
    reader = PlayReader(view) if budget.read_play and use_clues else None
    how = budget.model_how
    modeller = (ModelReader(view, temper=budget.model_temper, floor=budget.model_floor,
                            plays_only=how == "plays")
                if budget.model_reading and use_clues else None)
    # the reader's own draws (a hidden discard) keep out of the sampling's stream
    model_rng = random.Random(len(view.history))
    maker = view.maker
    side = view.seat % 2
    sign = 1.0 if maker % 2 == side else -1.0
    worth_pay, points_pay, make_pay = payoffs(view, maker, view.alone, view.lone_defender)
    points_int = [int(p) for p in points_pay]
    args_common = (view.trump, view.leader, list(view.trick), out_mask(view), maker % 2,
                   view.tricks_won[maker % 2])
    stats = {c: CardStats() for c in cards}
    paired = budget.paired
    postponer = Postponer(view, budget.postpone) if budget.postpone > 0 else None
    if postponer is not None and not postponer.active:
        postponer = None
    rows: list[tuple[float, list[float]]] = []
    n = 0
    while n < samples:
        batch: list[solver.Position] = []
        weights: list[float] = []
        for _ in range(min(BATCH, samples - n)):
            hands = sample_hands(k, rng)
            if modeller is not None and how == "all":
                w = modeller.weight(hands, model_rng)
            else:
                w = bid_weight(view, k, hands, bids) * clue_weight(hands, clues)
                if reader is not None and w > 0.0 and how != "plays":
                    w *= reader.weight(hands)
                if modeller is not None and w > 0.0:
                    w *= modeller.weight(hands, model_rng)
            n += 1
            if w > 0.0:
                batch.append((hands, *args_common, worth_pay))
                weights.append(w)
        if postponer is not None:
            values = _postponed_values(postponer, meter, view, batch, cards, worth_pay)
        else:
            # one call per batch: the C solver searches the whole batch without the GIL
            values = meter.solve_many(batch)
        pts = made = None
        if detailed and postponer is not None:
            pts = [(v, 0) for v in _postponed_values(postponer, None, view, batch, cards,
                                                     points_int)]
            made = [(v, 0) for v in _postponed_values(postponer, None, view, batch, cards,
                                                      make_pay)]
        elif detailed:
            # the extra solves of a detailed analysis are not counted: a hint must stop
            # where the player would, and so recommend the player's card
            pts = solver.solve_many([(*b[:-1], points_int) for b in batch])
            made = solver.solve_many([(*b[:-1], make_pay) for b in batch])
        for i, w in enumerate(weights):
            row = [sign * values[i][c] / 1000.0 for c in cards]
            if paired:
                rows.append((w, row))
            for j, c in enumerate(cards):
                v = row[j]
                st = stats[c]
                st.worth += w * v
                st.worth_sq += w * v * v
                st.weight += w
                if pts is not None and made is not None:
                    st.points += w * sign * pts[i][0][c]
                    st.made += w * made[i][0][c]
        if _clear(stats, n, rows if paired else None, cards) or meter.spent(n):
            break
    out = []
    for c, st in stats.items():
        wsum = st.weight or 1.0
        out.append(PlayEstimate(
            card=c,
            worth=st.worth / wsum,
            expected_points=st.points / wsum if detailed else None,
            make_chance=st.made / wsum if detailed else None,
        ))
    out.sort(key=lambda e: (-e.worth, e.card))
    return out


def _postponed_values(
    postponer: Postponer, meter: _Meter | None, view: HandView,
    batch: list[solver.Position], cards: list[Card], payoff: list[int],
) -> list[dict[Card, int]]:
    """Per deal of ``batch``, each card's value for the makers with the other seats' next
    plies postponed (:class:`~euchre.bots.postponed.Postponer`): one solver call for the
    batch, its nodes counted by ``meter`` (when given)."""
    out = out_mask(view)
    maker_side = view.maker % 2
    lines = [[postponer.line(b[0], c) for c in cards] for b in batch]
    todo = [ln.position(view, out, payoff) for row in lines for ln in row if ln.actor >= 0]
    if meter is not None:
        solved = iter(meter.solve_many(todo))
    else:
        solved = iter(v for v, _ in solver.solve_many(todo))
    return [
        {c: ln.value(next(solved) if ln.actor >= 0 else None, maker_side, payoff)
         for c, ln in zip(cards, row, strict=True)}
        for row in lines
    ]


def evaluate_discards(
    view: HandView,
    rng: random.Random,
    budget: Budget = Budget(),
    detailed: bool = False,
) -> list[tuple[Card, float, float | None, float | None]]:
    """Each possible discard as (card, worth, expected points, make chance), best first.

    Half of ``budget.samples`` deals, each solved once per discard. Worth is score-aware,
    for the dealer's side; points and the makers' chance of making it are solved for only
    when ``detailed``.
    """
    meter = _Meter(budget, "discard")
    k = knowledge(view)
    bids = informative_bids(view)
    me = view.seat
    mine = k.fixed[me]
    maker = view.maker
    worth_pay, points_pay, make_pay = payoffs(view, maker, view.alone, -1)
    points_int = [int(p) for p in points_pay]
    out = out_mask(view)
    leader = first_leader(view, out, maker, view.alone, -1)
    sign = 1.0 if maker % 2 == me % 2 else -1.0
    cards = list(view.hand)
    totals = {c: [0.0, 0.0, 0.0] for c in cards}
    wsum = 0.0
    per_deal = max(1, budget.samples // 2)
    for i in range(per_deal):
        hands = sample_hands(k, rng)
        w = bid_weight(view, k, hands, bids)
        if w <= 0.0:
            continue
        wsum += w
        for c in cards:
            h = list(hands)
            h[me] = mine & ~(1 << c)
            acc = totals[c]
            args: tuple[list[int], int, int, list[int], int, int, int] = (
                h, view.trump, leader, [], out, maker % 2, 0)
            acc[0] += w * sign * meter.solve_value(*args, worth_pay) / 1000.0
            if detailed:
                acc[1] += w * sign * solver.solve_value(*args, points_int)
                acc[2] += w * solver.solve_value(*args, make_pay)
        if meter.nodes >= budget.nodes or ((i + 1) % 10 == 0 and meter.spent(i + 1)):
            break
    wsum = wsum or 1.0
    ranked = [
        (c, t[0] / wsum, t[1] / wsum if detailed else None, t[2] / wsum if detailed else None)
        for c, t in totals.items()
    ]
    ranked.sort(key=lambda x: (-x[1], x[0]))
    return ranked


def evaluate_defend_alone(
    view: HandView, rng: random.Random, budget: Budget = Budget()
) -> tuple[float, float]:
    """Average worth for this seat's side of defending alone and of defending as a pair.

    Half of ``budget.samples`` deals, each solved both ways.
    """
    meter = _Meter(budget, "defending alone")
    k = knowledge(view)
    bids = informative_bids(view)
    maker = view.maker
    me = view.seat
    base_out = out_mask(view)
    lone_out = base_out | 1 << ((me + 2) % 4)
    pair_pay = payoffs(view, maker, view.alone, -1)[0]
    lone_pay = payoffs(view, maker, view.alone, me)[0]
    pair_lead = first_leader(view, base_out, maker, view.alone, -1)
    lone_lead = first_leader(view, lone_out, maker, view.alone, me)
    pair = lone = wsum = 0.0
    for i in range(max(1, budget.samples // 2)):
        hands = sample_hands(k, rng)
        w = bid_weight(view, k, hands, bids)
        if w <= 0.0:
            continue
        wsum += w
        pair -= w * meter.solve_value(hands, view.trump, pair_lead, [], base_out, maker % 2, 0,
                                      pair_pay) / 1000.0
        lone -= w * meter.solve_value(hands, view.trump, lone_lead, [], lone_out, maker % 2, 0,
                                      lone_pay) / 1000.0
        if meter.nodes >= budget.nodes or ((i + 1) % 20 == 0 and meter.spent(i + 1)):
            break
    wsum = wsum or 1.0
    return lone / wsum, pair / wsum


DEFEND_ALONE_MARGIN = 0.5
"""How much better (points at 0-0) open-hand sampling must find defending alone: the open-hand
view flatters the lone defender, who in play cannot see where the cards are."""


PLAY_MARGIN = 0.05
"""A card (or discard) the conventions prefer is played when within this many points of the
best: where the sampled deals cannot tell cards apart, the conventions of good players
carry what open-handed solving leaves out (what partner will read from the card)."""
BID_MARGIN = 0.15
"""The same for bids: the conventional bid wins when within this many points (utility) of
the tables' best, as the tables are fitted open-handed and are least sure near the bar."""
LIGHT_CALL_TRUMPS = 2
"""A call with at most this many trumps is made only when the conventions make it too:
open-handed labels flatter light calls, as partner plays as if seeing the caller's hand."""

_CONVENTIONS = MediumBot(seed=0)


def convention(view: HandView) -> Action:
    """What the conventions (the ``medium`` player) would do."""
    return _CONVENTIONS.choose(view)


def _prefer(items: list[_T], values: list[float], index: int | None, margin: float) -> list[_T]:
    """Move ``items[index]`` to the front when its value is within ``margin`` of the first."""
    if index is None or index == 0 or values[index] < values[0] - margin:
        return items
    return [items[index], *items[:index], *items[index + 1 :]]


def ranked_plays(
    view: HandView, rng: random.Random, budget: Budget = Budget(), detailed: bool = False,
) -> list[PlayEstimate]:
    """:func:`evaluate_plays`, with the conventional card first when it is about as good."""
    est = evaluate_plays(view, rng, budget, detailed)
    card = convention(view).card
    index = next((i for i, e in enumerate(est) if e.card == card), None)
    margin = {0: budget.lead_margin, 1: budget.second_hand_margin}.get(
        len(view.trick), PLAY_MARGIN)
    return _prefer(est, [e.worth for e in est], index, margin)


def ranked_discards(
    view: HandView, rng: random.Random, budget: Budget = Budget(), detailed: bool = False,
) -> list[tuple[Card, float, float | None, float | None]]:
    """:func:`evaluate_discards`, with the conventional discard first when about as good."""
    est = evaluate_discards(view, rng, budget, detailed)
    card = convention(view).card
    index = next((i for i, e in enumerate(est) if e[0] == card), None)
    return _prefer(est, [e[1] for e in est], index, PLAY_MARGIN)


def ranked_bids(view: HandView, est: list[BidEstimate] | None = None) -> list[BidEstimate]:
    """:func:`~euchre.bots.policy.bid_estimates` (or ``est``), the conventional bid first
    when close.

    Bids that :func:`~euchre.bots.clear_cut.clear_bids` settles come before all others.
    """
    if est is None:
        est = bid_estimates(view)
    action = convention(view)
    index = next((i for i, e in enumerate(est) if e.action == action), None)
    if index is not None and est[index].utility < -50.0:
        index = None  # never a bid the tables rule out (a loner when a march wins the game)
    margin = BID_MARGIN
    if index and action.kind == A.PASS_KIND and _trumps_for(view, est[0].action) <= (
        LIGHT_CALL_TRUMPS
    ):
        margin = math.inf
    ranked = _prefer(est, [e.utility for e in est], index, margin)
    allowed = clear_bids(view)
    if allowed is None:
        return ranked
    # the hand and the score settle it: those bids first, the rest after (for hints)
    return [e for e in ranked if e.action in allowed] + [
        e for e in ranked if e.action not in allowed]


def bid_choices(view: HandView, rng: random.Random, budget: Budget = Budget()) -> list[
    BidEstimate
]:
    """:func:`ranked_bids`, loners judged on ``budget.bid_samples`` sampled deals if any."""
    # a bid the hand and the score settle (clear_cut) needs no sampling
    if len(view.legal) < 2 or clear_bids(view) is not None:
        return ranked_bids(view)
    if budget.bid_samples:
        ranked = ranked_bids(view, sampled_bid_estimates(
            view, rng, budget.bid_samples, budget.nodes))
    else:
        ranked = ranked_bids(view)
    if budget.bid_playouts:
        ranked = judge_close_bids(view, ranked, rng, budget)
    return ranked


def _table_bid(view: HandView) -> Action:
    return ranked_bids(view)[0].action


def _same_call(a: Action, b: Action) -> bool:
    return a.kind == b.kind and a.suit == b.suit


def judge_close_bids(
    view: HandView, ranked: list[BidEstimate], rng: random.Random, budget: Budget,
) -> list[BidEstimate]:
    """``ranked`` with its first bid and the best other within ``budget.playout_margin``
    (another call or suit, not the same call alone) played out on ``budget.bid_playouts``
    sampled deals (:func:`~euchre.bots.playouts.bid_playouts`); the better goes first."""
    first = ranked[0]
    rival = None
    for e in ranked[1:]:
        if e.utility < -50.0 or _same_call(e.action, first.action):
            continue
        if abs(first.utility - e.utility) <= budget.playout_margin and (
            rival is None or e.utility > rival.utility
        ):
            rival = e
    if rival is None:
        return ranked
    found = bid_playouts(view, [first.action, rival.action], rng, budget.bid_playouts,
                         _table_bid)
    if found is None or found.worth[rival.action] - found.worth[first.action] <= (
        budget.playout_z * found.diff_se
    ):
        return ranked
    return [rival, *[e for e in ranked if e is not rival]]


def _trumps_for(view: HandView, action: Action) -> int:
    """How many trumps the bidder would hold after making ``action`` (99 for a pass)."""
    if action.kind == A.ORDER:
        suit, round_ = view.upcard // 6, 1
    elif action.kind == A.CALL:
        suit, round_ = action.suit, (1 if view.phase == "benny" else 2)
    else:
        return 99
    if suit > 3:
        return 99
    return K.count(K.trumps(hand_for(view, suit, round_), suit))


class HardBot(Bot):
    """Samples the unseen cards and solves each deal; bids by hand-value tables."""

    level = "hard"
    default_budget: ClassVar[Budget] = Budget(samples=200, nodes=2_000_000, time_cap=2.0)
    """The level's work per decision."""

    def __init__(
        self,
        seed: int | None = None,
        samples: int | None = None,
        nodes: int | None = None,
        time_cap: float | None = None,
    ) -> None:
        """A bot doing at most ``samples`` deals and ``nodes`` solver nodes a decision."""
        super().__init__(seed)
        d = self.default_budget
        self.budget = dataclasses.replace(
            d,
            samples=d.samples if samples is None else samples,
            nodes=d.nodes if nodes is None else nodes,
            time_cap=d.time_cap if time_cap is None else time_cap,
        )
        """The work one decision may do."""

    @property
    def samples(self) -> int:
        """Sampled deals per card-play decision."""
        return self.budget.samples

    def decide(self, view: HandView, rng: random.Random) -> Action:
        """Pick an action for the phase."""
        phase = view.phase
        if phase == "play":
            return A.PLAYS[ranked_plays(view, rng, self.budget)[0].card]
        if phase == "discard":
            if view.seat in view.sitting_out:
                trump = view.trump
                hand = K.mask(view.hand)
                return A.DISCARDS[dealer_discard(hand, trump)]
            return A.DISCARDS[ranked_discards(view, rng, self.budget)[0][0]]
        if phase in ("order", "call", "benny"):
            return bid_choices(view, rng, self.budget)[0].action
        if phase == "defend":
            lone, pair = evaluate_defend_alone(view, rng, self.budget)
            return A.DEFEND_ALONE if lone > pair + DEFEND_ALONE_MARGIN else A.PASS
        if phase == "farmer":
            return farmer_choice(view)
        return view.legal[0]  # pragma: no cover - every phase with a choice is above


def farmer_choice(view: HandView) -> Action:
    """A farmer's hand is throw in: nines and tens lose more than a new deal does."""
    return A.THROW if A.THROW in view.legal else view.legal[0]


__all__ = [
    "Budget",
    "HardBot",
    "PlayEstimate",
    "bid_choices",
    "evaluate_discards",
    "evaluate_plays",
    "judge_close_bids",
    "ranked_bids",
    "ranked_discards",
    "ranked_plays",
]
