"""Who is asking: the signed-in person behind a request, for tables that record accounts.

The session cookie is ``SameSite=Strict`` (never sent by another site's request), so an
ordinary table may take the account from it alone; a rated table (where a seat changes
the person's rating) also wants the session's CSRF token in ``X-CSRF-Token``, like every
other request that changes an account.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from starlette.requests import Request

from ..accounts import COOKIE_NAME, CSRF_HEADER, CsrfError, NotSignedInError
from ..table.seats import TableConfig


@dataclass(frozen=True)
class Person:
    """A signed-in person."""

    account_id: int
    """The account's id."""
    username: str
    """The account's name (their name at every table)."""


async def person_of(request: Request, *, csrf: bool = False) -> Person | None:
    """The signed-in person making ``request``, or None for a guest; with ``csrf`` a
    signed-in request without the right ``X-CSRF-Token`` is refused (:class:`CsrfError`)."""
    state = getattr(request.app.state, "accounts", None)
    if state is None:
        return None
    cookie = request.cookies.get(COOKIE_NAME)
    session = await state.sessions.find(cookie) if cookie else None
    if session is None:
        return None
    if csrf and not session.csrf_ok(request.headers.get(CSRF_HEADER)):
        raise CsrfError("the X-CSRF-Token header is missing or wrong: reload the page")
    try:
        account = await state.accounts.get(session.account_id)
    except NotSignedInError:
        return None
    return Person(int(account.id), str(account.username))


async def seat_person(request: Request, config: TableConfig, seat: int) -> TableConfig:
    """``config`` with the signed-in person (if any) recorded at ``seat``."""
    person = await person_of(request)
    if person is None:
        return config
    seats = list(config.seats)
    seats[seat] = dataclasses.replace(seats[seat], account=person.username,
                                      account_id=person.account_id)
    return dataclasses.replace(config, seats=(seats[0], seats[1], seats[2], seats[3]))
