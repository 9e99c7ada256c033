"""Bot tokens over the API (SQLite, and PostgreSQL with ``EUCHRE_TEST_DATABASE_URL``): made
for a bot named by its owner, shown once and stored hashed, listed, revoked (refused at once
after), and every bad request refused with nothing changed."""

from __future__ import annotations

import asyncio
import hashlib

from bot_helpers import bot_app, bot_call, changing, make_token, sign_up
from sqlalchemy import select
from starlette.testclient import TestClient

from euchre.storage.accounts_models import accounts
from euchre.storage.bot_models import bot_tokens, bots
from euchre.storage.sql import make_engine


async def _rows(url: str) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            tokens = [dict(r._mapping) for r in await conn.execute(select(bot_tokens))]
            accounts_rows = [dict(r._mapping) for r in await conn.execute(
                select(accounts.c.username, accounts.c.password_hash, accounts.c.balance,
                       bots.c.owner_id).select_from(
                    accounts.join(bots, bots.c.account_id == accounts.c.id)))]
        return tokens, accounts_rows
    finally:
        await engine.dispose()


def test_a_token_is_shown_once_stored_hashed_listed_and_revoked(db_url: str) -> None:
    with TestClient(bot_app(db_url)) as client:
        csrf = sign_up(client, "ann")
        made = make_token(client, csrf, "annbot")
        token = made["token"]
        assert token.startswith("eb_") and len(token) > 40
        assert made["bot"] == "annbot" and made["live"] and token.startswith(made["prefix"])
        assert "shown only now" in made["notice"]

        # Stored as its hash only; the bot is an account with no password and no coins.
        stored, bot_accounts = asyncio.run(_rows(db_url))
        assert [r["token_hash"] for r in stored] == [hashlib.sha256(token.encode()).hexdigest()]
        assert all(token not in str(v) for r in stored for v in r.values())
        assert bot_accounts == [{"username": "annbot", "password_hash": "!bot", "balance": 0,
                                 "owner_id": bot_accounts[0]["owner_id"]}]

        # The program asks who it is; the list never shows the token again.
        me = bot_call(client, "GET", "/api/bot", token)
        assert me.status_code == 200 and me.json()["name"] == "annbot"
        listed = client.get("/api/me/bots").json()["tokens"]
        assert [(t["id"], t["bot"], t["live"]) for t in listed] == [(made["id"], "annbot", True)]
        assert token not in client.get("/api/me/bots").text
        assert listed[0]["last_used_at"] is not None

        # A second token for the same bot; revoking one leaves the other.
        second = make_token(client, csrf, "AnnBot")  # the name, whatever its case
        assert second["bot"] == "annbot"
        r = client.delete(f"/api/me/bots/{made['id']}", headers=changing(csrf))
        assert r.status_code == 200 and r.json()["live"] is False
        assert r.json()["revoked_at"] is not None
        refused = bot_call(client, "GET", "/api/bot", token)
        assert refused.status_code == 401
        assert refused.json() == {"error": "this bot token is unknown or was revoked",
                                  "code": "bad_bot_token"}
        assert bot_call(client, "GET", "/api/bot", second["token"]).status_code == 200
        again = client.delete(f"/api/me/bots/{made['id']}", headers=changing(csrf))
        assert again.status_code == 200  # revoking twice changes nothing
        assert again.json()["revoked_at"] == r.json()["revoked_at"]
        listed = client.get("/api/me/bots").json()["tokens"]
        assert [(t["id"], t["live"]) for t in listed] == [(second["id"], True),
                                                          (made["id"], False)]


def test_refusals_change_nothing(db_url: str) -> None:
    with TestClient(bot_app(db_url)) as client:
        ann = sign_up(client, "ann")
        theirs = make_token(client, ann, "annbot")
        client.delete("/api/session", headers=changing(ann))
        # Signed out: no tokens, no list, no revoking.
        assert client.post("/api/me/bots", json={"name": "x_bot"}).status_code == 401
        assert client.get("/api/me/bots").status_code == 401
        bob = sign_up(client, "bob")
        # No CSRF token; a bad name; a person's name; another person's bot; a bad body.
        assert client.post("/api/me/bots", json={"name": "bobbot"}).status_code == 403
        r = client.post("/api/me/bots", json={"name": "no"}, headers={"X-CSRF-Token": bob})
        assert r.status_code == 400 and r.json()["code"] == "bad_username"
        for taken in ("ann", "ANNBOT"):
            r = client.post("/api/me/bots", json={"name": taken}, headers={"X-CSRF-Token": bob})
            assert r.status_code == 409 and "taken" in r.json()["error"]
        r = client.post("/api/me/bots", json={"name": "bobbot", "level": 3},
                        headers={"X-CSRF-Token": bob})
        assert r.status_code == 400
        # Bob cannot revoke Ann's token, nor one that does not exist.
        for token_id in (theirs["id"], 999, "x"):
            r = client.delete(f"/api/me/bots/{token_id}", headers=changing(bob))
            assert r.status_code == 404
        assert client.get("/api/me/bots").json()["tokens"] == []
        assert bot_call(client, "GET", "/api/bot", theirs["token"]).status_code == 200
        # Nobody signs in as a bot; a made-up or malformed token is refused, never a guest.
        r = client.post("/api/session", json={"username": "annbot", "password": "!bot"})
        assert r.status_code == 401
        for bad in ("eb_nothing", "x" * 300, ""):
            assert bot_call(client, "GET", "/api/bot", bad).status_code == 401
        r = client.get("/api/bot", headers={"Authorization": "Basic abc"})
        assert r.status_code == 401
        assert client.get("/api/bot").status_code == 401
        # A bot's token cannot open practice or online tables once revoked: 401, no table.
        stored_before, _ = asyncio.run(_rows(db_url))
        assert len(stored_before) == 1
