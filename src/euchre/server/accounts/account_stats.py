"""An account's statistics, read from the records of its coin games.

Counted for the person's seat: games finished and won, hands played, trump called and
hands made (called and took three tricks or more), euchres (the other side called and
took fewer than three), times euchred, loners tried and made (three tricks or more alone)
and lone marches (all five).
"""

from __future__ import annotations

from typing import Any

from ...coins.service import CoinGame
from ...errors import RecordError
from ...game import GameState
from ...record import GameRecord
from ...storage.base import GameStore

STAT_NAMES = ("games", "wins", "losses", "left", "hands", "trump_called", "hands_made",
              "euchred", "euchres", "loners_tried", "loners_made", "loner_marches")
"""The statistics, in display order."""


def hand_stats(game: GameState, seat: int) -> dict[str, int]:
    """The hand counts of one game for ``seat`` (only finished hands count)."""
    out = dict.fromkeys(STAT_NAMES[4:], 0)
    side = seat % 2
    for hand in game.all_hands():
        if not hand.is_over or hand.thrown_in or hand.reneged is not None:
            continue
        out["hands"] += 1
        maker_side = hand.maker % 2
        made = hand.tricks_won[maker_side] >= 3
        if hand.maker == seat:
            out["trump_called"] += 1
            out["hands_made"] += int(made)
            out["euchred"] += int(not made)
            if hand.alone:
                out["loners_tried"] += 1
                out["loners_made"] += int(made)
                out["loner_marches"] += int(hand.tricks_won[maker_side] == 5)
        elif maker_side != side and not made:
            out["euchres"] += 1
    return out


async def account_stats(store: GameStore, games: list[CoinGame]
                        ) -> tuple[dict[str, int], list[dict[str, Any]]]:
    """(Totals, one entry per game) for an account's coin games, newest first."""
    totals = dict.fromkeys(STAT_NAMES, 0)
    per_game = []
    for coin_game in games:
        status = coin_game.status
        entry: dict[str, Any] = {**coin_game.to_json(), "id": coin_game.table_id,
                                 "score": None, "replay": None, "hands": 0}
        stored = await store.get(coin_game.table_id)
        if stored is not None:
            try:
                game = GameRecord.from_json(stored.record).replay()
            except RecordError:
                game = None
            if game is not None:
                counts = hand_stats(game, coin_game.seat)
                for key, value in counts.items():
                    totals[key] += value
                mine = coin_game.seat % 2
                entry["score"] = [game.score[mine], game.score[1 - mine]]
                entry["hands"] = counts["hands"]
            if stored.status == "finished":
                entry["replay"] = f"/replay/{coin_game.table_id}"
        if status in ("won", "lost", "left"):
            totals["games"] += 1
            totals[{"won": "wins", "lost": "losses", "left": "left"}[status]] += 1
        per_game.append(entry)
    return totals, per_game
