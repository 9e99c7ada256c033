"""JSON for the engine protocol (``session.py``): results of deals and actions, the open state."""

from __future__ import annotations

from typing import Any

from ..cards import Card, card_text, suit_text
from ..game import GameState
from ..hand import HandState
from ..record import GameRecord


def _cards(cards: Any) -> list[str]:
    return [card_text(c) for c in cards]


def _trick(leader: int, cards: tuple[Card, ...], winner: int) -> dict[str, Any]:
    return {"leader": leader, "cards": _cards(cards), "winner": winner}


def deal_result(game: GameState, commitment: str | None) -> dict[str, Any]:
    """The response fields after a deal: the hand's number, dealer, upcard and commitment."""
    hand = game.current
    assert hand is not None
    return {
        "hand_number": len(game.all_hands()),
        "dealer": hand.dealer,
        "upcard": card_text(hand.upcard),
        "commitment": commitment,
        "to_act": game.to_act,
        "phase": hand.phase_name,
    }


def action_result(before: GameState, after: GameState, seat: int | None) -> dict[str, Any]:
    """The response fields after an action: what it completed (a trick, the hand, the game)."""
    hand = after.current
    assert hand is not None and before.current is not None
    action = hand.history()[-1][1]
    out: dict[str, Any] = {
        "seat": seat if seat is not None else hand.history()[-1][0],
        "action": str(action),
        "to_act": after.to_act,
        "phase": hand.phase_name,
        "trick": None,
        "hand_over": hand.is_over,
        "points": list(hand.points) if hand.is_over else None,
        "score": list(after.score),
        "game_over": after.is_over,
        "winner": after.winner,
    }
    if len(hand.tricks) > len(before.current.tricks):
        out["trick"] = _trick(*hand.tricks[-1])
    return out


def hand_json(hand: HandState, seed: str | None) -> dict[str, Any]:
    """One hand, open: every seat's cards, the kitty, the history, the shuffle seed."""
    leader, trick = hand.trick
    return {
        "dealer": hand.dealer,
        "pattern": hand.deal.pattern,
        "phase": hand.phase_name,
        "to_act": hand.to_act,
        "dealt": [_cards(h) for h in hand.deal.hands],
        "kitty": _cards(hand.deal.kitty),
        "upcard": card_text(hand.upcard),
        "hands": [_cards(hand.hand(s)) for s in range(4)],
        "kitty_down": _cards(hand.kitty_down),
        "trump": suit_text(hand.trump) if hand.trump >= 0 else None,
        "maker": hand.maker if hand.maker >= 0 else None,
        "alone": hand.alone,
        "lone_defender": hand.lone_defender if hand.lone_defender >= 0 else None,
        "sitting_out": [s for s in range(4) if hand.sits_out(s)],
        "discard": card_text(hand.discard) if hand.discard >= 0 else None,
        "leader": leader if leader >= 0 else None,
        "trick": _cards(trick),
        "tricks": [_trick(*t) for t in hand.tricks],
        "tricks_won": list(hand.tricks_won),
        "points": list(hand.points),
        "thrown_in": hand.thrown_in,
        "reneged": list(hand.reneged) if hand.reneged else None,
        "history": [[s, str(a)] for s, a in hand.history()],
        "seed": seed,
    }


def game_json(game: GameState, seeds: tuple[str | None, ...]) -> dict[str, Any]:
    """The whole game, open (hidden cards included): for programs that own the game."""
    hand = game.current
    number = len(game.all_hands())
    return {
        "rules": game.rules.to_dict(),
        "rules_text": game.rules.to_text(),
        "first_dealer": game.first_dealer,
        "score": list(game.score),
        "hand_number": number,
        "needs_deal": game.needs_deal,
        "next_dealer": game.next_dealer if game.needs_deal else None,
        "game_over": game.is_over,
        "winner": game.winner,
        "to_act": game.to_act,
        "legal": [str(a) for a in game.legal_actions()],
        "hand": hand_json(hand, seeds[number - 1]) if hand is not None else None,
    }


def record_of(game: GameState, seeds: tuple[str | None, ...], public: bool = False) -> GameRecord:
    """The game's record, with the shuffle seed of each hand dealt from one.

    ``public`` leaves out a hand in progress (its cards and its still secret seed), as the
    site does while a game runs.
    """
    record = GameRecord.from_game(game, list(seeds))
    if public:
        record.hands = [h for h in record.hands if h.result is not None]
    return record
