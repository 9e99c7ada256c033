"""Account names that look like another's are refused (issue 34, item 6).

Every account (a person's or a bot's) keeps its name's look-alike keys
(:func:`euchre.table.kinds.lookalike.lookalike_keys`: confusable skeletons as written, in upper
and in lower case) in ``account_lookalikes``; a new name sharing a key with one of them
(``BiII`` beside ``Bill``, ``B0B`` beside ``Bob``) is refused, naming the account it looks
like. Names made before the table was: their keys are filled at start
(:func:`fill_missing`), and two of them that look alike both keep working.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from ..storage.accounts_models import account_lookalikes, accounts
from ..table.kinds.lookalike import lookalike_keys
from .errors import UsernameTakenError

KEY_LENGTH = 128
"""The stored key's longest length (a skeleton may be longer than its name: m is rn)."""


def name_keys(name: str) -> list[str]:
    """The keys kept for ``name``, sorted."""
    return sorted({k[:KEY_LENGTH] for k in lookalike_keys(name)})


async def check_not_lookalike(conn: AsyncConnection, name: str) -> None:
    """Refuse (:class:`UsernameTakenError`, 409) a new name that looks like an account's
    (its own exact name is the caller's concern: ``username_key``)."""
    other = await conn.scalar(
        select(accounts.c.username)
        .select_from(account_lookalikes.join(accounts))
        .where(account_lookalikes.c.key.in_(name_keys(name)),
               accounts.c.username_key != name.lower())
        .limit(1))
    if other is not None:
        raise UsernameTakenError(f"{name!r} looks like the name {str(other)!r}, someone "
                                 "else's: choose another")


async def check_guest_name(engine: AsyncEngine, name: str) -> None:
    """Refuse (:class:`UsernameTakenError`, 409) a guest's display name that is, or looks
    like, an account's name: a guest could otherwise sit as someone known."""
    async with engine.connect() as conn:
        other = await conn.scalar(
            select(accounts.c.username)
            .select_from(account_lookalikes.join(accounts))
            .where(account_lookalikes.c.key.in_(name_keys(name))).limit(1))
    if other is not None:
        raise UsernameTakenError(f"the name {name!r} is, or looks like, the account name "
                                 f"{str(other)!r}: sign in to play as it, or choose another")


async def keep_keys(conn: AsyncConnection, account_id: int, name: str) -> None:
    """Store the keys of a new account's ``name``."""
    await conn.execute(account_lookalikes.insert(),
                       [{"account_id": account_id, "key": k} for k in name_keys(name)])


async def fill_missing(engine: AsyncEngine, tries: int = 3) -> int:
    """Store the keys of every account that has none (made before the table was); how
    many accounts were filled. Processes starting together may race: the loser of a
    conflict looks again (the winner's rows are then there)."""
    for attempt in range(tries):
        try:
            async with engine.begin() as conn:
                rows = (await conn.execute(
                    select(accounts.c.id, accounts.c.username)
                    .where(~accounts.c.id.in_(select(account_lookalikes.c.account_id)))
                    .order_by(accounts.c.id))).all()
                for account_id, username in rows:
                    await keep_keys(conn, int(account_id), str(username))
            return len(rows)
        except IntegrityError:
            if attempt == tries - 1:
                raise
    return 0
