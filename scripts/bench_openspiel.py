"""Our computer players against OpenSpiel's C++ ISMCTS, inside OpenSpiel's own euchre.

Needs ``open_spiel`` from PyPI (``pip install -e '.[openspiel]'``; 2.0.2 was used). Each
deal is played twice in OpenSpiel's ``euchre`` (stick the dealer on, no lone defence,
as it plays by default), our player in seats 0 and 2 then in seats 1 and 3, the same
cards and dealer (duplicate). Points per deal are our side's OpenSpiel returns averaged
over the pair; the 95% interval is the normal interval over deals.

The action mapping, because the two engines ask different questions:

- cards: OpenSpiel's id is ``rank * 4 + suit``, ours ``suit * 6 + rank`` (suits C D H S,
  ranks 9 T J Q K A in both); the deal: chance action ``i`` gives a card to seat
  ``(dealer + i) % 4`` for ``i < 20``, then the upcard;
- bids: pass 24, order up or call suit ``s`` is ``25 + s`` in both rounds;
- alone: OpenSpiel asks the maker after the dealer's discard (29 alone, 30 with partner);
  we announce it with the bid. Our player's answer is the ``alone`` of its own bid; when
  OpenSpiel's player made trump, our engine learns its answer once it is given (until
  then our mirror of the hand takes the bid as not alone, as an OpenSpiel dealer would);
- the dealer may not discard the upcard in OpenSpiel: our player then takes its best
  other discard.

Our side of each hand is mirrored in our engine (``euchre.deal`` with the same cards,
the history replayed), and our player is asked with that seat's view.

Usage: python scripts/bench_openspiel.py [--level expert] [--deals N] [--sims S] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

import pyspiel  # type: ignore[import-not-found, unused-ignore]

import euchre
from euchre import actions as A
from euchre.actions import Action
from euchre.bots import make
from euchre.bots.base import decision_rng
from euchre.bots.hard import HardBot, ranked_discards
from euchre.hand import HandState

PASS, ALONE, PARTNER = 24, 29, 30
RULES = euchre.Rules(stick_the_dealer=True)


def to_os(card: int) -> int:
    """Our card id as OpenSpiel's."""
    return (card % 6) * 4 + card // 6


def from_os(card: int) -> int:
    """OpenSpiel's card id as ours."""
    return (card % 4) * 6 + card // 4


def deal_cards(deal_no: int, seed: int) -> tuple[int, list[list[int]], list[int]]:
    """The dealer, the four hands and the kitty (upcard first) of one deal, our ids."""
    rng = random.Random(f"openspiel:{seed}:deal:{deal_no}")
    deck = list(range(24))
    rng.shuffle(deck)
    hands = [deck[5 * s: 5 * s + 5] for s in range(4)]
    return deal_no % 4, hands, deck[20:]


def os_start(game: Any, dealer: int, hands: list[list[int]], kitty: list[int]) -> Any:
    """OpenSpiel's state after dealing these cards."""
    state = game.new_initial_state()
    state.apply_action(dealer)
    for i in range(20):
        state.apply_action(to_os(hands[(dealer + i) % 4][i // 4]))
    state.apply_action(to_os(kitty[0]))
    return state


class Mirror:
    """Our engine's copy of one OpenSpiel hand, rebuilt from the actions so far."""

    def __init__(self, dealer: int, hands: list[list[int]], kitty: list[int]) -> None:
        self.start = euchre.deal(RULES, dealer, hands, kitty)
        self.moves: list[tuple[int, int]] = []  # (seat, OpenSpiel action) after the deal
        self.our_alone: dict[int, bool] = {}  # a maker of ours: alone or not, by seat

    def state(self) -> HandState:
        """Our state now: OpenSpiel's moves so far, translated."""
        alone_answer = next((a == ALONE for s, a in self.moves if a in (ALONE, PARTNER)), None)
        state = self.start
        for seat, a in self.moves:
            if a in (ALONE, PARTNER):
                continue
            phase = state.phase_name
            if a == PASS:
                action: Action = A.PASS
            elif 25 <= a <= 28:
                alone = self.our_alone.get(seat, bool(alone_answer))
                if phase == "order":
                    action = A.ORDER_UP_ALONE if alone else A.ORDER_UP
                else:
                    action = A.CALLS_ALONE[a - 25] if alone else A.CALLS[a - 25]
            elif phase == "discard":
                action = A.DISCARDS[from_os(a)]
            else:
                action = A.PLAYS[from_os(a)]
            state = state.apply(action, seat=seat)
        return state


def our_move(bot: Any, mirror: Mirror, os_state: Any, seat: int) -> int:
    """Our player's OpenSpiel action for ``seat``."""
    legal: list[int] = list(os_state.legal_actions())
    if ALONE in legal:
        return ALONE if mirror.our_alone.get(seat, False) else PARTNER
    state = mirror.state()
    view = state.view(seat)
    action = bot.choose(view)
    if action.kind in (A.ORDER, A.CALL):
        mirror.our_alone[seat] = action.alone
        suit = euchre.cards.card_suit(view.upcard) if action.kind == A.ORDER else action.suit
        return 25 + suit
    if action.kind == A.PASS_KIND:
        return PASS
    move = to_os(action.card)
    if move in legal:
        return move
    # a discard OpenSpiel forbids (the upcard): the best other one
    if isinstance(bot, HardBot):
        ranked = ranked_discards(view, decision_rng(bot.seed, view), bot.budget)
        for card, *_ in ranked:
            if to_os(card) in legal:
                return to_os(card)
    return next(a for a in legal if a != move)


def play(game: Any, bot: Any, ours: int, ismcts: Any, dealer: int, hands: list[list[int]],
         kitty: list[int], times: list[float]) -> float:
    """One hand; our side is seats ``ours`` and ``ours + 2``. Our side's points."""
    state = os_start(game, dealer, hands, kitty)
    mirror = Mirror(dealer, hands, kitty)
    ismcts.restart()
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        if seat % 2 == ours:
            t = time.perf_counter()
            move = our_move(bot, mirror, state, seat)
            if len(legal) > 1:
                times.append(time.perf_counter() - t)
        else:
            move = ismcts.step(state) if len(legal) > 1 else legal[0]
        assert move in legal, (move, legal)
        mirror.moves.append((seat, move))
        state.apply_action(move)
    return float(state.returns()[ours])


def main() -> None:
    """Play the duplicate deals and print the figures (one JSON object with --json)."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--sims", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = pyspiel.load_game("euchre")
    evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed)
    ismcts = pyspiel.ISMCTSBot(args.seed, evaluator, 2.0, args.sims, -1,
                               pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    bot = make(args.level, seed=args.seed)
    diffs: list[float] = []
    times: list[float] = []
    start = time.perf_counter()
    for d in range(args.deals):
        dealer, hands, kitty = deal_cards(d, args.seed)
        a = play(game, bot, 0, ismcts, dealer, hands, kitty, times)
        b = play(game, bot, 1, ismcts, dealer, hands, kitty, times)
        diffs.append((a + b) / 2.0)
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
    times.sort()
    out = {
        "level": args.level, "sims": args.sims, "deals": n, "seed": args.seed,
        "points_per_deal": round(mean, 4), "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "decision_ms": {"p50": round(1000 * times[len(times) // 2], 2) if times else None,
                        "p99": round(1000 * times[int(0.99 * len(times))], 2) if times else None},
        "seconds": round(time.perf_counter() - start, 1),
    }
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{args.level} against OpenSpiel ISMCTS-{args.sims}: {mean:+.3f} points a deal "
              f"(95% {mean - half:+.3f} .. {mean + half:+.3f}) over {n} duplicate deals, "
              f"{out['seconds']} s")


if __name__ == "__main__":
    main()
