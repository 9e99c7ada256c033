"""``euchre replay FILE``: print a recorded game hand by hand, or its first illegal action."""

from __future__ import annotations

import argparse

from .. import actions as A
from ..cards import card_text, suit_name
from ..errors import RecordError
from ..hand import SEAT_NAMES, HandState
from ..record import ReplayError, load


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``euchre replay``."""
    parser.add_argument("file", help="a game record (text or JSON)")


def describe_hand(number: int, hand: HandState) -> list[str]:
    """Lines summarising one replayed hand: the bidding, each trick, and the outcome."""
    lines = [f"Hand {number}: {SEAT_NAMES[hand.dealer]} deals, upcard {card_text(hand.upcard)}"]
    bids = [
        f"{SEAT_NAMES[seat]} {action}"
        for seat, action in hand.history()
        if action.kind not in (A.PLAY, A.DISCARD, A.RENEGE)
    ]
    if bids:
        lines.append("  bidding: " + ", ".join(bids))
    if hand.thrown_in:
        lines.append("  thrown in: no score")
        return lines
    if hand.maker >= 0:
        alone = " alone" if hand.alone else ""
        lines.append(f"  {SEAT_NAMES[hand.maker]} makes {suit_name(hand.trump)}{alone}")
        if hand.discard >= 0:
            lines.append(f"  {SEAT_NAMES[hand.dealer]} discards {card_text(hand.discard)}")
        if hand.lone_defender >= 0:
            lines.append(f"  {SEAT_NAMES[hand.lone_defender]} defends alone")
    for leader, cards, winner in hand.tricks:
        lines.append(
            f"  trick led by {SEAT_NAMES[leader]}: {' '.join(card_text(c) for c in cards)}"
            f" -> {SEAT_NAMES[winner]}"
        )
    if hand.reneged:
        seat, by = hand.reneged
        lines.append(f"  renege by {SEAT_NAMES[seat]}, claimed by {SEAT_NAMES[by]}")
    if hand.is_over:
        lines.append(f"  points {hand.points[0]}-{hand.points[1]}{_outcome(hand)}")
    else:
        lines.append("  (hand not finished)")
    return lines


def _outcome(hand: HandState) -> str:
    if hand.reneged or hand.maker < 0:
        return ""
    taken = hand.tricks_won[hand.maker % 2]
    if taken < 3:
        return " (makers euchred)"
    return " (march)" if taken == 5 else f" (makers take {taken})"


def run(args: argparse.Namespace) -> int:
    """Replay the file; exit 1 on an illegal action or an unreadable record."""
    try:
        record = load(args.file)
    except (OSError, RecordError) as e:
        print(f"cannot read {args.file}: {e}")
        return 1
    try:
        game = record.replay()
    except ReplayError as e:
        print(f"illegal: {e}")
        return 1
    score = [0, 0]
    for number, hand in enumerate(game.all_hands(), 1):
        for line in describe_hand(number, hand):
            print(line)
        score[0] += hand.points[0]
        score[1] += hand.points[1]
        print(f"  score: South/North {score[0]}, West/East {score[1]}")
    winner = game.winner
    print(f"Final score: South/North {game.score[0]}, West/East {game.score[1]}")
    if winner is not None:
        print(f"{'South/North' if winner == 0 else 'West/East'} won the game.")
    return 0
