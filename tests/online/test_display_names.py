"""Display names that could pass for a seat or a computer are refused, with a clear message,
wherever a person names themself: online tables, practice tables, usernames (the rule itself:
``tests/table/kinds/test_names.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from euchre.accounts.errors import BadUsernameError
from euchre.accounts.service import check_username
from euchre.server import Settings, create_app
from euchre.server.accounts.accounts_api import AccountsOptions


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(bot_delay=0.0, hand_pause=0.0,
                              database_url=f"sqlite+aiosqlite:///{tmp_path}/names.db"),
                     accounts=AccountsOptions(password_profile="cheapest"))
    with TestClient(app) as c:
        yield c


def test_every_way_in_refuses_them_and_changes_nothing(client: TestClient) -> None:
    for body in ({"kind": "online", "name": "North (hard)"}, {"kind": "practice",
                                                             "name": "East (medium)"}):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400
        assert "could be taken for a seat or a computer player" in r.json()["error"]
    assert client.get("/api/online").json()["tables"] == []
    made = client.post("/api/tables", json={"kind": "online", "name": "Ann"}).json()
    assert made["seat"] == 0
    r = client.post(f"/api/tables/{made['id']}/seats", json={"seat": 2, "name": "North"})
    assert r.status_code == 400 and "choose another" in r.json()["error"]
    assert client.get(f"/api/online/{made['id']}").json()["free"] == 3
    r = client.post("/api/accounts", json={"username": "Computer", "password": "correct horse"})
    assert r.status_code == 400 and "could be taken" in r.json()["error"]
    with pytest.raises(BadUsernameError):
        check_username("North")
    # With no name given, the creator of an online table is "Host", not a seat's name.
    made = client.post("/api/tables", json={"kind": "online"}).json()
    assert client.get(f"/api/online/{made['id']}").json()["seats"][0]["name"] == "Host"


def test_a_guest_may_not_take_or_mimic_an_accounts_name(client: TestClient) -> None:
    """Issue 34 item 6: a guest's name that is, or looks like, an account's is refused at
    every way in (open, claim, Play now); nothing changes; another name sits."""
    signed = client.post("/api/accounts", json={"username": "Bill", "password": "correct horse"})
    assert signed.status_code == 201
    client.cookies.clear()  # a guest now
    made = client.post("/api/tables", json={"kind": "online", "name": "Ann"}).json()
    for name in ("Bill", "bill", "BiII", "Bi11"):
        for path, body in (("/api/tables", {"kind": "online", "name": name}),
                           (f"/api/tables/{made['id']}/seats", {"seat": 2, "name": name}),
                           ("/api/online/quick", {"name": name})):
            r = client.post(path, json=body)
            assert r.status_code == 409, (path, name, r.text)
            assert r.json()["error"] == (f"the name {name!r} is, or looks like, the account "
                                         "name 'Bill': sign in to play as it, or choose another")
    assert len(client.get("/api/online").json()["tables"]) == 1
    assert client.get(f"/api/online/{made['id']}").json()["free"] == 3
    r = client.post(f"/api/tables/{made['id']}/seats", json={"seat": 2, "name": "Billie"})
    assert r.status_code == 201
