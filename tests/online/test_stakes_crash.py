"""Crash and restart mid stake game against people: the real server is killed (SIGKILL)
after a person left, started again on the same database (PostgreSQL when
``EUCHRE_TEST_DATABASE_URL`` is set, else a SQLite file), and the game, the seat a computer
took over and the pot carry on: settled exactly once, nothing charged twice."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest
from stake_helpers import (
    Person,
    Players,
    check_no_coin_created_or_lost,
    leave_at_once,
    pot_figures,
    stake_table,
)

from ledger_fixtures import db_url
from live_server import ServerProcess, free_port

__all__ = ["db_url"]


@pytest.fixture
def server(db_url: str) -> Iterator[ServerProcess]:
    """A server process on a fresh database (stopped at the end)."""
    s = ServerProcess(db_url, free_port())
    s.start()
    try:
        yield s
    finally:
        s.stop()


def test_a_killed_server_settles_the_stake_game_exactly_once(
        server: ServerProcess, db_url: str) -> None:
    base = server.base
    people = [Person(base, name) for name in ("Ann", "Bob", "Cyd", "Dee")]
    table_id, tokens = stake_table(people, 100)
    r = people[0].post(f"/api/tables/{table_id}/start", {"token": tokens[0]})
    assert r.status_code == 200, r.text
    players = Players(base, table_id, tokens, seed=3)
    players.play(lambda p: p.moves[1] >= 2)
    assert [a.status_code for a in leave_at_once(base, table_id, tokens[1], 3)] == [200] * 3
    players.play(lambda p: sum(p.moves.values()) >= 12, idle=frozenset({1}))
    assert not players.over()

    server.kill()
    players.sockets.clear()  # they are dead with the server
    server.start()

    # Nothing moved again: the stakes and Bob's one fee, the pot still active
    assert [p.balance() for p in people] == [900, 890, 900, 900]
    figures = asyncio.run(pot_figures(db_url, table_id))
    assert figures["status"] == "active" and figures["sums"] == {"stake": -400, "fee": -10}
    # Bob's seat is still a computer's, and his token still moves nothing
    seen = httpx.get(f"{base}/api/tables/{table_id}", params={"token": tokens[0]}).json()
    assert seen["seats"][1]["replaced"] == "left" and not seen["game_over"]

    again = Players(base, table_id, tokens, seed=4)
    try:
        again.play(lambda p: p.over(), idle=frozenset({1}))
        assert [e["code"] for e in again.errors[1]] == ["replaced"]
        table = again.tables[0]
    finally:
        again.close()
    winner = table["winner"]
    figures = asyncio.run(pot_figures(db_url, table_id))
    assert figures["status"] == "settled" and figures["winner"] == winner
    check_no_coin_created_or_lost(figures, 400)
    balances = [p.balance() for p in people]
    # Ann and Cyd (side 0) against Bob, who left, and Dee (side 1)
    assert balances == ([1100, 890, 1100, 900] if winner == 0 else [900, 890, 900, 1100])
    assert figures["house"] == (0 if winner == 0 else 200)

    # A second crash after the end pays nothing again
    server.kill()
    server.start()
    assert [p.balance() for p in people] == balances
    assert asyncio.run(pot_figures(db_url, table_id)) == figures
    for p in people:
        p.close()
