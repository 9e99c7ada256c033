"""Each person's rating before and after each rated game: written in the transaction that
applies the game (once however often applied), read per game (the game-over panel) and per
person (the account page's history), over the migrations and over HTTP."""

from __future__ import annotations

import asyncio

from account_rows import new_account
from rated_helpers import app_for
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.testclient import TestClient

from euchre.ratings import Rating, RatingService, rate_partnerships
from euchre.server.root import root_of


async def test_a_game_records_each_persons_rating_before_and_after(
        migrated: AsyncEngine) -> None:
    ids = [await new_account(migrated, f"rc{i}") for i in range(4)]
    service = RatingService(migrated)
    await service.register("r1", ids)
    assert await service.changes_of_game("r1") == []  # pending: nothing yet
    await asyncio.gather(service.apply("r1", 1), service.apply("r1", 1))  # once
    changes = await service.changes_of_game("r1")
    expected = rate_partnerships([Rating()] * 4, winner=1)
    assert [c.seat for c in changes] == [0, 1, 2, 3]
    assert [c.username for c in changes] == ["rc0", "rc1", "rc2", "rc3"]
    assert [c.won for c in changes] == [False, True, False, True]
    assert all(c.before.mu == Rating().mu and c.before.sigma == Rating().sigma
               for c in changes)
    assert [(c.after.mu, c.after.sigma) for c in changes] == [
        (r.mu, r.sigma) for r in expected]
    # A second game: its "before" is the first game's "after"; history newest first.
    await service.register("r2", [ids[1], ids[0], ids[3], ids[2]])
    await service.apply("r2", 0)
    history = await service.history(ids[1])
    assert [c.game_id for c in history] == ["r2", "r1"]
    assert history[0].before == history[1].after and history[0].won
    now = (await service.of([ids[1]]))[ids[1]]
    assert (history[0].after.mu, history[0].after.sigma) == (now.mu, now.sigma)


def test_the_api_shows_a_games_changes_and_a_persons_history(db_url: str) -> None:
    with TestClient(app_for(db_url)) as client:
        engine = root_of(client.app).accounts.engine

        me = client.post("/api/accounts", json={"username": "ann_r",
                                                "password": "correct horse"})
        assert me.status_code == 201

        async def play() -> None:
            ids = [await new_account(engine, f"ra{i}") for i in range(3)]
            accounts = root_of(client.app).accounts.accounts
            ann = (await accounts.authenticate("ann_r", "correct horse")).id
            service = RatingService(engine)
            await service.register("g-api", [ann, *ids])
            await service.register("g-wait", [ids[0], ann, ids[1], ids[2]])
            await service.apply("g-api", 0)

        client.portal.call(play)  # type: ignore[union-attr]
        game = client.get("/api/games/g-api/ratings").json()
        assert game["status"] == "applied" and [c["name"] for c in game["changes"]] == [
            "ann_r", "ra0", "ra1", "ra2"]
        ann = game["changes"][0]
        assert ann["won"] and ann["after"]["mu"] > ann["before"]["mu"]
        assert set(ann["before"]) == {"number", "mu", "sigma", "ordinal"}
        assert ann["before"]["number"] == 1500 and ann["after"]["number"] > 1500
        # one game against two people: every rating is still provisional, said per person
        assert [c["provisional"] for c in game["changes"]] == [True] * 4
        assert client.get("/api/games/g-wait/ratings").json() == {
            "id": "g-wait", "status": "pending", "changes": []}
        missing = client.get("/api/games/nope/ratings")
        assert missing.status_code == 404 and missing.json()["code"] == "no_game"
        history = client.get("/api/me/ratings").json()["changes"]
        assert [(c["game_id"], c["seat"], c["won"]) for c in history] == [("g-api", 0, True)]
        assert history[0]["after"] == ann["after"] and "provisional" not in history[0]
        assert client.get("/api/me/ratings?limit=0").status_code == 400
        client.cookies.clear()
        assert client.get("/api/me/ratings").status_code == 401
