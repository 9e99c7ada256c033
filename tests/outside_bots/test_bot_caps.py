"""A person's outside bots count with them for the caps on waiting tables and seats (issue
34, item 3): one person held 23 waiting tables through bot accounts, alone 3. In process,
on SQLite and PostgreSQL (with ``EUCHRE_TEST_DATABASE_URL``)."""

from __future__ import annotations

from typing import Any

from bot_helpers import bot_app, bot_call, changing, make_token, sign_up
from starlette.testclient import TestClient

from euchre.server.core.limit_settings import LimitSettings

LOTS = 100_000


def _caps_only() -> LimitSettings:
    """The default caps on waiting tables (3) and seats held (2); rates out of the way."""
    return LimitSettings(sign_up_attempts_per_address=LOTS, sign_ups_per_address=LOTS,
                         sign_ups_per_address_day=LOTS, tables_per_address=LOTS,
                         tables_per_account=LOTS, sign_in_per_address=LOTS,
                         seats_per_address=LOTS, seats_per_account=LOTS)


def _waiting(client: TestClient) -> list[dict[str, Any]]:
    tables: list[dict[str, Any]] = client.get("/api/online").json()["tables"]
    return tables


def test_bots_share_their_owners_caps_on_waiting_tables_and_seats(db_url: str) -> None:
    limits = _caps_only()
    assert (limits.open_online_per_creator, limits.seats_held_per_person) == (3, 2)
    with TestClient(bot_app(db_url, limits=limits)) as client:
        ann = sign_up(client, "ann")
        bots = [make_token(client, ann, f"annbot{i}")["token"] for i in range(3)]
        # Waiting tables: Ann's one and two of her bots' make her three.
        mine = client.post("/api/tables", json={"kind": "online"}, headers=changing(ann))
        assert mine.status_code == 201, mine.text
        opened = [bot_call(client, "POST", "/api/tables", t, {"kind": "online"})
                  for t in bots[:2]]
        assert [r.status_code for r in opened] == [201, 201], [r.text for r in opened]
        third = bot_call(client, "POST", "/api/tables", bots[2], {"kind": "online"})
        assert third.status_code == 429, third.text
        assert "3 online tables waiting to start" in third.json()["error"]
        again = client.post("/api/tables", json={"kind": "online"}, headers=changing(ann))
        assert again.status_code == 429
        assert len(_waiting(client)) == 3
        # Seats: Bob's table has room; Ann at one seat and a bot at another make two.
        client.cookies.clear()
        bob = sign_up(client, "bob")
        bobs = client.post("/api/tables", json={"kind": "online"}, headers=changing(bob))
        assert bobs.status_code == 201
        table = bobs.json()["id"]
        client.cookies.clear()
        seated = [bot_call(client, "POST", f"/api/tables/{table}/seats", t, {"seat": s})
                  for t, s in ((bots[0], 1), (bots[1], 2))]
        assert [r.status_code for r in seated] == [201, 201], [r.text for r in seated]
        refused = bot_call(client, "POST", f"/api/tables/{table}/seats", bots[2], {"seat": 3})
        assert refused.status_code == 409 and refused.json()["code"] == "too_many_seats"
        quick = bot_call(client, "POST", "/api/online/quick", bots[2], {})
        assert quick.status_code == 409 and quick.json()["code"] == "too_many_seats"
        seats = client.get(f"/api/online/{table}").json()["seats"]
        assert [s["name"] for s in seats] == ["bob", "annbot0", "annbot1", None]
        # Another person's bot is another person: it sits.
        client.cookies.clear()
        cy = sign_up(client, "cyd")
        cybot = make_token(client, cy, "cybot")["token"]
        client.cookies.clear()
        last = bot_call(client, "POST", f"/api/tables/{table}/seats", cybot, {"seat": 3})
        assert last.status_code == 201, last.text
