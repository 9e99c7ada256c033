"""Server-side sessions: the cookie holds only a random id; the database keeps its hash.

Each session also has a CSRF token, given to the client in JSON (never in a cookie the
browser sends by itself) and checked on every state-changing request.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncEngine

from ..coins.ledger import utcnow
from ..storage.accounts_models import sessions

SESSION_DAYS = 30
"""How long a session lasts."""
COOKIE_NAME = "euchre_session"
"""The session cookie's name."""
CSRF_HEADER = "x-csrf-token"
"""The request header that carries the CSRF token."""


def _hash(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def _aware(t: dt.datetime) -> dt.datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)


@dataclass(frozen=True, slots=True)
class LoginSession:
    """A signed-in session."""

    account_id: int
    """Who is signed in."""
    csrf: str
    """The CSRF token to echo in :data:`CSRF_HEADER`."""
    expires_at: dt.datetime
    """When it stops working."""

    def csrf_ok(self, token: str | None) -> bool:
        """Whether ``token`` is this session's CSRF token (constant-time)."""
        return token is not None and hmac.compare_digest(self.csrf.encode(), token.encode())


class LoginSessionStore:
    """Create, find and end sessions."""

    def __init__(self, engine: AsyncEngine, now: Callable[[], dt.datetime] = utcnow,
                 days: int = SESSION_DAYS) -> None:
        """Sessions in ``engine``'s database lasting ``days``."""
        self.engine = engine
        """The database."""
        self.now = now
        """The clock."""
        self.days = days
        """Lifetime in days."""

    async def create(self, account_id: int) -> tuple[str, LoginSession]:
        """A new session: (the id for the cookie, the session)."""
        session_id = secrets.token_urlsafe(32)
        now = self.now()
        session = LoginSession(account_id, secrets.token_urlsafe(32),
                          now + dt.timedelta(days=self.days))
        async with self.engine.begin() as conn:
            await conn.execute(
                sessions.insert().values(
                    id_hash=_hash(session_id),
                    account_id=account_id,
                    csrf=session.csrf,
                    created_at=now,
                    expires_at=session.expires_at,
                )
            )
        return session_id, session

    async def find(self, session_id: str | None) -> LoginSession | None:
        """The live session with this id, or None (unknown, forged or expired)."""
        if not session_id or len(session_id) > 128:
            return None
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(sessions).where(sessions.c.id_hash == _hash(session_id)))
            ).first()
        if row is None or _aware(row.expires_at) <= self.now():
            return None
        return LoginSession(row.account_id, row.csrf, _aware(row.expires_at))

    async def end(self, session_id: str | None) -> None:
        """Sign out: forget the session (an unknown id is ignored)."""
        if not session_id:
            return
        async with self.engine.begin() as conn:
            await conn.execute(delete(sessions).where(sessions.c.id_hash == _hash(session_id)))

    async def purge(self) -> int:
        """Delete expired sessions; returns how many."""
        async with self.engine.begin() as conn:
            result = await conn.execute(delete(sessions).where(sessions.c.expires_at <= self.now()))
        return int(result.rowcount or 0)
