"""A signed-in person's seat is recorded with their account, in the stored table and in the
index the statistics read; a guest's is not."""

from __future__ import annotations

from typing import Any

from rated_helpers import People, app_for
from starlette.testclient import TestClient

from euchre.server.root import root_of


def _stored_seats(client: TestClient, table_id: str) -> list[dict[str, Any]]:
    store = root_of(client.app).store
    stored = client.portal.call(store.get, table_id)  # type: ignore[union-attr]
    seats: list[dict[str, Any]] = stored.meta["config"]["seats"]
    return seats


def _played(client: TestClient, account_id: int) -> list[tuple[str, int, str]]:
    players = root_of(client.app).ratings.players
    games = client.portal.call(players.games_of, account_id)  # type: ignore[union-attr]
    return [(g.game_id, g.seat, g.kind) for g in games]


def _account_id(client: TestClient, name: str) -> int:
    from sqlalchemy import select

    from euchre.storage.accounts_models import accounts

    engine = root_of(client.app).accounts.engine

    async def find() -> int:
        async with engine.connect() as conn:
            return int((await conn.execute(select(accounts.c.id).where(
                accounts.c.username == name))).scalar_one())

    return int(client.portal.call(find))  # type: ignore[union-attr]


def test_practice_and_online_seats_carry_the_account(db_url: str) -> None:
    with TestClient(app_for(db_url)) as client:
        people = People(client)
        people.sign_up("Ann")
        ann = _account_id(client, "Ann")
        mine = people.post("Ann", "/api/tables", {"kind": "practice"}, csrf=False).json()
        seats = _stored_seats(client, mine["id"])
        assert (seats[0]["account_id"], seats[0]["account"]) == (ann, "Ann")
        assert all("account_id" not in s for s in seats[1:])
        guest = people.post(None, "/api/tables", {"kind": "practice"}).json()
        assert all("account_id" not in s for s in _stored_seats(client, guest["id"]))

        made = people.post("Ann", "/api/tables", {"kind": "online", "name": "Host"}).json()
        gus = people.post(None, f"/api/tables/{made['id']}/seats",
                          {"seat": 1, "name": "Gus"}).json()
        assert gus["seat"] == 1
        r = people.post("Ann", f"/api/tables/{made['id']}/start", {"token": made["token"]})
        assert r.status_code == 200
        seats = _stored_seats(client, made["id"])
        assert (seats[0]["name"], seats[0]["account_id"]) == ("Ann", ann)
        assert (seats[1]["name"], seats[1].get("account_id")) == ("Gus", None)
        assert sorted(_played(client, ann)) == sorted([(mine["id"], 0, "practice"),
                                                       (made["id"], 0, "online")])
        # Nothing finished yet: nothing counted.
        stats = people.as_("Ann").get("/api/me/stats").json()
        assert stats["stats"]["games_counted"] == 0 and stats["rating"] is None
        assert stats["standing"]["provisional"] and stats["standing"]["games"] == 0  # new
        # The table the person sees never shows an account id.
        table = client.get(f"/api/tables/{made['id']}?token={gus['token']}").json()
        assert "account_id" not in str(table)
