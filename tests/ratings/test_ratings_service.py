"""The rating service: a game applies once (twice in a row, or two at once), the model moves
partners together, and the leaderboard orders and pages (also over HTTP, as documented)."""

from __future__ import annotations

import asyncio

import pytest
from account_rows import league, new_account
from rated_helpers import app_for
from sqlalchemy.ext.asyncio import AsyncEngine
from starlette.testclient import TestClient

from euchre.ratings import DEFAULT_MU, RatedGameError, Rating, RatingService, rate_partnerships
from euchre.ratings.model import rating_number
from euchre.server.root import root_of


def test_partners_move_together_and_the_winners_gain() -> None:
    after = rate_partnerships([Rating()] * 4, winner=1)
    assert after[1] == after[3] and after[0] == after[2]
    assert after[1].mu > DEFAULT_MU > after[0].mu
    assert all(r.sigma < Rating().sigma and r.games == 1 for r in after)
    with pytest.raises(ValueError):
        rate_partnerships([Rating()] * 4, winner=2)


def test_the_rating_people_read_is_1500_plus_60_per_unit_of_mu() -> None:
    # docs/ratings.md: one whole number, 1500 + 60 (mu - 25).
    assert Rating().number == rating_number(DEFAULT_MU) == 1500
    assert rating_number(27.0) == 1620 and rating_number(22.5) == 1350
    assert rating_number(25.0 + 1 / 120) == 1500 and rating_number(25.0 + 0.01) == 1501
    assert Rating(mu=30.0).to_json()["number"] == 1800
    # It moves the way the game went: up for both winners, down for both losers, from the
    # first game (when sigma shrinks too) and after many.
    seats = [Rating()] * 4
    for game in range(40):
        winner = game % 2 if game < 20 else 0
        after = rate_partnerships(seats, winner)
        for seat in range(4):
            up = after[seat].number - seats[seat].number
            assert (up > 0) if seat % 2 == winner else (up < 0), (game, seat, up)
        seats = after


async def test_a_game_applies_once_even_when_asked_twice_at_once(migrated: AsyncEngine) -> None:
    ids = [await new_account(migrated) for _ in range(4)]
    service = RatingService(migrated)
    await service.register("g1", ids)
    await service.register("g1", ids)  # a repeat changes nothing
    assert await service.status("g1") == "pending" and await service.pending() == ["g1"]
    done = await asyncio.gather(service.apply("g1", 0), service.apply("g1", 0))
    assert sorted(done) == [False, True]
    assert await service.apply("g1", 1) is False
    ratings = await service.of(ids)
    assert [ratings[a].games for a in ids] == [1, 1, 1, 1]
    assert ratings[ids[0]].mu > DEFAULT_MU > ratings[ids[1]].mu
    assert await service.status("g1") == "applied" and await service.pending() == []
    with pytest.raises(RatedGameError):
        await service.apply("nope", 0)
    with pytest.raises(RatedGameError):
        await service.register("g2", [ids[0], ids[0], ids[1], ids[2]])


async def _rate(engine: AsyncEngine, games: int) -> list[int]:
    """Five people; seats 0 & 2 (ids[0], ids[1]) win ``games`` games against ids[2], ids[3];
    ids[4] plays one game and wins it with ids[0]."""
    ids = [await new_account(engine, f"lead{i}") for i in range(5)]
    service = RatingService(engine)
    for g in range(games):
        await service.register(f"g{g}", [ids[0], ids[2], ids[1], ids[3]])
        await service.apply(f"g{g}", 0)
    await service.register("once", [ids[4], ids[2], ids[0], ids[3]])
    await service.apply("once", 0)
    return ids


async def test_the_leaderboard_orders_by_rating_and_pages(migrated: AsyncEngine) -> None:
    ids = await _rate(migrated, 3)
    # the order and the pages (who is established is the next test's)
    service = RatingService(migrated, games_needed=0, opponents_needed=0)
    everyone, total = await service.leaders(10)
    assert total == 5 and [x.rank for x in everyone] == [1, 2, 3, 4, 5]
    numbers = [x.rating.number for x in everyone]  # the number people read, best first
    assert numbers == sorted(numbers, reverse=True)
    assert [x.rating.mu for x in everyone] == sorted((x.rating.mu for x in everyone),
                                                     reverse=True)
    assert everyone[0].account_id == ids[0]  # four wins
    assert {x.account_id for x in everyone[-2:]} == {ids[2], ids[3]}  # four losses
    page, _ = await service.leaders(2, offset=2)
    assert [x.account_id for x in page] == [x.account_id for x in everyone[2:4]]
    assert [x.rank for x in page] == [3, 4]
    for leader in everyone:
        assert await service.rank_of(leader.account_id) == leader.rank


async def test_new_people_are_provisional_until_enough_games_against_enough_people(
        migrated: AsyncEngine) -> None:
    service = RatingService(migrated)
    assert (service.games_needed, service.opponents_needed) == (10, 6)
    # Four accounts (one person's, or four friends') play each other 30 times: never listed.
    ring = [await new_account(migrated, f"ring{i}") for i in range(4)]
    for g in range(30):
        await service.register(f"ring{g}", ring)
        await service.apply(f"ring{g}", 0)
    assert (await service.leaders(10)) == ([], 0)
    assert await service.provisional() == 4
    standing = await service.standing(ring[0])
    assert standing.provisional and (standing.games, standing.opponents) == (30, 2)
    assert await service.rank_of(ring[0]) is None
    # A league of eight, each 9 games: still provisional on games; the tenth lists them.
    club = [await new_account(migrated, f"club{i}") for i in range(8)]
    await league(migrated, club, 9, prefix="a")
    assert (await service.leaders(10))[1] == 0
    assert all([(await service.standing(a)).provisional for a in club])
    await league(migrated, club, 1, prefix="b")
    listed, total = await service.leaders(10)
    assert total == 8 and {x.account_id for x in listed} == set(club)
    assert not any([(await service.standing(a)).provisional for a in club])
    assert [await service.rank_of(x.account_id) for x in listed] == list(range(1, 9))
    assert await service.provisional() == 4  # the ring is still off the board
    assert await service.rank_of(ring[0]) is None


def test_api_leaders_orders_and_pages(db_url: str) -> None:
    with TestClient(app_for(db_url)) as client:
        engine = root_of(client.app).accounts.engine

        async def seed() -> None:
            await _rate(engine, 2)  # five people, provisional
            club = [await new_account(engine, f"lead{i}") for i in range(5, 13)]
            await league(engine, club, 10)
        client.portal.call(seed)  # type: ignore[union-attr]
        first = client.get("/api/leaders?limit=2").json()
        assert first["total"] == 8 and first["next"] == 2 and first["offset"] == 0
        assert first["provisional"] == 5
        assert (first["games_needed"], first["opponents_needed"]) == (10, 6)
        seen = list(first["leaders"])
        offset = first["next"]
        while offset is not None:
            page = client.get(f"/api/leaders?limit=2&offset={offset}").json()
            seen += page["leaders"]
            offset = page["next"]
        assert [x["rank"] for x in seen] == [1, 2, 3, 4, 5, 6, 7, 8]
        assert [x["number"] for x in seen] == sorted((x["number"] for x in seen),
                                                     reverse=True)
        for x in seen:  # the API's mu is rounded to 0.01, the number is from the exact one
            assert abs(x["number"] - (1500 + 60 * (x["mu"] - 25))) <= 1
        assert seen[0]["username"] == "lead5"  # the league's strongest
        assert not {x["username"] for x in seen} & {f"lead{i}" for i in range(5)}
        assert set(seen[0]) == {"rank", "username", "number", "mu", "sigma", "ordinal",
                                "games"}
        assert client.get("/api/leaders").json()["next"] is None
        for query in ("limit=0", "limit=101", "limit=x", "offset=-1", "offset=y"):
            r = client.get(f"/api/leaders?{query}")
            assert r.status_code == 400 and r.json()["error"], query
        assert client.get("/leaders").status_code == 200
        spec = client.get("/openapi.json").json()
        assert {"/api/leaders", "/api/me/stats", "/api/games/{game_id}/stats"} <= set(
            spec["paths"])
        assert "Leaders" in spec["components"]["schemas"]
        rated = spec["components"]["schemas"]["OnlineTableRequest"]["properties"]["rated"]
        assert rated["type"] == "boolean"
        assert client.get("/api/me/stats").status_code == 401


async def test_two_games_sharing_people_applied_at_once_lose_no_update(
        migrated: AsyncEngine) -> None:
    ids = [await new_account(migrated) for _ in range(6)]
    service = RatingService(migrated)
    await service.register("a", ids[:4])
    await service.register("b", [ids[0], ids[4], ids[1], ids[5]])  # ids 0 and 1 in both
    assert await asyncio.gather(service.apply("a", 0), service.apply("b", 1)) == [True, True]
    ratings = await service.of(ids)
    assert [ratings[a].games for a in ids] == [2, 2, 1, 1, 1, 1]
