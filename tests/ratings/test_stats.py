"""Statistics come from the stored records: a fixed game's counts and rates, a person's
totals by kind of table through the index, and one finished game's seats over HTTP."""

from __future__ import annotations

import dataclasses
import time

from account_rows import T0, new_account
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.testclient import TestClient
from stats_helpers import EXPECTED, HAND_1, fixed_game

from euchre.game import GameState
from euchre.record import GameRecord
from euchre.stats import PlayerIndex, game_counts, person_stats
from euchre.storage.accounts_models import coin_games
from euchre.storage.base import FINISHED, PLAYING, StoredGame
from euchre.storage.memory import MemoryStore
from euchre.table.actor.seats import BOT, HUMAN, Seat, TableConfig


def _counts(counts: object) -> dict[str, int]:
    return {k: v for k, v in vars(counts).items()}


def test_each_seats_counts_in_the_fixed_game() -> None:
    game = fixed_game()
    assert game.score == (6, 0) and game.winner == 0
    assert [_counts(game_counts(game, s)) for s in range(4)] == EXPECTED


def test_rates_divide_by_what_they_say() -> None:
    game = fixed_game()
    south, west = game_counts(game, 0).rates(), game_counts(game, 1).rates()
    assert south == {"win_rate": 1.0, "points_per_hand": 3.0, "make_trump_rate": 0.5,
                     "euchred_rate": 0.0, "alone_rate": 0.5, "march_rate": 0.5}
    assert west["euchred_rate"] == 1.0 and west["points_per_hand"] == 0.0
    assert game_counts(game, 3).rates()["euchred_rate"] is None  # never made trump


def _stored(game_id: str, kind: str, status: str = FINISHED) -> StoredGame:
    game = fixed_game()
    if status != FINISHED:  # the first hand just dealt: a game still being played
        game = GameState(game.rules, game.first_dealer).deal(HAND_1)
    seats = tuple(Seat(HUMAN, f"P{i}") if i < 2 else Seat(BOT, f"B{i}", "easy", 1)
                  for i in range(4))
    config = TableConfig(game_id, kind, game.rules, (seats[0], seats[1], seats[2], seats[3]))
    now = time.time()
    return StoredGame(game_id, kind, status, 1, {"config": config.to_json()},
                      GameRecord.from_game(game).to_json(), now, now)


async def test_a_persons_statistics_by_kind_of_table(migrated: AsyncEngine) -> None:
    ann, bob = await new_account(migrated), await new_account(migrated)
    store = MemoryStore()
    index = PlayerIndex(migrated)
    for game in (_stored("p1", "practice"), _stored("o1", "online"), _stored("c1", "coin"),
                 _stored("run", "online", PLAYING)):
        await store.save(game)
    await index.record("p1", "practice", [(0, ann)])
    await index.record("p1", "practice", [(0, ann)])  # a repeat changes nothing
    await index.record("o1", "online", [(1, ann), (0, bob)])
    await index.record("run", "online", [(0, ann)])  # not finished: not counted
    async with migrated.begin() as conn:
        await conn.execute(coin_games.insert().values(
            table_id="c1", account_id=ann, seat=0, stake=100, status="won",
            seat_token="k", created_at=T0))
    # A coin game left in its first hand: stored as finished, but it has no result.
    left = _stored("left1", "coin", PLAYING)
    await store.save(dataclasses.replace(left, status=FINISHED))
    await index.record("left1", "coin", [(0, ann)])
    stats = await person_stats(store, index, ann)
    assert stats["games_counted"] == 3 == stats["all"]["games"]  # the words agree with the row
    assert stats["games_unfinished"] == 1
    by_kind = stats["by_kind"]
    assert {k: by_kind["practice"][k] for k in EXPECTED[0]} == EXPECTED[0]
    assert {k: by_kind["coin"][k] for k in EXPECTED[0]} == EXPECTED[0]
    assert {k: by_kind["online"][k] for k in EXPECTED[1]} == EXPECTED[1]
    total = {k: 2 * EXPECTED[0][k] + EXPECTED[1][k] for k in EXPECTED[0]}
    assert {k: stats["all"][k] for k in total} == total
    assert stats["all"]["points_per_hand"] == round((6 + 6 + 0) / 6, 3)
    mine = await person_stats(store, index, bob)
    assert {k: mine["all"][k] for k in EXPECTED[0]} == EXPECTED[0]


def test_a_finished_games_seats_over_http() -> None:
    from euchre.server import Settings, create_app

    store = MemoryStore()
    app = create_app(Settings(store=store, resume=False))
    with TestClient(app) as client:
        import asyncio

        asyncio.run(store.save(_stored("done", "practice")))
        asyncio.run(store.save(_stored("live", "practice", PLAYING)))
        body = client.get("/api/games/done/stats").json()
        assert [{k: s[k] for k in EXPECTED[0]} for s in body["seats"]] == EXPECTED
        assert body["seats"][0]["name"] == "P0" and body["kind"] == "practice"
        assert client.get("/api/games/live/stats").status_code == 409
        assert client.get("/api/games/nope/stats").status_code == 404
