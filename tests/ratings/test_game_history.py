"""Your games (issue 36 item 4): ``GET /api/me/played`` lists the signed-in person's finished
games from the database, newest first, a page at a time, each with its date, kind, rules,
partner, opponents, score from their side, rating change, coins and replay; games still
being played are left out. ``GET /api/people/{name}/games`` lists only their games at public
online tables (no practice, no private table), without coins."""

from __future__ import annotations

import datetime as dt
import time

from account_rows import new_account
from rated_helpers import app_for
from starlette.testclient import TestClient
from stats_helpers import stored_game

from euchre.coins.ledger import Ledger
from euchre.ratings import RatingService
from euchre.server.root import root_of
from euchre.stats import PlayerIndex


def test_your_finished_games_paged_and_a_persons_public_games(db_url: str) -> None:
    with TestClient(app_for(db_url)) as client:
        assert client.post("/api/accounts", json={"username": "ann_h",
                                                  "password": "correct horse"}).status_code == 201
        site = root_of(client.app)
        engine = site.accounts.engine
        accounts = site.accounts.accounts

        async def seed() -> None:
            ann = (await accounts.authenticate("ann_h", "correct horse")).id
            bob, cyd, dee = [await new_account(engine, n) for n in ("bob_h", "cyd_h", "dee_h")]
            index, store = PlayerIndex(engine), site.store
            t0 = time.time()
            # oldest first: a practice game, a public rated online game (Ann West, losing),
            # a private online game, a game still being played, a coin game
            robots = [("West (easy)", None), ("North (easy)", None), ("East (easy)", None)]
            games = [
                (stored_game("g-practice", "practice", [("ann_h", ann), *robots], at=t0),
                 [(0, ann)]),
                (stored_game("g-rated", "online", [("bob_h", bob), ("ann_h", ann), ("cyd_h", cyd),
                                             ("dee_h", dee)], at=t0 + 1), [(1, ann)]),
                (stored_game("g-private", "online", [("ann_h", ann), ("bob_h", bob),
                                               *robots[1:]], private=True, at=t0 + 2),
                 [(0, ann)]),
                (stored_game("g-playing", "online", [("ann_h", ann), *robots], finished=False,
                             at=t0 + 3), [(0, ann)]),
                (stored_game("g-coin", "practice", [("ann_h", ann), *robots], at=t0 + 4),
                 [(0, ann)]),
            ]
            for stored, seats in games:
                await store.save(stored)
                when = dt.datetime.fromtimestamp(stored.created_at, dt.UTC)
                index.now = lambda when=when: when  # type: ignore[misc]
                await index.record(stored.id, stored.kind, seats)
            ratings = RatingService(engine)
            await ratings.register("g-rated", [bob, ann, cyd, dee])
            await ratings.apply("g-rated", 0)
            ledger = Ledger(engine)
            await ledger.post(ann, -50, "stake", "s:g-coin", table_id="g-coin")
            await ledger.post(ann, 90, "payout", "p:g-coin", table_id="g-coin")

        client.portal.call(seed)  # type: ignore[union-attr]
        first = client.get("/api/me/played?limit=2").json()
        assert [g["id"] for g in first["games"]] == ["g-coin", "g-private"]
        assert first["next"] is not None and first["limit"] == 2 and first["offset"] == 0
        coin = first["games"][0]
        assert coin["coins"] == 40 and coin["result"] == "won" and coin["score"] == [6, 0]
        assert coin["replay"] == "/replay/g-coin" and coin["rating"] is None
        rest = client.get(f"/api/me/played?limit=2&offset={first['next']}").json()
        assert [g["id"] for g in rest["games"]] == ["g-rated", "g-practice"]  # not g-playing
        assert rest["next"] is None
        rated = rest["games"][0]
        assert rated["kind"] == "online" and rated["preset"] == "classic"
        assert rated["seat"] == 1 and rated["result"] == "lost" and rated["score"] == [0, 6]
        assert rated["partner"] == {"name": "dee_h", "computer": False, "bot": False}
        assert [o["name"] for o in rated["opponents"]] == ["cyd_h", "bob_h"]
        assert rated["rating"]["before"] == 1500 and rated["rating"]["after"] < 1500
        assert rated["coins"] is None
        practice = rest["games"][1]
        # a computer has its one name at the table, by its real seat (stored "North (easy)")
        assert practice["partner"] == {"name": "North (computer)", "computer": True, "bot": False}
        assert [o["name"] for o in practice["opponents"]] == ["West (computer)", "East (computer)"]
        # Ann's public page: only the public online game, no coins; her rating.
        public = client.get("/api/people/ANN_H/games").json()
        assert public["username"] == "ann_h" and [g["id"] for g in public["games"]] == [
            "g-rated"]
        assert public["rating"]["number"] < 1500 and public["rating"]["provisional"] is True
        card = client.get("/api/people/Ann_H").json()["person"]
        assert card["username"] == "ann_h" and card["rating"] == public["rating"]
        assert client.get("/api/people/nobody_here").json() == {"person": None}
        assert client.get("/api/people/nobody_here/games").json()["code"] == "no_person"
        assert client.get("/api/people/nobody_here/games").status_code == 404
        for query in ("limit=0", "limit=51", "offset=-1", "limit=x"):
            assert client.get(f"/api/me/played?{query}").status_code == 400, query
        client.cookies.clear()
        assert client.get("/api/me/played").status_code == 401
        assert client.get("/people/ann_h").status_code == 200  # the page
