"""Records as the public may see them, and replay frames of finished games.

Storage keeps the whole record, including the hand in progress and its secret seed.
:func:`public_record` drops that hand, so a record served while a game is running
never shows a card that is still hidden.
"""

from __future__ import annotations

from typing import Any

from ...cards import card_text, suit_text
from ...game import GameState
from ...hand import HandState
from ...record import GameRecord, HandRecord


def public_record(record: GameRecord) -> GameRecord:
    """The record with any unfinished hand (its deal and its seed) removed."""
    hands = [
        HandRecord(h.dealer, h.deal, list(h.actions), h.result, h.seed, dict(h.client_seeds))
        for h in record.hands
        if h.result is not None
    ]
    return GameRecord(record.rules, hands, record.final)


def game_record(game: GameState, seeds: list[str],
                client_seeds: list[dict[int, str]] | None = None) -> GameRecord:
    """The full (private) record of a game with each hand's seed and the players' seeds."""
    return GameRecord.from_game(game, list(seeds), list(client_seeds or []))


def hand_json(hand: HandState, seed: str | None,
              client_seeds: dict[int, str] | None = None) -> dict[str, Any]:
    """One hand as it appears in :meth:`GameRecord.to_json` (with its seeds, if any)."""
    result = hand.points if hand.is_over else None
    record = GameRecord(hand.rules, [HandRecord(hand.dealer, hand.deal, hand.history(),
                                                result, seed, dict(client_seeds or {}))])
    out: dict[str, Any] = record.to_json()["hands"][0]
    return out


def _frame(hand: HandState, number: int, score: tuple[int, int],
           last: tuple[int, str] | None) -> dict[str, Any]:
    leader, trick = hand.trick
    return {
        "hand_number": number,
        "dealer": hand.dealer,
        "phase": hand.phase_name,
        "to_act": hand.to_act,
        "hands": [[card_text(c) for c in hand.hand(s)] for s in range(4)],
        "upcard": card_text(hand.upcard),
        "kitty": [card_text(c) for c in hand.deal.kitty],
        "trump": suit_text(hand.trump) if hand.trump >= 0 else None,
        "maker": hand.maker if hand.maker >= 0 else None,
        "alone": hand.alone,
        "sitting_out": [s for s in range(4) if hand.sits_out(s)],
        "leader": leader if leader >= 0 else None,
        "trick": [card_text(c) for c in trick],
        "tricks": [
            {"leader": ld, "cards": [card_text(c) for c in cards], "winner": w}
            for ld, cards, w in hand.tricks
        ],
        "tricks_won": list(hand.tricks_won),
        "points": list(hand.points),
        "score": list(score),
        "last": {"seat": last[0], "action": last[1]} if last else None,
    }


def replay_frames(record: GameRecord) -> list[dict[str, Any]]:
    """Every position of a finished game, open-handed: one frame per deal and per action."""
    game = record.replay()
    frames: list[dict[str, Any]] = []
    score = (0, 0)
    for number, hand in enumerate(game.all_hands(), 1):
        start = HandState(game.rules, hand.dealer, hand.deal, score)
        frames.append(_frame(start, number, score, None))
        state = start
        for seat, action in hand.history():
            state = state.apply(action)
            now = score
            if state.is_over:
                now = (score[0] + state.points[0], score[1] + state.points[1])
            frames.append(_frame(state, number, now, (seat, str(action))))
        score = (score[0] + hand.points[0], score[1] + hand.points[1])
    return frames
