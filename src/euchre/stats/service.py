"""A person's statistics from their stored games, by kind of table, and one seat of one game."""

from __future__ import annotations

import logging
from typing import Any

from ..errors import RecordError
from ..game import GameState
from ..record import GameRecord
from ..storage.base import FINISHED, GameStore, StoredGame
from .counts import Counts, game_counts
from .index import PlayerIndex

log = logging.getLogger(__name__)

KINDS = ("practice", "coin", "online")
"""The kinds of table statistics are kept for, in display order."""

MAX_GAMES = 200
"""The most recent games a person's statistics are computed over."""


def _replay(stored: StoredGame) -> GameState | None:
    try:
        return GameRecord.from_json(stored.record).replay()
    except RecordError:
        log.exception("game %s: the stored record is unreadable", stored.id)
        return None


def game_seat_stats(stored: StoredGame, seat: int) -> Counts | None:
    """``seat``'s counts in a stored game, once it has finished (else None)."""
    if stored.status != FINISHED:
        return None
    game = _replay(stored)
    return None if game is None else game_counts(game, seat)


async def person_stats(store: GameStore, index: PlayerIndex, account_id: int,
                       limit: int = MAX_GAMES) -> dict[str, Any]:
    """``{"all": counts, "by_kind": {kind: counts}, "games_counted": n,
    "games_unfinished": m}`` over the account's games played to their end (at most
    ``limit`` looked at, newest first). A game that ended without a result (left, closed,
    put away) is not counted, so the counts' ``games`` is ``games_counted``; ``m`` says how
    many of those were left out."""
    total = Counts()
    by_kind = {kind: Counts() for kind in KINDS}
    counted = unfinished = 0
    for played in await index.games_of(account_id, limit):
        stored = await store.get(played.game_id)
        counts = game_seat_stats(stored, played.seat) if stored is not None else None
        if counts is None:
            continue
        if not counts.games:
            unfinished += 1
            continue
        counted += 1
        total.add(counts)
        by_kind.setdefault(played.kind, Counts()).add(counts)
    return {"all": total.to_json(), "games_counted": counted,
            "games_unfinished": unfinished,
            "by_kind": {kind: c.to_json() for kind, c in by_kind.items()}}
