"""Which account sat where at which table: the index the statistics read games through.

Practice and online tables write a row per signed-in person's seat when they open; coin
games are found through ``coin_games``, which already says whose table it is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import literal, select, union_all
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from ..coins.ledger import utcnow
from ..storage.accounts_models import coin_games
from ..storage.people_models import game_players


@dataclass(frozen=True)
class PlayedGame:
    """A game an account sat at."""

    game_id: str
    """The game (table) id."""
    seat: int
    """The account's seat."""
    kind: str
    """``practice``, ``coin`` or ``online``."""


class PlayerIndex:
    """The ``game_players`` rows, with coin games beside them."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow) -> None:
        """The index on ``engine`` (migrated)."""
        self.engine = engine
        """The database (the accounts')."""
        self.now = now
        """The clock for row times."""
        self._insert = pg_insert if engine.dialect.name == "postgresql" else sqlite_insert

    async def record(self, game_id: str, kind: str, seats: Sequence[tuple[int, int]]) -> None:
        """Note that each (seat, account) sat at ``game_id``; a repeat changes nothing."""
        if not seats:
            return
        now = self.now()
        async with self.engine.begin() as conn:
            await conn.execute(self._insert(game_players).values([
                {"game_id": game_id, "seat": seat, "account_id": account, "kind": kind,
                 "created_at": now} for seat, account in seats
            ]).on_conflict_do_nothing(index_elements=["game_id", "seat"]))

    async def games_of(self, account_id: int, limit: int = 200, offset: int = 0
                       ) -> list[PlayedGame]:
        """The account's games of every kind, newest first (at most ``limit``, after the
        first ``offset``)."""
        people = select(game_players.c.game_id, game_players.c.seat, game_players.c.kind,
                        game_players.c.created_at).where(game_players.c.account_id == account_id)
        coins = select(coin_games.c.table_id.label("game_id"), coin_games.c.seat,
                       literal("coin").label("kind"), coin_games.c.created_at
                       ).where(coin_games.c.account_id == account_id)
        both = union_all(people, coins).subquery()
        query = (select(both).order_by(both.c.created_at.desc(), both.c.game_id)
                 .limit(limit).offset(offset))
        async with self.engine.connect() as conn:
            return [PlayedGame(str(r.game_id), int(r.seat), str(r.kind))
                    for r in await conn.execute(query)]
