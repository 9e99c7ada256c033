"""A person's sources, for rated tables: the household's network and the browser they sit
down from. (Not a web page's ``Origin``, which :mod:`.web_origin` checks.)

A rated table does not seat two accounts that share either (``OpenTable.take_seat``), so one
person cannot play their own accounts against each other for a rating:

- the **network**: the client's address as the server sees it (:func:`guards.household_of`:
  the peer of the connection, which uvicorn takes from ``X-Forwarded-For`` only when the proxy
  is trusted, ``FORWARDED_ALLOW_IPS``; an IPv6 address as its /64). It catches accounts made
  and played from one home, whatever browsers they use;
- the **browser**: a long-lived random id in the ``euchre_browser`` cookie, set on every page
  the web client loads. It catches one browser signed in to several accounts in turn, from
  whatever network (a phone moving between Wi-Fi and mobile data, a VPN per account).

Neither alone is proof (a cookie is cleared, an address is changed), which is why new
accounts are also provisional until they have met enough different people. Only hashes
salted with the table's id are kept with a seat, never an address.
"""

from __future__ import annotations

import hashlib
import secrets

from starlette.requests import HTTPConnection
from starlette.responses import Response

from ...table.actor.seats import WIDER_SOURCE
from .guards import address_of, household_of, wider_networks_of

BROWSER_COOKIE = "euchre_browser"
"""The cookie that names a browser (random; no account, nothing else in it)."""

BROWSER_DAYS = 400
"""How long the browser cookie lasts (browsers cap cookies at 400 days)."""


def browser_of(conn: HTTPConnection) -> str | None:
    """The browser id the request carries, if it looks like one this server set."""
    value = conn.cookies.get(BROWSER_COOKIE)
    return value if value and len(value) <= 64 and value.isalnum() else None


def set_browser_cookie(conn: HTTPConnection, response: Response) -> None:
    """Give a browser that has none its id (HttpOnly; sent to this site only)."""
    if browser_of(conn) is None:
        response.set_cookie(BROWSER_COOKIE, secrets.token_hex(16),
                            max_age=BROWSER_DAYS * 86400, path="/", httponly=True,
                            samesite="lax", secure=conn.url.scheme == "https")


def _hashed(table_id: str, key: str) -> str:
    return hashlib.sha256(f"{table_id}|{key}".encode()).hexdigest()[:24]


def sources_of(conn: HTTPConnection, table_id: str) -> list[str]:
    """The request's network and browser (when known), each hashed with ``table_id``; for
    IPv6, the /56 and /48 around the address too, marked ``w`` (a wider network: a home
    given a /56 or a /48 rotates its /64 at will, so two accounts from one block are
    taken for one person, ``OpenTable.shared_source``)."""
    keys = [_hashed(table_id, f"net:{household_of(conn)}")]
    browser = browser_of(conn)
    if browser is not None:
        keys.append(_hashed(table_id, f"browser:{browser}"))
    keys += [WIDER_SOURCE + _hashed(table_id, f"net:{block}")
             for block in wider_networks_of(address_of(conn))]
    return keys
