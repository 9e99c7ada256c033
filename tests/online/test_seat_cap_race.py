"""The cap on seats per person holds under any race (issue 34, item 5): ``Play now``, seat
claims and a start that is undone (a stake not covered), sent at once through two
processes' lobbies on one database (SQLite and PostgreSQL), never leave a person at more
seats at waiting tables than the cap. The check is made in the transaction that seats
them, under their lock in the database, so no per-process lock is needed for it."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import delete

from euchre.storage.lobby_models import open_tables
from euchre.storage.open_tables_sql import SqlOpenTableStore
from euchre.storage.sql import SqlStore, make_engine
from euchre.table.actor.errors import TooManySeats
from euchre.table.kinds.lobby import Lobby
from euchre.table.kinds.online import OnlineOptions

ROUNDS = 200
"""Races per database; each sends five changes at once."""

CAP = 2


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh database's URL, migrated."""
    if request.param == "sqlite":
        url = f"sqlite+aiosqlite:///{tmp_path}/seats.db"
        store = await SqlStore.open(url)
        await store.close()
        yield url
        return
    server = os.environ.get("EUCHRE_TEST_DATABASE_URL")
    if not server:
        pytest.skip("PostgreSQL: set EUCHRE_TEST_DATABASE_URL (scripts/test does) to run")
    from testdb import drop_postgres, fresh_postgres

    url = await fresh_postgres(server)
    store = await SqlStore.open(url)
    await store.close()
    try:
        yield url
    finally:
        await drop_postgres(url)


def _lobby(url: str) -> Lobby:
    """A lobby of its own engine and pool, as another process's would be."""
    lobby = Lobby(SqlOpenTableStore(make_engine(url)))
    lobby.seats_per_person = CAP
    return lobby


async def _full_quick_table(lobby: Lobby, holder: str, clock: int) -> str:
    """A quick table where ``holder`` sits South and three others fill it."""
    options = OnlineOptions(name="Ann", seconds_per_move=clock)
    table, _, _ = await lobby.quick_seat(options, None, holder)
    for i, name in enumerate(("Bob", "Cy", "Dee")):
        await lobby.claim(table.id, i + 1, name, holder=f"ip:other{i}")
    return table.id


async def _refused_start(lobby: Lobby, table_id: str) -> None:
    """A start the game cannot follow (a stake not covered): marked started, then undone."""
    await lobby.start(table_id, lambda t: None)
    await asyncio.sleep(0)
    await lobby.unstart(table_id)


async def test_play_now_claims_and_undone_starts_at_once_never_pass_the_cap(
        database: str) -> None:
    lobbies = [_lobby(database), _lobby(database)]
    rng = random.Random(34)
    refused = 0
    try:
        for round_ in range(ROUNDS):
            holder = f"ip:10.34.{round_ // 250}.{round_ % 250}"
            base = 100 + 10 * round_  # each round's own quick-play match keys
            seated = await _full_quick_table(lobbies[0], holder, base)
            invites = [(await lobbies[1].create(OnlineOptions(name=f"Q{i}"),
                                                creator=f"ip:creator{i}"))[0].id
                       for i in range(2)]
            racers: list[Awaitable[Any]] = [
                _refused_start(lobbies[rng.randrange(2)], seated),
                lobbies[0].quick_seat(OnlineOptions(name="Ann", seconds_per_move=base + 1),
                                      None, holder),
                lobbies[1].quick_seat(OnlineOptions(name="Ann", seconds_per_move=base + 2),
                                      None, holder),
                lobbies[1].claim(invites[0], 1, "Ann", holder=holder),
                lobbies[0].claim(invites[1], 2, "Ann", holder=holder),
            ]
            rng.shuffle(racers)
            results = await asyncio.gather(*racers, return_exceptions=True)
            failures = [r for r in results if isinstance(r, BaseException)]
            assert all(isinstance(f, TooManySeats) for f in failures), failures
            refused += len(failures)
            # The undone start gave its seat back: the person holds it and one other.
            held = await lobbies[1].seats_held(holder)
            assert len(held) == CAP, (round_, [t.id for t in held])
            assert seated in {t.id for t in held}
            for lobby in lobbies:  # the next round starts from an empty lobby
                assert len(await lobby.seats_held(holder)) == CAP
            async with lobbies[0].store.engine.begin() as conn:  # type: ignore[attr-defined]
                await conn.execute(delete(open_tables))
        assert refused == 3 * ROUNDS  # four of the five seat the person; one fits
    finally:
        for lobby in lobbies:
            await lobby.store.engine.dispose()  # type: ignore[attr-defined]
